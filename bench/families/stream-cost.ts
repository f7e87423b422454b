/**
 * The stream-cost workloads, sse-append and sse-status: streams whose every event either appends
 * one artifact chunk (bench-append) or is a status update with a message (bench-status), 1000
 * events 10 ms apart after a lead-in of 500 that leave the task as it is. bench/stream-cost-client.ts
 * marks an early window (events 2–200) and a late one (801–1000); this side reads the server's CPU
 * time at each mark. The target: the simulator's CPU per event late ÷ early at most 1.10, i.e. an
 * event costs the same whatever the task's size.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  StreamCostJob,
  StreamCostMark,
  StreamCostMarkLine,
  StreamCostResult,
  StreamCostScenario,
} from '../stream-cost-client.js';
import { playRounds, type Bench, type Workload, type WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import type { Settings } from '../lib/options.js';
import { LOAD_CORE, resultOf, spawnJob, startServer, stopChild, type ServerKind } from '../lib/procs.js';
import { warmStream } from '../lib/requests.js';
import { medianOf, round, sumOf } from '../lib/stats.js';
import { limitTarget } from '../lib/targets.js';

export interface StreamCostWorkload extends Workload {
  kind: 'stream-cost';
  scenario: StreamCostScenario;
  streams: number;
}

/** Unnumbered status updates that open bench-append and bench-status (the scenarios say why). */
const LEAD_EVENTS = 500;
const EVENTS = 1000;
/** The client's marks: every stream has had the first event, the first stream has the last. */
const EARLY: [number, number] = [1, 200];
const LATE: [number, number] = [800, 1000];
/** The events a window counts: those after its first mark, up to its last. */
const windowEvents = ([first, last]: [number, number]) => `events ${first + 1}–${last}`;
const LATE_OVER_EARLY_LIMIT = 1.1;

/** The servers that play bench-append and bench-status (the bare comparators play only the SSE streams). */
type CostKind = Exclude<ServerKind, 'express' | 'node'>;
/** --quick leaves the sdk out: at chunk 1000 its events cost it milliseconds each. */
const costKinds = (settings: Settings): readonly CostKind[] =>
  settings.quick ? ['simulator'] : ['simulator', 'sdk'];

/** Scheduled time between two events of a stream at the servers' --speed. */
const intervalMs = (settings: Settings) => 10 / settings.costSpeed;

interface CostWindow {
  events: number;
  /** Server CPU time in the window ÷ events received in it, µs. */
  cpuUsPerEvent: number | null;
  /** Server CPU over the window, as a share of one core. */
  serverCpu: number | null;
  eventsPerSec: number | null;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
}

interface CostRun extends Omit<StreamCostResult, 'early' | 'late'> {
  early: CostWindow;
  late: CostWindow;
  lateOverEarly: number | null;
}

/** The server's CPU time (ms) the client read at each mark, as the mark happened. */
type Marks = Partial<Record<StreamCostMark, number | null>>;

/** The server's CPU per event in one window, from the CPU time read at its two marks. */
function costWindow(name: 'early' | 'late', marks: Marks, result: StreamCostResult): CostWindow {
  const start = marks[`${name}-start`];
  const end = marks[`${name}-end`];
  const { events, lagMs, ms } = result[name];
  const wallMs = ms ?? Number.NaN;
  const cpu = start != null && end != null && wallMs > 0 && events > 0 ? end - start : undefined;
  return {
    events,
    cpuUsPerEvent: cpu === undefined ? null : round((cpu * 1000) / events, 1),
    serverCpu: cpu === undefined ? null : round(cpu / wallMs, 3),
    eventsPerSec: events > 0 ? round((events * 1000) / wallMs, 0) : null,
    lagP50Ms: round(lagMs.p50, 2),
    lagP99Ms: round(lagMs.p99, 2),
  };
}

async function streamCostRun(
  workload: StreamCostWorkload,
  kind: CostKind,
  roundIndex: number,
  bench: Bench,
): Promise<CostRun> {
  const { settings, pin } = bench;
  const server = await startServer(kind, {
    pin,
    speed: settings.costSpeed,
    scenarioDir: 'bench/scenarios',
    nodeFlags: bench.simulatorFlags,
  });
  try {
    // A warm-up stream one second ahead of the measured ones: through its lead-in and 100 numbered
    // events (first use of the chunk path), canceled about when theirs begin, so that it neither
    // idles the server nor runs inside the early window.
    const warm = warmStream(server.url, workload.scenario, LEAD_EVENTS + 100, true);
    warm.catch(() => {}); // awaited after the run
    await sleep(100 * intervalMs(settings));
    const job: StreamCostJob = {
      url: server.url,
      // The sdk clones the task per event: by event 1000 one event costs it milliseconds, so it
      // gets one stream per 50 (one at the default), which it can nearly keep up with.
      streams: kind === 'sdk' ? Math.max(1, Math.round(workload.streams / 50)) : workload.streams,
      scenario: workload.scenario,
      events: EVENTS,
      leadEvents: LEAD_EVENTS,
      intervalMs: intervalMs(settings),
      early: EARLY,
      late: LATE,
      // Past this the run is reported as it stands: a server that falls this far behind has failed.
      timeoutMs: ((LEAD_EVENTS + EVENTS) * 10 * 6) / settings.costSpeed + 10_000,
      runId: `r${roundIndex}`,
      serverPid: server.pid,
    };
    const client = spawnJob('bench/stream-cost-client.ts', job, { core: LOAD_CORE, pin });
    const marks: Marks = {};
    const result = await resultOf<StreamCostResult, { phase: string } & Partial<StreamCostMarkLine>>(
      client,
      'stream-cost client',
      ({ phase, mark, cpuMs }) => {
        if (phase === 'mark') marks[mark!] = cpuMs ?? null;
      },
    );
    await stopChild(client);
    await warm;
    const early = costWindow('early', marks, result);
    const late = costWindow('late', marks, result);
    return {
      ...result,
      early,
      late,
      lateOverEarly:
        early.cpuUsPerEvent && late.cpuUsPerEvent !== null
          ? round(late.cpuUsPerEvent / early.cpuUsPerEvent, 2)
          : null,
    };
  } finally {
    await server.stop();
  }
}

