/** Starts a real simulator on 127.0.0.1:0 with a virtual clock; nothing waits on the wall clock. */
import { createSimulator, VirtualClock, type SimulatorOptions } from '../../src/index.js';

export type TestSim = Awaited<ReturnType<typeof startSim>>;

export async function startSim(options: SimulatorOptions = {}) {
  const clock = new VirtualClock();
  const sim = await createSimulator({ port: 0, host: '127.0.0.1', clock, logLevel: 'silent', ...options });
  return {
    sim,
    clock,
    url: sim.url,
    /** Awaits `work`, moving virtual time to each next timer whenever the event loop is idle. */
    drive: <T>(work: Promise<T>) => drive(clock, work),
    close: () => sim.close(),
  };
}

/**
 * Runs the clock until `work` settles: yields to the event loop (I/O, no wall-clock wait), and if
 * the work is still pending, jumps to the next scheduled timer.
 */
export async function drive<T>(clock: VirtualClock, work: Promise<T>, maxSteps = 100_000): Promise<T> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let step = 0; !settled; step++) {
    if (step > maxSteps) throw new Error(`drive: still pending after ${maxSteps} steps`);
    await new Promise((resolve) => setImmediate(resolve));
    if (settled) break;
    const next = clock.nextAt();
    if (next !== undefined) clock.advance(Math.max(0, next - clock.now()));
  }
  return work;
}

/** Lets pending I/O (a request in flight, a response being written) run, without moving the clock. */
export async function flushIo(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
