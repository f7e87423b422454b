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
import { fileURLToPath } from 'node:url';
import { soakRun, type SoakSummary } from './soak.js';
import { httpFamily } from './families/http.js';
import { sseFamily } from './families/sse.js';
import { startupFamily } from './families/startup.js';
import { streamCostFamily } from './families/stream-cost.js';
import { measure, type Bench, type Measured } from './lib/family.js';
import { grouped } from './lib/format.js';
import { HELP, parseOptions } from './lib/options.js';
import { canPin, killAll, LOAD_CORE, pinSelf } from './lib/procs.js';
import { buildReport, readVersions, writeReport } from './lib/report.js';
import { formatTable, type TableRow } from './lib/table.js';
import { targetsSummary, type Target } from './lib/targets.js';
import { SOAK, type Workload } from './workloads.js';

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
  ...streamCostFamily.workloads(options),
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
      record(workload.name, await measure(streamCostFamily, workload, bench));
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
  for (const workload of workloads) {
    const r = results[workload.name] as Record<string, unknown> | undefined;
    if (!r) continue;
    if (workload.kind === 'soak') {
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