function describe(run: CostRun): string {
  const w = (c: CostWindow) =>
    `${fixed(c.cpuUsPerEvent, 1)} µs/event (${c.events} events, ${fixed(c.eventsPerSec)}/s, CPU ${fixed((c.serverCpu ?? Number.NaN) * 100)}%, lag p99 ${fixed(c.lagP99Ms, 1)} ms)`;
  return (
    `early ${w(run.early)}, late ${w(run.late)}: late ÷ early ${fixed(run.lateOverEarly, 2)}; ` +
    `${run.completed}/${run.streams} completed, ${run.failed} failed, ${run.gaps} gaps, client CPU ${fixed(run.clientCpu * 100)}%`
  );
}

/** One server's rounds of a stream-cost workload: medians, and the rounds themselves. */
function serverSummary(runs: CostRun[]) {
  return {
    earlyUsPerEvent: medianOf(runs, (r) => r.early.cpuUsPerEvent, 1),
    lateUsPerEvent: medianOf(runs, (r) => r.late.cpuUsPerEvent, 1),
    lateOverEarly: medianOf(runs, (r) => r.lateOverEarly, 2),
    earlyServerCpu: medianOf(runs, (r) => r.early.serverCpu, 2),
    lateServerCpu: medianOf(runs, (r) => r.late.serverCpu, 2),
    earlyLagP99Ms: medianOf(runs, (r) => r.early.lagP99Ms, 1),
    lateLagP99Ms: medianOf(runs, (r) => r.late.lagP99Ms, 1),
    incompleteStreams: sumOf(runs, (r) => r.streams - r.completed),
    rounds: runs,
  };
}

function summarise(workload: StreamCostWorkload, runs: Partial<Record<CostKind, CostRun[]>>, bench: Bench) {
  const servers: Partial<Record<CostKind, ReturnType<typeof serverSummary>>> = Object.fromEntries(
    costKinds(bench.settings).map((kind) => [kind, serverSummary(runs[kind] ?? [])]),
  );
  return {
    kind: workload.kind,
    description: workload.description,
    scenario: workload.scenario,
    streams: workload.streams,
    eventsPerStream: EVENTS,
    intervalMs: intervalMs(bench.settings),
    windows: {
      early: `${windowEvents(EARLY)} of every stream`,
      late: windowEvents(LATE),
    },
    servers,
  };
}
type CostSummary = ReturnType<typeof summarise>;

export const streamCostFamily: WorkloadFamily<
  StreamCostWorkload,
  Partial<Record<CostKind, CostRun[]>>,
  CostSummary
> = {
  workloads: ({ settings: { costStreams: streams } }) => [
    {
      kind: 'stream-cost',
      name: 'sse-append',
      description: `${streams} streams, each event appends one artifact chunk (1000 chunks, one every 10 ms, after 500 bare status updates)`,
      scenario: 'bench-append',
      streams,
    },
    {
      kind: 'stream-cost',
      name: 'sse-status',
      description: `${streams} streams, each event a status update with a message (1000, one every 10 ms, after 500 without)`,
      scenario: 'bench-status',
      streams,
    },
  ],
  run: (workload, bench) =>
    playRounds(
      bench,
      workload.name,
      costKinds(bench.settings),
      bench.settings.rounds,
      (kind, round) => streamCostRun(workload, kind, round, bench),
      describe,
    ),
  summarise,
  judge: (workload, { servers }) => [
    limitTarget(
      workload.name,
      `simulator CPU per event, ${windowEvents(LATE)} ÷ ${windowEvents(EARLY)}`,
      servers.simulator?.lateOverEarly,
      { atMost: LATE_OVER_EARLY_LIMIT, label: LATE_OVER_EARLY_LIMIT.toFixed(2) },
    ),
  ],
  rows: (workload, { servers }, met) => {
    const cell = (kind: CostKind) => {
      const c = servers[kind];
      return c
        ? `${grouped(c.earlyUsPerEvent, 1)} → ${grouped(c.lateUsPerEvent, 1)} µs/ev: ${grouped(c.lateOverEarly, 2)}×`
        : '—';
    };
    return [
      {
        label: workload.name,
        target: `CPU/event late ÷ early ≤${LATE_OVER_EARLY_LIMIT.toFixed(2)}`,
        servers: { simulator: cell('simulator'), sdk: cell('sdk'), express: '—', node: '—' },
        met,
      },
    ];
  },
};
