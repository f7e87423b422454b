/**
 * The soak's one process (bench/families/soak.ts and soak-hostile.ts start it under
 * `node --expose-gc`, pinned to the server core): a simulator made with `createSimulator` on a
 * VirtualClock, serving on 127.0.0.1 as usual, and the traffic that drives it over HTTP
 * (bench/soak-traffic.ts).
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
 * With `hostile` (the hostile soak), the simulator starts with the job's small budgets and proxies to
 * a hostile agent served from this process (bench/hostile-agent.ts); the hostile mix
 * (bench/soak-hostile.ts) and feed watchers that never read (bench/feed-watchers.ts) run beside a
 * steady ordinary mix, and each sample also reads `GET /_sim/health`'s `memory`: what each budget
 * holds. The hostile side's own state is bounded as well (the last 64 task ids, the requests in
 * flight, a few 64 KiB chunks per agent connection), so what grows is still the simulator.
 *
 * The job comes as JSON in argv[2]. Prints `{"phase":"sample",…}` per sample and
 * `{"phase":"done","result":…}` at the end.
 */
import { performance } from 'node:perf_hooks';
import { startHostileAgent, type HostileAgent, type HostileAnswer } from './hostile-agent.js';
import { FeedWatchers, type WatcherCount } from './feed-watchers.js';
import { HostileTraffic, type HostileCount } from './soak-hostile.js';
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
  hostile?: HostileJob;
}

export interface HostileJob {
  /** Hostile actions started per virtual minute, beside the ordinary ones. */
  perMinute: number;
  /** Feed watchers kept connected, each paused. */
  watchers: number;
  /** The simulator's budgets (docs/limits.md), as `--max-store-bytes` and the others take them. */
  budgets: {
    maxStoreBytes: number;
    journalBytes: number;
    journalSize: number;
    verdictBytes: number;
    maxBodyBytes: number;
  };
}

/** `GET /_sim/health`'s `memory`: what each bounded record holds, against its budget. */
export interface HealthMemory {
  store: { bytes: number; maxBytes: number; tasks: number };
  journal: { bytes: number; maxBytes: number; entries: number };
  verdicts: { bytes: number; maxBytes: number; clients: number; calls: number };
  events: { kept: number };
  rssBytes: number;
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
  /** The hostile soak's: read right after the figures above. */
  memory?: HealthMemory;
  hostileInFlight?: number;
  /** Connections to the hostile agent the simulator holds: the relays its limits have not stopped. */
  agentConnections?: number;
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
  hostile?: {
    actions: Record<string, HostileCount>;
    errors: string[];
    retried: number;
    watchers: WatcherCount;
    /** Watchers the simulator dropped as too slow, as it logged them. */
    watchersDroppedTooSlow: number;
    /** What the agent was asked for, by answer. */
    agentAnswers: Record<HostileAnswer, number>;
    maxInFlight: number;
  };
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
const hostile = job.hostile;
let droppedTooSlow = 0;
const agent: HostileAgent | undefined = hostile && (await startHostileAgent(clock));
const quiet = () => {};
const sim = await createSimulator({
  port: 0,
  clock,
  seed: 'soak',
  logLevel: 'silent',
  retention: { ...job.retention, ...(hostile && { maxStoreBytes: hostile.budgets.maxStoreBytes }) },
  ...(hostile && {
    journalBytes: hostile.budgets.journalBytes,
    journalSize: hostile.budgets.journalSize,
    verdictBytes: hostile.budgets.verdictBytes,
    maxBodyBytes: hostile.budgets.maxBodyBytes,
    proxy: { url: agent!.url },
    // Silent, but for the one line that says a watcher was dropped for reading too slowly.
    logger: {
      error: quiet,
      info: quiet,
      debug: quiet,
      warn: (message: string) => {
        if (message.startsWith('feed: dropped a watcher')) droppedTooSlow++;
      },
    },
  }),
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
const hostileTraffic =
  hostile && new HostileTraffic({ url: sim.url, maxBodyBytes: hostile.budgets.maxBodyBytes });
const watchers = hostile && new FeedWatchers(sim.url, hostile.watchers, clock);
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

async function sample(): Promise<void> {
  gc!();
  const memory = process.memoryUsage();
  const health = hostile && (await readHealth());
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
    ...(health && {
      memory: health,
      hostileInFlight: hostileTraffic!.inFlight,
      agentConnections: agent!.open,
    }),
  };
  samples.push(s);
  process.stdout.write(`${JSON.stringify({ phase: 'sample', sample: s })}\n`);
}

/** The budgets as the simulator reports them, through the same HTTP as any client. */
async function readHealth(): Promise<HealthMemory> {
  const answer = await fetch(`${sim.url}/_sim/health`);
  return ((await answer.json()) as { memory: HealthMemory }).memory;
}

const end = start + job.virtualHours * HOUR;
const phaseMs = job.phaseMinutes * 60_000;
const sampleEveryMs = job.sampleEveryMinutes * 60_000;
let nextAction = start;
let nextHostile = start;
let nextSample = start + sampleEveryMs;
const turn = () => new Promise((resolve) => setImmediate(resolve));

await sample();
while (clock.now() < end) {
  await turn();
  clock.advance(Math.min(STEP_MS, end - clock.now()));
  maxStoreSize = Math.max(maxStoreSize, sim.store.size);
  for (const now = clock.now(); nextAction <= now && nextAction < end;) {
    const busy = Math.floor((nextAction - start) / phaseMs) % 2 === 0;
    nextAction += 60_000 / (busy ? job.busyPerMinute : job.quietPerMinute);
    traffic.launchNext();
  }
  for (const now = clock.now(); hostile && nextHostile <= now && nextHostile < end;) {
    nextHostile += 60_000 / hostile.perMinute;
    hostileTraffic!.launchNext();
  }
  if (clock.now() >= nextSample) {
    await sample();
    nextSample += sampleEveryMs;
  }
}
// The actions still in flight finish on a clock that goes on moving; none start.
const inFlight = () => traffic.inFlight + (hostileTraffic?.inFlight ?? 0);
for (let turns = 0; inFlight() > 0 && turns < 100_000; turns++) {
  await turn();
  clock.advance(STEP_MS);
}
const wallSec = (performance.now() - wallStart) / 1000;
closing = true;
hostileTraffic?.close();
watchers?.close();
await sim.close();
await agent?.close();
traffic.close();
const result: SoakResult = {
  wallSec,
  samples,
  actions: traffic.counts,
  errors: traffic.errors,
  retried: traffic.retried,
  firstEvictionHour,
  maxStoreSize,
  ...(hostileTraffic && {
    hostile: {
      actions: hostileTraffic.counts,
      errors: hostileTraffic.errors,
      retried: hostileTraffic.retried,
      watchers: watchers!.count,
      watchersDroppedTooSlow: droppedTooSlow,
      agentAnswers: agent!.answered,
      maxInFlight: hostileTraffic.maxInFlight,
    },
  }),
};
process.stdout.write(`${JSON.stringify({ phase: 'done', result })}\n`, () => process.exit(0));
