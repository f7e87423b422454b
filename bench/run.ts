/**
 * `npm run bench`: the simulator against an @a2a-js/sdk server, a bare express server and a bare
 * node:http server, on loopback.
 *
 *   tsx bench/run.ts [--quick] [--duration S] [--rounds N] [--only NAME[,NAME]] [--sse-5000] [--soak]
 *                    [--soak-hostile] [--sse-scenarios DIR] [--cost-streams N] [--cpu-prof DIR] [--json FILE]
 *                                                                   (--help says what each does)
 *
 * Every server runs as its own child process pinned to core 0 (`taskset -c 0`), started afresh for
 * every run; the load generators (autocannon in bench/load.ts, the SSE clients) run as child
 * processes pinned to core 1, and so does this orchestrator (`taskset -a -p`), which only starts
 * processes and samples /proc between and around runs. Servers alternate run by run (simulator, sdk,
 * express, node, simulator, sdk, …) so drift on the machine hits all alike. The soaks are the
 * exception: one process holds the simulator and its traffic, on a virtual clock.
 *
 * Each workload family (bench/families/) runs, sums up and judges its own workloads; this file picks
 * the workloads, plays them in order, prints the table, then the JSON (or writes it to --json FILE).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { httpFamily } from './families/http.js';
import { replicasFamily } from './families/replicas.js';
import { retainedFamily } from './families/retained.js';
import { roundTripFamily } from './families/round-trip.js';
import { soakFamily } from './families/soak.js';
import { soakHostileFamily } from './families/soak-hostile.js';
import { sseFamily } from './families/sse.js';
import { startupFamily } from './families/startup.js';
import { streamCostFamily } from './families/stream-cost.js';
import { plan, type Bench, type Measured } from './lib/family.js';
import { HELP, parseOptions } from './lib/options.js';
import { canPin, killAll, LOAD_CORE, pinSelf } from './lib/procs.js';
import { buildReport, readVersions, writeReport } from './lib/report.js';
import { formatTable } from './lib/table.js';
import { targetsSummary } from './lib/targets.js';

// Paths below (dist/, bench/, node_modules/) are relative to the repository root.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const options = parseOptions(process.argv.slice(2));
if (options === 'help') {
  process.stdout.write(HELP);
  process.exit(0);
}
const { settings } = options;

// ---------------------------------------------------------------------------------------- pick

const soak = plan(soakFamily, options);
const soakHostile = plan(soakHostileFamily, options);
const planned = [
  ...plan(startupFamily, options),
  ...plan(httpFamily, options),
  ...plan(roundTripFamily, options),
  ...plan(retainedFamily, options),
  ...plan(sseFamily, options),
  ...plan(streamCostFamily, options),
  ...plan(replicasFamily, options),
  ...soak,
  ...soakHostile,
];
// The soaks are modes of their own (a couple of minutes each): only when asked for by --soak,
// --soak-hostile or --only.
const asked = [...(options.soak ? soak : []), ...(options.soakHostile ? soakHostile : [])];
// A name is that workload alone (sse-100 is not sse-1000); anything else, the workloads it begins.
const names = new Set(planned.map((w) => w.name));
const selected = options.only.length
  ? planned.filter((w) => options.only.some((o) => w.name === o || (!names.has(o) && w.name.startsWith(o))))
  : planned.filter((w) => !w.family.onRequest && asked.length === 0);
const workloads = [...selected, ...asked.filter((w) => !selected.includes(w))];
if (workloads.length === 0) throw new Error(`--only ${options.only.join(',')} matches no workload`);

// ---------------------------------------------------------------------------------------- setup

const log = (line: string) => process.stderr.write(`${line}\n`);
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

// ---------------------------------------------------------------------------------------- run

const startedAt = new Date();
const loadBefore = loadavg();
const bench: Bench = { settings, pin, simulatorFlags, log };
log(
  `a2a-sim bench: ${workloads.map((w) => w.name).join(', ')}; ` +
    `${settings.requestsPerRun === undefined ? `${settings.durationSec} s` : `${settings.requestsPerRun} requests`} per run, ` +
    `${settings.rounds} round(s); ${pin ? `servers on core 0, load on core 1${pinnedSelf ? '' : ' (this process unpinned)'}` : 'no taskset: unpinned'}`,
);

const measured: Measured[] = [];
try {
  for (const workload of workloads) measured.push(await workload.measure(bench));
} finally {
  for (const family of new Set(planned.map((w) => w.family))) await family.close?.();
}

// ---------------------------------------------------------------------------------------- report

const targets = measured.flatMap((m) => m.targets);
const report = buildReport({
  startedAt,
  loadBefore,
  versions,
  settings,
  pin,
  workloads: Object.fromEntries(measured.map((m) => [m.name, m.result])),
  targets,
});
process.stdout.write(`\n${formatTable(measured.flatMap((m) => m.rows))}\n\n`);
process.stdout.write(targetsSummary(targets));
writeReport(report, options.jsonFile);
