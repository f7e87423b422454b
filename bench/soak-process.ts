/**
 * The soak's one process (bench/soak.ts starts it under `node --expose-gc`, pinned to the server
 * core): a simulator made with `createSimulator` on a VirtualClock, serving on 127.0.0.1 as usual,
 * and the traffic that drives it over HTTP (bench/soak-traffic.ts).
 *
 * Time: every turn of the event loop moves the clock `STEP_MS` of virtual time (firing every timer
 * due on the way), then starts the actions due by then. Actions are scheduled in virtual time, so
 * many per virtual minute with busy and quiet phases alternating, so the tasks per virtual hour, and
 * what the retention limits do with them, are the same on any machine: only the wall time differs.
 * A request needs a few turns to travel, during which the clock moves on: a blocking send returns
 * once its scenario's delays have passed in virtual time, as it would in real time.
 *
 * Every `sampleEveryMinutes` of virtual time: `gc()`, then RSS and heap. The traffic's own state is
 * bounded (the requests in flight and the last 64 task ids), so what can grow is the simulator.
 *
 * The job comes as JSON in argv[2]. Prints `{"phase":"sample",…}` per sample and
 * `{"phase":"done","result":…}` at the end.
 */
import { performance } from 'node:perf_hooks';
import { SoakTraffic, type SoakActionCount } from './soak-traffic.js';

export interface SoakJob {
  virtualHours: number;
  /** Busy and quiet phases alternate, each this long (virtual). */
  phaseMinutes: number;
  /** Actions started per virtual minute in a busy and in a quiet phase. */
  busyPerMinute: number;
  quietPerMinute: number;
  sampleEveryMinutes: number;
  retention: { maxTasks: number; terminalTtl: number };
}

export interface SoakSample {
  /** Virtual hours since the start. */
  hour: number;
  wallSec: number;
  tasksCreated: number;
  storeSize: number;
  evictedTtl: number;
  evictedCap: number;
  inFlight: number;
  /** After gc(). */
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
}

export interface SoakResult {
  wallSec: number;
  samples: SoakSample[];
  actions: Record<string, SoakActionCount>;
  /** The first few errors, for the log. */
  errors: string[];
  /** Requests sent again after a reset on a reused idle connection (bench/soak-traffic.ts). */
  retried: number;
  firstEvictionHour: { ttl: number | null; cap: number | null };
  maxStoreSize: number;
}

/** Virtual time per turn of the event loop. */
const STEP_MS = 250;
const HOUR = 3_600_000;
const MB = 2 ** 20;

const job = JSON.parse(process.argv[2] ?? '{}') as SoakJob;
const gc = globalThis.gc;
if (!gc) throw new Error('the soak process needs node --expose-gc');

// The build, as every other workload runs it (`npm run bench` builds first); typed from the source.
const { createSimulator, VirtualClock } = (await import(
  new URL('../dist/index.js', import.meta.url).href
)) as typeof import('../src/index.js');

const clock = new VirtualClock();
const sim = await createSimulator({
  port: 0,
  clock,
  seed: 'soak',
  logLevel: 'silent',
  retention: job.retention,
});

// ------------------------------------------------------------------------- what the store does

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
let created = 0;
let evictedTtl = 0;
let evictedCap = 0;
let maxStoreSize = 0;
const firstEvictionHour: SoakResult['firstEvictionHour'] = { ttl: null, cap: null };
let closing = false;
const start = clock.now();
const traffic = new SoakTraffic(sim.url);
const hoursNow = () => (clock.now() - start) / HOUR;

sim.store.onEvent((_record, event) => {
  if (event.seq === 1) created++;
});
sim.store.onEvict((record) => {
  if (closing) return;
  // The store evicts a terminal task whose end is older than the TTL, or, past maxTasks, the oldest.
  const { state, timestamp } = record.task.status;
  const expired = TERMINAL.has(state) && Date.parse(timestamp) <= clock.now() - job.retention.terminalTtl;
  if (expired) {
    evictedTtl++;
    firstEvictionHour.ttl ??= hoursNow();
  } else {
    evictedCap++;
    firstEvictionHour.cap ??= hoursNow();
  }
});

// --------------------------------------------------------------------------------------- run

const wallStart = performance.now();
const samples: SoakSample[] = [];

function sample(): void {
  gc!();
  const memory = process.memoryUsage();
  const s: SoakSample = {
    hour: hoursNow(),
    wallSec: (performance.now() - wallStart) / 1000,
    tasksCreated: created,
    storeSize: sim.store.size,
    evictedTtl,
    evictedCap,
    inFlight: traffic.inFlight,
    rssMB: memory.rss / MB,
    heapUsedMB: memory.heapUsed / MB,
    heapTotalMB: memory.heapTotal / MB,
    externalMB: memory.external / MB,
  };
  samples.push(s);
  process.stdout.write(`${JSON.stringify({ phase: 'sample', sample: s })}\n`);
}

const end = start + job.virtualHours * HOUR;
const phaseMs = job.phaseMinutes * 60_000;
const sampleEveryMs = job.sampleEveryMinutes * 60_000;
let nextAction = start;
let nextSample = start + sampleEveryMs;
const turn = () => new Promise((resolve) => setImmediate(resolve));

sample();
while (clock.now() < end) {
  await turn();
  clock.advance(Math.min(STEP_MS, end - clock.now()));
  maxStoreSize = Math.max(maxStoreSize, sim.store.size);
  for (const now = clock.now(); nextAction <= now && nextAction < end;) {
    const busy = Math.floor((nextAction - start) / phaseMs) % 2 === 0;
    nextAction += 60_000 / (busy ? job.busyPerMinute : job.quietPerMinute);
    traffic.launchNext();
  }
  if (clock.now() >= nextSample) {
    sample();
    nextSample += sampleEveryMs;
  }
}
// The actions still in flight finish on a clock that goes on moving; none start.
for (let turns = 0; traffic.inFlight > 0 && turns < 100_000; turns++) {
  await turn();
  clock.advance(STEP_MS);
}
const wallSec = (performance.now() - wallStart) / 1000;
closing = true;
await sim.close();
traffic.close();
const result: SoakResult = {
  wallSec,
  samples,
  actions: traffic.counts,
  errors: traffic.errors,
  retried: traffic.retried,
  firstEvictionHour,
  maxStoreSize,
};
process.stdout.write(`${JSON.stringify({ phase: 'done', result })}\n`, () => process.exit(0));
