/**
 * `npm run bench`: the simulator against a bare express server and an @a2a-js/sdk server, on loopback.
 *
 *   tsx bench/run.ts [--quick] [--duration S] [--rounds N] [--only NAME[,NAME]] [--sse-5000] [--soak]
 *                    [--sse-scenarios DIR] [--cost-streams N] [--cpu-prof DIR] [--json FILE]
 *                                                                   (--help says what each does)
 *
 * Every server runs as its own child process pinned to core 0 (`taskset -c 0`), started afresh for
 * every run; the load generators (autocannon in bench/load.ts, the SSE client in bench/sse-client.ts)
 * run as child processes pinned to core 1, and so does this orchestrator (`taskset -a -p`), which only
 * starts processes and samples /proc between and around runs. Servers alternate run by run
 * (simulator, sdk, express, simulator, sdk, express, …) so drift on the machine hits all alike. The
 * soak (bench/soak.ts) is the exception: one process holds the simulator and its traffic, on a
 * virtual clock. Prints a table, then the JSON (or writes it to --json FILE).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { StreamCostJob, StreamCostMark, StreamCostResult } from './stream-cost-client.js';
import { soakRun, type SoakSummary } from './soak.js';
import { httpFamily } from './families/http.js';
import { sseFamily } from './families/sse.js';
import { startupFamily } from './families/startup.js';
import { measure, type Bench, type Measured } from './lib/family.js';
import { fixed, grouped } from './lib/format.js';
import { HELP, parseOptions } from './lib/options.js';
import {
  canPin,
  killAll,
  LOAD_CORE,
  pinSelf,
  preciseCpuMs,
  resultOf,
  spawnPinned,
  startServer,
  stopChild,
  tsxArgv,
} from './lib/procs.js';
import { buildReport, readVersions, writeReport } from './lib/report.js';
import { warmStream } from './lib/requests.js';
import { median, round } from './lib/stats.js';
import { formatTable, type TableRow } from './lib/table.js';
import { atMost, targetsSummary, verdict as verdictOf, type Target } from './lib/targets.js';
import { SOAK, streamCostWorkloads, type StreamCostWorkload, type Workload } from './workloads.js';

// ---------------------------------------------------------------------------------------- options

// Paths below (dist/, bench/, node_modules/) are relative to the repository root.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const options = parseOptions(process.argv.slice(2));
if (options === 'help') {
  process.stdout.write(HELP);
  process.exit(0);
}
const { settings } = options;

const allWorkloads: Workload[] = [
  ...startupFamily.workloads(options),
  ...httpFamily.workloads(options),
  ...sseFamily.workloads(options),
  ...streamCostWorkloads(settings.costStreams),
  SOAK,
];
const wanted = options.only;
// The soak is a mode of its own (a couple of minutes): only when asked for by --soak or --only.
const selected = wanted.length
  ? allWorkloads.filter((w) => wanted.some((o) => w.name === o || w.name.startsWith(o)))
  : allWorkloads.filter((w) => w.kind !== 'soak' && !options.soak);
const workloads = options.soak && !selected.includes(SOAK) ? [...selected, SOAK] : selected;
if (workloads.length === 0) throw new Error(`--only ${wanted.join(',')} matches no workload`);

// ---------------------------------------------------------------------------------------- helpers

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------- setup

/** Node flags for every simulator process (comparators ignore them). */
const simulatorFlags = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
const pin = canPin();
const pinnedSelf = pin && pinSelf(LOAD_CORE);
const versions = readVersions();

process.once('SIGINT', () => {
  killAll();
  process.exit(130);
});

// Node loads its fetch (undici) on first use: not inside the first server's startup time.
await (await fetch('data:text/plain,warm')).text();

// ---------------------------------------------------------------------------------------- runs

/** Unnumbered status updates that open bench-append and bench-status (the scenarios say why). */
const LEAD_EVENTS = 500;

/** The servers that play bench-append and bench-status (bare express has no streams). */
type CostKind = 'simulator' | 'sdk';
/** --quick leaves the sdk out: at chunk 1000 its events cost it milliseconds each. */
const COST_KINDS: readonly CostKind[] = settings.quick ? ['simulator'] : ['simulator', 'sdk'];

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

