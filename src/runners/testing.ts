/**
 * A simulator's lifecycle for a test file, for any runner: start it once on a free loopback port
 * and a virtual clock, reset it between tests, stop it at the end. `a2a-sim/vitest` registers these
 * hooks itself; with node:test or Jest, {@link registerA2aSim} takes the runner's hook functions.
 *
 * @example
 * import { after, afterEach, before, test } from 'node:test';
 * import { registerA2aSim } from 'a2a-sim/testing';
 * const a2a = registerA2aSim({ beforeAll: before, afterEach, afterAll: after });
 * test('…', async () => {
 *   const answer = await a2a.drive(fetch(`${a2a.url}/message:send`, { method: 'POST', … }));
 * });
 */
import { createSimulator, type Simulator } from '../index.js';
import type { SimulatorOptions } from '../config.js';
import type { ClientVerdicts } from '../verdicts/judge.js';
import type { InlineScenario } from '../scenario/inline.js';
import type { Task, TaskState } from '../domain/types.js';
import { VirtualClock } from '../lib/clock.js';
import { drive, waitForTask } from '../testing.js';

/** `createSimulator`'s options, on a virtual clock: the clock of a test moves only when it says. */
export type A2aSimOptions = Omit<SimulatorOptions, 'clock'> & { clock?: VirtualClock };

/** A simulator for a test file; its getters throw until {@link A2aSim.start} has resolved. */
export interface A2aSim {
  /** Starts the simulator; rejects when it is already started. */
  start(): Promise<Simulator>;
  /** {@link Simulator.reset}: no tasks, logs or verdicts left, no scenario a test added, the chaos configured. */
  reset(): Promise<void>;
  /** Stops the simulator, if it is started. */
  stop(): Promise<void>;
  readonly sim: Simulator;
  /** Its base URL, e.g. `http://127.0.0.1:41241`. */
  readonly url: string;
  readonly clock: VirtualClock;
  /** {@link Simulator.use}: scenarios ahead of every other until the next reset. */
  use(...scenarios: InlineScenario[]): Promise<void>;
  /** {@link Simulator.verdicts}: each client's verdicts, rule by rule. */
  verdicts(client?: string): ClientVerdicts[];
  /** Awaits `work` (a request, say), running the virtual clock whenever the event loop is idle. */
  drive<T>(work: Promise<T>): Promise<T>;
  /** The task once it reaches `state`, running the virtual clock meanwhile. */
  waitForTask(taskId: string, state: TaskState | `TASK_STATE_${string}`): Promise<Task>;
}

/**
 * The lifecycle, not started yet. Listens on 127.0.0.1 on a free port, logs nothing, and runs on
 * a {@link VirtualClock} unless the options say otherwise.
 * @example const a2a = a2aSim({ seed: 'checkout' }); await a2a.start(); … await a2a.stop();
 */
export function a2aSim(options: A2aSimOptions = {}): A2aSim {
  let sim: Simulator | undefined;
  const clock = options.clock ?? new VirtualClock();
  const started = (): Simulator => {
    if (sim) return sim;
    throw new Error(
      'Failed to reach the simulator: it is not started. Call start() first (useA2aSim starts it in beforeAll).',
    );
  };
  return {
    async start() {
      if (sim) throw new Error('Failed to start the simulator: it is already started. Call stop() first.');
      sim = await createSimulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', ...options, clock });
      return sim;
    },
    reset: async () => started().reset(),
    async stop() {
      const running = sim;
      sim = undefined;
      await running?.close();
    },
    get sim() {
      return started();
    },
    get url() {
      return started().url;
    },
    clock,
    use: (...scenarios) => started().use(...scenarios),
    verdicts: (client) => started().verdicts(client),
    drive: (work) => drive(clock, work),
    waitForTask: (taskId, state) => waitForTask(started(), taskId, state),
  };
}

/**
 * A started simulator's lifecycle, for a script or a runner's own hook.
 * @example const a2a = await startA2aSim(); … await a2a.stop();
 */
export async function startA2aSim(options: A2aSimOptions = {}): Promise<A2aSim> {
  const handle = a2aSim(options);
  await handle.start();
  return handle;
}

/** A test runner's hooks, under vitest's and Jest's names; node:test calls two of them `before` and `after`. */
export interface TestHooks {
  beforeAll(fn: () => Promise<unknown>): void;
  afterEach(fn: () => Promise<unknown>): void;
  afterAll(fn: () => Promise<unknown>): void;
}

/**
 * Registers the lifecycle on a runner's hooks: started before the file's first test, reset after
 * each test, stopped after the last. Call it at the top of a test file.
 * @example const a2a = registerA2aSim({ beforeAll, afterEach, afterAll }); // Jest
 */
export function registerA2aSim(hooks: TestHooks, options: A2aSimOptions = {}): A2aSim {
  const handle = a2aSim(options);
  hooks.beforeAll(() => handle.start());
  hooks.afterEach(() => handle.reset());
  hooks.afterAll(() => handle.stop());
  return handle;
}

export { drive, waitForTask } from '../testing.js';
export { VirtualClock } from '../lib/clock.js';
export type { Simulator } from '../index.js';
