/**
 * A scenario's `chaos:` is a reference the chaos layer resolves: the scenario keeps the text as
 * written, and this reads it, once per scenario, with the same grammar as the `X-Sim-Chaos` header.
 */
import type { Scenario } from '../scenario/model.js';
import { ChaosSyntaxError, parseChaosPairs } from './pairs.js';
import type { ChaosLevel } from './profile.js';

const levels = new WeakMap<Scenario, ChaosLevel>();

/** The check the scenario loader runs on each `chaos:` text: the problem, or undefined. */
export function chaosTextProblem(text: string): string | undefined {
  try {
    parseChaosPairs(text);
    return undefined;
  } catch (error) {
    if (error instanceof ChaosSyntaxError) return error.message;
    throw error;
  }
}

/** The chaos level a scenario asks for, if any. Its text was checked when the scenario loaded. */
export function scenarioChaos(scenario: Scenario): ChaosLevel | undefined {
  if (scenario.chaos === undefined) return undefined;
  let level = levels.get(scenario);
  if (!level) levels.set(scenario, (level = parseChaosPairs(scenario.chaos)));
  return level;
}
