/**
 * The global chaos setting (`--chaos`, `A2A_SIM_CHAOS`, `createSimulator({ chaos })`): a profile
 * name, `key=value` pairs as in the `X-Sim-Chaos` header, or the path of a `*.chaos.yaml` file.
 * A mistake here stops the simulator from starting: a typo must not silently mean "no chaos".
 */
import { formatIssue } from '../lib/yaml-file.js';
import { CHAOS_FILE, loadChaosFile } from './catalog.js';
import { ChaosSyntaxError, parseChaosPairs } from './pairs.js';
import type { ChaosLevel, RawChaosProfile } from './profile.js';

export async function chaosSetting(
  value: string,
  profiles: ReadonlyMap<string, RawChaosProfile>,
): Promise<ChaosLevel> {
  if (CHAOS_FILE.test(value.trim())) {
    const { profile, issues } = await loadChaosFile(value.trim());
    if (!profile) throw new Error(`--chaos ${value}: ${issues.map(formatIssue).join('; ')}`);
    return { settings: profile };
  }
  let level: ChaosLevel;
  try {
    level = parseChaosPairs(value);
  } catch (error) {
    if (error instanceof ChaosSyntaxError) throw new Error(`--chaos "${value}": ${error.message}`);
    throw error;
  }
  if (level.profile !== undefined && !profiles.has(level.profile)) {
    throw new Error(
      `--chaos "${value}": no chaos profile "${level.profile}"; profiles: ${[...profiles.keys()].join(', ') || '(none)'}`,
    );
  }
  return level;
}

/**
 * The global chaos level, shared by every agent's chaos layer; the control plane changes it while
 * the simulator runs (`PUT /_sim/chaos`), and each call reads it as it comes.
 */
export class GlobalChaos {
  private current: { level: ChaosLevel; source: string } | undefined;

  constructor(readonly profiles: ReadonlyMap<string, RawChaosProfile>) {}

  /** The level every call starts from, if one is set. */
  get level(): ChaosLevel | undefined {
    return this.current?.level;
  }

  /** As it was given: a profile name, pairs, or a file path. */
  get source(): string | undefined {
    return this.current?.source;
  }

  /** Sets the level from a profile name, pairs or a `*.chaos.yaml` path; throws on a mistake. */
  async set(value: string): Promise<void> {
    this.current = { level: await chaosSetting(value, this.profiles), source: value };
  }

  clear(): void {
    this.current = undefined;
  }
}
