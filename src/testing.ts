/**
 * Helpers for tests that start a simulator on a virtual clock: run the clock until a request
 * settles, or until a task reaches a state. Nothing here waits on the wall clock: between steps it
 * yields to the event loop (so I/O runs) and then jumps the clock to its next timer.
 *
 * @example
 * const clock = new VirtualClock();
 * const sim = await createSimulator({ port: 0, clock });
 * const answer = await drive(clock, fetch(`${sim.url}/message:send`, { method: 'POST', ... }));
 * const task = await waitForTask(sim, taskId, 'completed');
 */
import { isTerminal } from './domain/lifecycle.js';
import type { Task, TaskState } from './domain/types.js';
import { TASK_STATE_FROM_WIRE } from './domain/wire-states.js';
import type { Clock, VirtualClock } from './lib/clock.js';
import type { TaskStore } from './store/task-store.js';

/** What {@link waitForTask} reads of a Simulator. */
export interface WatchedSimulator {
  store: Pick<TaskStore, 'find' | 'onEvent'>;
  clock: Clock;
}

/** How many clock jumps a helper makes before it gives up: a task that never ends must fail the test. */
const MAX_STEPS = 100_000;

/** Awaits `work`, moving the virtual clock to each next timer whenever the event loop is idle. */
export async function drive<T>(clock: VirtualClock, work: Promise<T>, maxSteps = MAX_STEPS): Promise<T> {
  const settled = settledYet(work);
  for (let step = 0; !settled(); step++) {
    if (step > maxSteps) throw new Error(`drive: still pending after ${maxSteps} clock steps`);
    await new Promise((resolve) => setImmediate(resolve));
    if (settled()) break;
    const next = clock.nextAt();
    if (next !== undefined) clock.advance(Math.max(0, next - clock.now()));
  }
  return work;
}

/** Asks, without awaiting it, whether `work` has settled (resolved or rejected) yet. */
export function settledYet(work: Promise<unknown>): () => boolean {
  let settled = false;
  const done = () => (settled = true);
  work.then(done, done);
  return () => settled;
}

/**
 * The task once its status is `state` (`completed` or `TASK_STATE_COMPLETED`), as the simulator
 * holds it; with a virtual clock, the clock is run until then. Rejects when the task is not found,
 * or ends in another terminal state first.
 */
export async function waitForTask(
  sim: WatchedSimulator,
  taskId: string,
  state: TaskState | `TASK_STATE_${string}`,
): Promise<Task> {
  const wanted = TASK_STATE_FROM_WIRE.get(state) ?? state;
  const reached = new Promise<Task>((resolve, reject) => {
    /** Settles the wait when the task is gone, there, or ended elsewhere; says whether it did. */
    const check = (): boolean => {
      const record = sim.store.find(taskId);
      const now = record?.status.state;
      if (!record) reject(new Error(`waitForTask: no task ${taskId}`));
      else if (now === wanted) resolve(record.task);
      else if (isTerminal(now!)) reject(new Error(`waitForTask: task ${taskId} ended ${now}, not ${wanted}`));
      else return false;
      return true;
    };
    if (check()) return;
    const stop = sim.store.onEvent((record) => {
      if (record.id === taskId && check()) stop();
    });
  });
  const clock = sim.clock as Partial<VirtualClock>;
  return typeof clock.nextAt === 'function' ? drive(clock as VirtualClock, reached) : reached;
}
