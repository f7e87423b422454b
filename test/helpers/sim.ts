/** Starts a real simulator on 127.0.0.1:0 with a virtual clock; nothing waits on the wall clock. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFiles } from './files.js';
import {
  createSimulator,
  drive,
  VirtualClock,
  type RecordOptions,
  type SimulatorOptions,
} from '../../src/index.js';

export type TestSim = Awaited<ReturnType<typeof startSim>>;

export async function startSim(options: SimulatorOptions = {}) {
  const clock = new VirtualClock();
  const sim = await createSimulator({
    port: 0,
    host: '127.0.0.1',
    clock,
    logLevel: 'silent',
    ...options,
  });
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
 * Writes `files` (file name → text: scenarios, `*.agent.yaml`, `*.chaos.yaml`) to a fresh temporary
 * directory and starts a simulator that loads it; closing the simulator removes the directory.
 * @example const t = await startSimWith({ 'desk.agent.yaml': 'name: Desk\n...' }, { speed: 0 });
 */
export async function startSimWith(files: Record<string, string>, options: SimulatorOptions = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'a2a-sim-test-'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  try {
    await writeFiles(dir, files);
    const t = await startSim({ ...options, scenarioDirs: [dir, ...(options.scenarioDirs ?? [])] });
    return { ...t, dir, close: () => t.close().finally(removeDir) };
  } catch (error) {
    await removeDir();
    throw error;
  }
}

/**
 * A simulator that records `agent` (a test's own simulator standing in for a real agent) through its
 * proxy over HTTP+JSON, on the agent's virtual clock; the caller stops the recording and closes it.
 * @example const recorder = await startRecorder(agent, { out }); … await recorder.recording!.stop();
 */
export function startRecorder(agent: Pick<TestSim, 'url' | 'clock'>, record: RecordOptions) {
  return createSimulator({
    port: 0,
    host: '127.0.0.1',
    clock: agent.clock,
    logLevel: 'silent',
    builtinScenarios: false,
    proxy: { url: agent.url, binding: 'rest' },
    record,
  });
}

// The clock helpers are the package's own (src/testing.ts): tests use what users get.
export { drive, settledYet } from '../../src/testing.js';

/** Lets pending I/O (a request in flight, a response being written) run, without moving the clock. */
export async function flushIo(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
