/**
 * An exam's simulator and its judging, apart from the command that runs a client against it: the
 * curricula's chaos, speed and retention set up on a fresh simulator, and at the end the verdicts
 * of the rules they exercise, once every task a client left after a cut has ended.
 * `a2a-sim exam` runs one; the client zoo (test/zoo/) runs one per curriculum at once.
 */
import { createSimulator, type Simulator } from '../index.js';
import { wallDelay, wallNow } from '../lib/clock.js';
import type { ClientVerdicts } from '../verdicts/judge.js';
import { combine, loadCurricula, type Curriculum } from '../verdicts/curriculum.js';

export interface ExamSettings {
  /** Built-in curricula by name, or *.curriculum.yaml paths. */
  curricula: readonly string[];
  speed?: number;
  seed?: string | undefined;
  scenarioDirs?: string[];
  builtinScenarios?: boolean;
}

export interface ExamSession {
  sim: Simulator;
  curricula: readonly Curriculum[];
  /** The rules the curricula exercise: the verdicts that count. */
  rules: readonly string[];
  /**
   * Waits, at most `waitMs`, until no task a client left after a cut still runs (a client that
   * took the cut for the end and left must be seen to lose the rest), then judges the clients and
   * closes the simulator.
   */
  judge(waitMs: number): Promise<ClientVerdicts[]>;
}

export async function openExam(settings: ExamSettings): Promise<ExamSession> {
  const curricula = await loadCurricula(settings.curricula);
  const { chaos, speed, eventTtl, signCards, preview, rules, thresholds } = combine(curricula);
  const sim = await createSimulator({
    port: 0,
    logLevel: 'warn',
    ...(settings.scenarioDirs && { scenarioDirs: settings.scenarioDirs }),
    ...(settings.builtinScenarios !== undefined && { builtinScenarios: settings.builtinScenarios }),
    ...(settings.seed !== undefined && { seed: settings.seed }),
    speed: settings.speed ?? speed ?? 1,
    ...(chaos && { chaos }),
    ...(eventTtl && { retention: { eventTtl } }),
    ...(signCards && { cardSigningKey: 'generate' }),
    ...(preview && { preview }),
    verdicts: thresholds,
  });
  return {
    sim,
    curricula,
    rules,
    judge: async (waitMs) => {
      const until = wallNow() + waitMs;
      while (sim.awaitingVerdicts().length > 0 && wallNow() < until) await wallDelay(100);
      // Judged against the tasks as they are now, before closing forgets them.
      const clients = sim.verdicts();
      await sim.close();
      return clients;
    },
  };
}
