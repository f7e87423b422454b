/**
 * Chaos settings as `key=value` pairs: the `X-Sim-Chaos` header, `metadata.chaos`, a scenario's
 * `chaos:`, `--chaos` and `PUT /_sim/chaos`. A pair key is the profile field's path in kebab case
 * (`latency.firstByte` → `latency-first-byte`, `quirks` → `quirks`), so every setting has one name.
 *
 * @example X-Sim-Chaos: profile=flaky-mobile, drop-after-events=3, drop-mode=reset, latency-per-event=0..50ms
 * @example X-Sim-Chaos: flaky-mobile
 */
import { readDuration } from '../lib/duration.js';
import { PROFILE_FIELDS, type ChaosLevel, type FieldValue, type RawChaosProfile } from './profile.js';

export class ChaosSyntaxError extends Error {}

type Read = (value: string, key: string) => unknown;

interface Pair {
  path: readonly string[];
  read: Read;
}

/** What each pair key sets; a Map, so that `__proto__=1` or a bare `toString` names no key. */
const PAIRS: ReadonlyMap<string, Pair> = new Map(
  PROFILE_FIELDS.map(({ path, value }) => [pairKeyOf(path), { path, read: readerOf(value) }]),
);

/**
 * The spellings from before pair keys were the profile's paths, still read with exactly their old
 * meaning: `jitter=X` is `latency-per-event=0..X`, and the old delay keys take a plain duration.
 */
const ALIASES: ReadonlyMap<string, Pair> = new Map(
  (
    [
      ['latency', 'latency-first-byte', duration],
      ['jitter', 'latency-per-event', (v, key) => ({ min: 0, max: duration(v, key) })],
      ['drop-after', 'drop-after-events'],
      ['drop-rate', 'drop-probability'],
      ['duplicate', 'duplicate-probability'],
      ['duplicate-late', 'duplicate-late-by'],
      ['error', 'errors-kind'],
      ['error-rate', 'errors-rate'],
      ['error-on', 'errors-on-call'],
      ['retry-after', 'errors-retry-after'],
      ['push-fail-first', 'delivery-fail-first'],
      ['push-duplicate', 'delivery-duplicate'],
      ['push-out-of-order', 'delivery-out-of-order'],
      ['push-delay', 'delivery-delay', duration],
    ] as const satisfies readonly (readonly [string, string, Read?])[]
  ).map(([alias, key, read]) => {
    const pair = PAIRS.get(key)!;
    return [alias, { path: pair.path, read: read ?? pair.read }];
  }),
);

const pairOf = (key: string): Pair | undefined => PAIRS.get(key) ?? ALIASES.get(key);

/** Reads `profile=NAME, drop-after-events=3, …`; a bare word is a profile name. */
export function parseChaosPairs(text: string): ChaosLevel {
  const level: ChaosLevel = {};
  const settings: RawChaosProfile = {};
  for (const item of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key = '', value] = item.split(/=(.*)/s).map((s) => s.trim());
    const pair = pairOf(key);
    if (key === 'off' || (key === 'profile' && (value === 'off' || value === 'none'))) {
      level.off = true;
    } else if (value === undefined && !pair) {
      level.profile = key; // a bare name: `flaky-mobile, drop-after-events=3`
    } else if (key === 'profile') {
      if (!value) throw new ChaosSyntaxError('"profile" needs a name, e.g. profile=flaky-mobile');
      level.profile = value;
    } else if (!pair) {
      throw new ChaosSyntaxError(
        `unknown key "${key}"; use profile, off, ${[...PAIRS.keys()].join(', ')} (the older spellings, such as drop-after and jitter, work too)`,
      );
    } else if (value === undefined || value === '') {
      throw new ChaosSyntaxError(`"${key}" needs a value, e.g. ${key}=…`);
    } else {
      set(settings, pair.path, pair.read(value, key));
    }
  }
  if (Object.keys(settings).length) level.settings = settings;
  return level;
}

function pairKeyOf(path: readonly string[]): string {
  return path.map((name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join('-');
}

function set(profile: RawChaosProfile, [section, field]: readonly string[], value: unknown): void {
  // Paths come from the schema, never from the text, so these are the profile's own keys.
  const sections = profile as Record<string, unknown>;
  sections[section!] = field === undefined ? value : { ...(sections[section!] as object), [field]: value };
}

function readerOf(value: FieldValue): Read {
  switch (value.kind) {
    case 'delay':
      return delay;
    case 'duration':
      return duration;
    case 'probability':
      return probability;
    case 'count':
      return (v, key) => integer(v, key, value.min);
    case 'choice':
      return (v, key) => oneOf(v, value.options, key);
    case 'list':
      return (v, key) => v.split('+').map((item) => oneOf(item.trim(), value.options, key));
  }
}

function integer(value: string, key: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new ChaosSyntaxError(`"${key}" must be a whole number of ${min} or more, got "${value}"`);
  return n;
}

function probability(value: string, key: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1))
    throw new ChaosSyntaxError(`"${key}" must be a probability from 0 to 1, got "${value}"`);
  return n;
}

function duration(value: string, key: string): number {
  const reading = readDuration(/^\d+(\.\d+)?$/.test(value) ? Number(value) : value);
  if ('error' in reading) throw new ChaosSyntaxError(`"${key}": ${reading.error}`);
  return reading.ms;
}

/**
 * A duration (`50ms`), or `min..max`, a uniform draw between them; a bare lower bound takes the
 * upper one's unit, so `1..2s` is one to two seconds.
 */
function delay(value: string, key: string): number | { min: number; max: number } {
  const range = /^(.*?)\.\.(.*)$/s.exec(value);
  if (!range) return duration(value, key);
  const [low, high] = [range[1]!.trim(), range[2]!.trim()];
  const unit = /^\d+(\.\d+)?$/.test(low) ? (/[a-z]+$/.exec(high)?.[0] ?? '') : '';
  const [min, max] = [duration(low + unit, key), duration(high, key)];
  if (min > max)
    throw new ChaosSyntaxError(`"${key}" must be a range min..max with min ≤ max, got "${value}"`);
  return { min, max };
}

function oneOf(value: string, options: readonly string[], key: string): string {
  if (!options.includes(value))
    throw new ChaosSyntaxError(`"${key}" must be one of ${options.join(', ')}, got "${value}"`);
  return value;
}
