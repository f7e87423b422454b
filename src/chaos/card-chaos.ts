/**
 * Chaos on agent cards: a card request is no A2A operation and passes no pipeline, so its chaos is
 * read here from the levels a card request can carry (the global one, then its `X-Sim-Chaos`), and
 * what it does goes on the fault log and on the request's exchange, as the layer's faults do.
 */
import type { Clock } from '../lib/clock.js';
import type { Exchange } from '../calls/exchange.js';
import { invalidParams } from '../domain/errors.js';
import type { FaultLog } from './fault-log.js';
import { ChaosSyntaxError, parseChaosPairs } from './pairs.js';
import type { CardSignatureFault } from '../domain/card-signature.js';
import { overlay, type ChaosLevel, type RawChaosProfile } from './profile.js';
import type { GlobalChaos } from './setting.js';

export interface CardChaosOptions {
  clock: Clock;
  profiles: ReadonlyMap<string, RawChaosProfile>;
  global: GlobalChaos;
  faults: FaultLog;
}

/**
 * The fault to apply to a signed card served now, if one is in force; recorded when it is.
 * @example const fault = cardSignatureFault(options, req.headers['x-sim-chaos'], exchange) // 'invalid'
 */
export function cardSignatureFault(
  options: CardChaosOptions,
  header: string | undefined,
  exchange: Exchange,
): CardSignatureFault | undefined {
  let profile: RawChaosProfile = {};
  const names: string[] = [];
  for (const [where, level] of [
    ['global', options.global.level],
    ['header', headerLevel(header)],
  ] as const) {
    if (!level) continue;
    if (level.off) [profile, names.length] = [{}, 0];
    if (level.profile !== undefined) {
      const named = options.profiles.get(level.profile);
      if (!named && where === 'header') throw unknownProfile(level.profile, options.profiles);
      profile = overlay(profile, named ?? {});
      names.push(level.profile);
    }
    if (level.settings) {
      profile = overlay(profile, level.settings);
      names.push(where);
    }
  }
  const fault = profile.card?.signature;
  if (!fault) return undefined;
  options.faults.applied(
    {
      at: new Date(options.clock.now()).toISOString(),
      kind: 'card',
      detail: { signature: fault },
      profile: names.join('+'),
    },
    exchange,
  );
  return fault;
}

function headerLevel(header: string | undefined): ChaosLevel | undefined {
  if (header === undefined) return undefined;
  try {
    return parseChaosPairs(header);
  } catch (error) {
    if (error instanceof ChaosSyntaxError) {
      throw invalidParams([{ field: 'X-Sim-Chaos', description: error.message }]);
    }
    throw error;
  }
}

function unknownProfile(name: string, profiles: ReadonlyMap<string, RawChaosProfile>) {
  const known = [...profiles.keys()].join(', ') || '(none)';
  return invalidParams([
    { field: 'X-Sim-Chaos', description: `no chaos profile "${name}"; profiles: ${known}` },
  ]);
}
