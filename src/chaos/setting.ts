/**
 * The global chaos setting (`--chaos`, `A2A_SIM_CHAOS`, `createSimulator({ chaos })`): a profile
 * name, `key=value` pairs as in the `X-Sim-Chaos` header, or the path of a `*.chaos.yaml` file.
 * A mistake here stops the simulator from starting: a typo must not silently mean "no chaos".
 */
import { formatIssue } from '../lib/yaml-file.js';
import { CHAOS_FILE, loadChaosFile } from './catalog.js';
import { ChaosSyntaxError, parseChaosPairs, type ChaosLevel, type RawChaosProfile } from './profile.js';

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