async function streamCostRun(
  workload: StreamCostWorkload,
  kind: CostKind,
  roundIndex: number,
): Promise<CostRun> {
  const server = await startServer(kind, {
    pin,
    speed: settings.costSpeed,
    scenarioDir: 'bench/scenarios',
    nodeFlags: simulatorFlags,
  });
  try {
    const intervalMs = 10 / settings.costSpeed;
    // A warm-up stream one second ahead of the measured ones: through its lead-in and 100 numbered
    // events (first use of the chunk path), canceled about when theirs begin, so that it neither
    // idles the server nor runs inside the early window.
    const warm = warmStream(server.url, workload.scenario, LEAD_EVENTS + 100, true);
    warm.catch(() => {}); // awaited after the run
    await sleep(100 * intervalMs);
    const job: StreamCostJob = {
      url: server.url,
      // The sdk clones the task per event: by event 1000 one event costs it milliseconds, so it
      // gets one stream per 50 (one at the default), which it can nearly keep up with.
      streams: kind === 'sdk' ? Math.max(1, Math.round(workload.streams / 50)) : workload.streams,
      scenario: workload.scenario,
      events: 1000,
      leadEvents: LEAD_EVENTS,
      intervalMs,
      early: [1, 200],
      late: [800, 1000],
      // Past this the run is reported as it stands: a server that falls this far behind has failed.
      timeoutMs: ((LEAD_EVENTS + 1000) * 10 * 6) / settings.costSpeed + 10_000,
      runId: `r${roundIndex}`,
    };
    const client = spawnPinned(tsxArgv('bench/stream-cost-client.ts', [JSON.stringify(job)]), LOAD_CORE, pin);
    const marks: Partial<Record<StreamCostMark, { cpuMs: number | undefined; at: number }>> = {};
    const result = await resultOf<StreamCostResult, { phase: string; mark?: StreamCostMark }>(
      client,
      'stream-cost client',
      ({ phase, mark }) => {
        if (phase === 'mark') marks[mark!] = { cpuMs: preciseCpuMs(server.pid), at: performance.now() };
      },
    );
    await stopChild(client);
    await warm;
    const costWindow = (name: 'early' | 'late'): CostWindow => {
      const start = marks[`${name}-start`];
      const end = marks[`${name}-end`];
      const { events, lagMs } = result[name];
      const cpu =
        start?.cpuMs !== undefined && end?.cpuMs !== undefined && end.at > start.at && events > 0
          ? end.cpuMs - start.cpuMs
          : undefined;
      const wallMs = start && end ? end.at - start.at : Number.NaN;
      return {
        events,
        cpuUsPerEvent: cpu === undefined ? null : round((cpu * 1000) / events, 1),
        serverCpu: cpu === undefined ? null : round(cpu / wallMs, 3),
        eventsPerSec: events > 0 ? round((events * 1000) / wallMs, 0) : null,
        lagP50Ms: round(lagMs.p50, 2),
        lagP99Ms: round(lagMs.p99, 2),
      };
    };
    const early = costWindow('early');
    const late = costWindow('late');
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

/** One server's rounds of a stream-cost workload: medians, and the rounds themselves. */
function costSummary(runs: CostRun[]) {
  const mid = (pick: (r: CostRun) => number | null, digits: number) =>
    round(median(runs.map((r) => pick(r) ?? Number.NaN)), digits);
  return {
    earlyUsPerEvent: mid((r) => r.early.cpuUsPerEvent, 1),
    lateUsPerEvent: mid((r) => r.late.cpuUsPerEvent, 1),
    lateOverEarly: mid((r) => r.lateOverEarly, 2),
    earlyServerCpu: mid((r) => r.early.serverCpu, 2),
    lateServerCpu: mid((r) => r.late.serverCpu, 2),
    earlyLagP99Ms: mid((r) => r.early.lagP99Ms, 1),
    lateLagP99Ms: mid((r) => r.late.lagP99Ms, 1),
    incompleteStreams: runs.reduce((sum, r) => sum + r.streams - r.completed, 0),
    rounds: runs,
  };
}

// ---------------------------------------------------------------------------------------- targets

const targets: Target[] = [];

// ---------------------------------------------------------------------------------------- main

const startedAt = new Date();
const loadStart = loadavg();
const results: Record<string, unknown> = {};
const measuredRows = new Map<string, TableRow[]>();
function record(workload: string, measured: Measured): void {
  results[workload] = measured.result;
  targets.push(...measured.targets);
  measuredRows.set(workload, measured.rows);
}
const bench: Bench = { settings, pin, simulatorFlags, log };
log(
  `a2a-sim bench: ${workloads.map((w) => w.name).join(', ')}; ${settings.durationSec} s per run, ` +
    `${settings.rounds} round(s); ${pin ? `servers on core 0, load on core 1${pinnedSelf ? '' : ' (this process unpinned)'}` : 'no taskset: unpinned'}`,
);

try {
  for (const workload of workloads) {
    if (workload.kind === 'startup') {
      record(workload.name, await measure(startupFamily, workload, bench));
    } else if (workload.kind === 'http') {
      record(workload.name, await measure(httpFamily, workload, bench));
    } else if (workload.kind === 'stream-cost') {
      const runs: Record<CostKind, CostRun[]> = { simulator: [], sdk: [] };
      for (let r = 0; r < settings.rounds; r++) {
        for (const kind of COST_KINDS) {
          const run = await streamCostRun(workload, kind, r);
          runs[kind].push(run);
          const w = (c: CostWindow) =>
            `${fixed(c.cpuUsPerEvent, 1)} µs/event (${c.events} events, ${fixed(c.eventsPerSec)}/s, CPU ${fixed((c.serverCpu ?? Number.NaN) * 100)}%, lag p99 ${fixed(c.lagP99Ms, 1)} ms)`;
          log(
            `  ${workload.name} ${kind}: early ${w(run.early)}, late ${w(run.late)}: late ÷ early ${fixed(run.lateOverEarly, 2)}; ` +
              `${run.completed}/${run.streams} completed, ${run.failed} failed, ${run.gaps} gaps, client CPU ${fixed(run.clientCpu * 100)}%`,
          );
        }
      }
      const servers = Object.fromEntries(
        COST_KINDS.map((kind) => [kind, costSummary(runs[kind])]),
      ) as Partial<Record<CostKind, ReturnType<typeof costSummary>>>;
      results[workload.name] = {
        kind: 'stream-cost',
        description: workload.description,
        scenario: workload.scenario,
        streams: workload.streams,
        eventsPerStream: 1000,
        intervalMs: 10 / settings.costSpeed,
        windows: { early: 'events 2–200 of every stream', late: 'events 801–1000' },
        servers,
      };
      targets.push(
        atMost(
          workload.name,
          'simulator CPU per event, events 801–1000 ÷ events 2–200',
          servers.simulator?.lateOverEarly,
          1.1,
          '1.10',
        ),
      );
    } else if (workload.kind === 'soak') {
      results[workload.name] = {
        kind: 'soak',
        description: workload.description,
        ...(await soakRun(settings.soak, { pin, log })),
      };
    } else {
      record(workload.name, await measure(sseFamily, workload, bench));
    }
  }
} finally {
  await httpFamily.close?.();
}

// ---------------------------------------------------------------------------------------- report

const report = buildReport({
  startedAt,
  loadBefore: loadStart,
  versions,
  settings,
  pin,
  workloads: results,
  targets,
});

function tableRows(): TableRow[] {
  const rows: TableRow[] = [];
  const verdict = (workload: string) => verdictOf(targets.filter((t) => t.workload === workload));
  for (const workload of workloads) {
    const r = results[workload.name] as Record<string, unknown> | undefined;
    if (!r) continue;
    if (workload.kind === 'startup') {
      rows.push(...measuredRows.get(workload.name)!);
    } else if (workload.kind === 'http') {
      rows.push(...measuredRows.get(workload.name)!);
    } else if (workload.kind === 'stream-cost') {
      const s = r.servers as Partial<
        Record<
          CostKind,
          { earlyUsPerEvent: number | null; lateUsPerEvent: number | null; lateOverEarly: number | null }
        >
      >;
      const cell = (k: CostKind) => {
        const c = s[k];
        return c
          ? `${grouped(c.earlyUsPerEvent, 1)} → ${grouped(c.lateUsPerEvent, 1)} µs/ev: ${grouped(c.lateOverEarly, 2)}×`
          : '—';
      };
      rows.push({
        label: workload.name,
        target: 'CPU/event late ÷ early ≤1.10',
        servers: { simulator: cell('simulator'), sdk: cell('sdk'), express: '—' },
        met: verdict(workload.name),
      });
    } else if (workload.kind === 'soak') {
      const soak = r as unknown as SoakSummary;
      rows.push({
        label: workload.name,
        target: 'RSS flat after warm-up',
        servers: {
          simulator:
            `RSS ${grouped(soak.rssMB.end, 1)} MB, slope ${grouped(soak.slope.rssMBPerHour, 2)} MB/h, ` +
            `${grouped(soak.slope.rssMBPer10kTasks, 2)} MB/10k tasks (heap ${grouped(soak.slope.heapMBPerHour, 2)}, ` +
            `${grouped(soak.slope.heapMBPer10kTasks, 2)}); ${grouped(soak.tasksCreated)} tasks, ` +
            `evicted ${grouped(soak.evictions.ttl)} TTL + ${grouped(soak.evictions.cap)} cap`,
          sdk: '—',
          express: '—',
        },
      });
    } else {
      rows.push(...measuredRows.get(workload.name)!);
    }
  }
  return rows;
}

process.stdout.write(`\n${formatTable(tableRows())}\n\n`);
process.stdout.write(targetsSummary(targets));
writeReport(report, options.jsonFile);
