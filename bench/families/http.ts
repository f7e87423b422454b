/**
 * The HTTP workloads (bench/families/http-workloads.ts): autocannon, in the long-lived load
 * generator bench/load.ts, sends one request over and over on every server. Targets, for the
 * message:send workloads: the simulator serves at least twice the sdk's requests per second with a
 * p99 no higher than the sdk's, and at least as many as bare express; and, as a stretch target, at
 * least half as many as bare node:http, which does express's work without a framework: the nearest
 * thing to a floor on the cost of an HTTP request in Node.
 */
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadResult } from '../load.js';
import { playRounds, type Bench, type WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import {
  byKind,
  cpuMs,
  LineWorker,
  LOAD_CORE,
  PLAY_ORDER,
  rssBytes,
  spawnPinned,
  startServer,
  tsxArgv,
  type ServerHandle,
  type ServerKind,
} from '../lib/procs.js';
import { createTask, freshId, requestJson, withId } from '../lib/requests.js';
import { medianOf, RATIO_DIGITS, round, sumOf } from '../lib/stats.js';
import { limitTarget, type Limit } from '../lib/targets.js';
import { HTTP_WORKLOADS, type HttpWorkload } from './http-workloads.js';

/** The message:send workloads' targets; their row's target cell says the same in short. */
const SEND_LIMITS = {
  rpsOverSdk: { atLeast: 2, label: '2.0' },
  p99OverSdk: { atMost: 1, label: '1.0' },
  rpsOverExpress: { atLeast: 1.25, label: '1.25' },
  rpsOverNode: { atLeast: 0.5, stretch: true },
} satisfies Record<string, Limit>;
const SEND_TARGET_CELL = '≥2.0× sdk, p99≤sdk, ≥1.25× expr; stretch ≥0.5× node';

interface HttpRun extends LoadResult {
  /** Server CPU time during the measured run, as a share of one core. */
  serverCpu: number | null;
  serverRssEndBytes: number | null;
}

let loadWorker: LineWorker | undefined;
function loadGenerator(pin: boolean): LineWorker {
  loadWorker ??= new LineWorker(spawnPinned(tsxArgv('bench/load.ts'), LOAD_CORE, pin));
  return loadWorker;
}

/** --quick only: one server per kind for every HTTP workload, to keep the smoke test short. */
/** Servers kept from one workload to the next (--quick), by kind and the simulator's log level and flags. */
const sharedServers = new Map<string, ServerHandle>();

function sendInit(workload: HttpWorkload): RequestInit {
  return {
    method: workload.method,
    headers: workload.headers,
    ...(workload.body !== undefined && { body: withId(workload.body, freshId()) }),
  };
}

async function httpRun(workload: HttpWorkload, kind: ServerKind, bench: Bench): Promise<HttpRun> {
  const { settings, pin } = bench;
  const serveFlags = kind === 'simulator' ? (workload.simulatorFlags ?? []) : [];
  const key = [kind, ...serveFlags].join(':');
  let server = sharedServers.get(key);
  if (!server) {
    server = await startServer(kind, {
      pin,
      nodeFlags: bench.simulatorFlags,
      ...(serveFlags.length > 0 && { serveFlags }),
    });
    if (settings.reuseServers) sharedServers.set(key, server);
  }
  try {
    let path = workload.path;
    let taskId: string | undefined;
    if (path.includes('{taskId}')) {
      taskId = await createTask(server.url);
      path = path.replace('{taskId}', taskId);
    }
    // One request first: the run measures only answers of the expected shape.
    const answer = await requestJson(`${server.url}${path}`, sendInit(workload));
    const problem = workload.check(answer, taskId);
    if (problem)
      throw new Error(
        `${workload.name} on ${kind}: unexpected answer (${problem}): ${JSON.stringify(answer).slice(0, 300)}`,
      );

    const job: LoadJob = {
      url: `${server.url}${path}`,
      method: workload.method,
      headers: workload.headers,
      ...(workload.body !== undefined && { body: workload.body }),
      connections: workload.connections,
      durationSec: settings.warmupSec,
      discard: true,
    };
    if (settings.warmupSec > 0) await loadGenerator(pin).request(job);
    const cpuBefore = cpuMs(server.pid);
    const started = performance.now();
    const result = await loadGenerator(pin).request<LoadResult>({
      ...job,
      durationSec: settings.durationSec,
      ...(settings.requestsPerRun !== undefined && { requests: settings.requestsPerRun }),
      discard: false,
    });
    const wallMs = performance.now() - started;
    const cpuAfter = cpuMs(server.pid);
    return {
      ...result,
      serverCpu: cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / wallMs : null,
      serverRssEndBytes: rssBytes(server.pid) ?? null,
    };
  } finally {
    if (!settings.reuseServers) await server.stop();
  }
}

function describe(run: HttpRun): string {
  return (
    `${fixed(run.rps)} req/s, p50 ${fixed(run.latencyMs.p50, 2)} ms, ` +
    `p99 ${fixed(run.latencyMs.p99, 2)} ms, server CPU ${fixed((run.serverCpu ?? Number.NaN) * 100)}%, ` +
    `load CPU ${fixed(run.loadgenCpu * 100)}%${run.non2xx || run.errors ? `, ${run.non2xx} non-2xx, ${run.errors} errors` : ''}`
  );
}

function summarise(workload: HttpWorkload, runs: Partial<Record<ServerKind, HttpRun[]>>) {
  const servers = byKind((kind) => {
    const mine = runs[kind] ?? [];
    return {
      rps: medianOf(mine, (r) => r.rps, 0),
      p50Ms: medianOf(mine, (r) => r.latencyMs.p50, 3),
      p99Ms: medianOf(mine, (r) => r.latencyMs.p99, 3),
      non2xx: sumOf(mine, (r) => r.non2xx + r.errors + r.timeouts),
      serverCpu: medianOf(mine, (r) => r.serverCpu, 2),
      loadgenCpu: medianOf(mine, (r) => r.loadgenCpu, 2),
      rounds: mine,
    };
  });
  const ratio = (a: number | null, b: number | null) => (a !== null && b ? a / b : Number.NaN);
  const ratios = {
    rpsSimOverSdk: round(ratio(servers.simulator.rps, servers.sdk.rps), RATIO_DIGITS),
    rpsSimOverExpress: round(ratio(servers.simulator.rps, servers.express.rps), RATIO_DIGITS),
    rpsSimOverNode: round(ratio(servers.simulator.rps, servers.node.rps), RATIO_DIGITS),
    p99SimOverSdk: round(ratio(servers.simulator.p99Ms, servers.sdk.p99Ms), RATIO_DIGITS),
  };
  return {
    kind: workload.kind,
    description: workload.description,
    connections: workload.connections,
    request: {
      method: workload.method,
      path: workload.path,
      headers: workload.headers,
      body: workload.body,
    },
    servers,
    ratios,
  };
}

export const httpFamily: WorkloadFamily<
  HttpWorkload,
  Partial<Record<ServerKind, HttpRun[]>>,
  ReturnType<typeof summarise>
> = {
  workloads: () => HTTP_WORKLOADS,
  run: (workload, bench) =>
    playRounds(
      bench,
      workload.name,
      PLAY_ORDER,
      bench.settings.rounds,
      (kind) => httpRun(workload, kind, bench),
      describe,
    ),
  summarise,
  judge: (workload, { ratios }) =>
    workload.isSend
      ? [
          limitTarget(workload.name, 'req/s simulator ÷ sdk', ratios.rpsSimOverSdk, SEND_LIMITS.rpsOverSdk),
          limitTarget(workload.name, 'p99 simulator ÷ sdk', ratios.p99SimOverSdk, SEND_LIMITS.p99OverSdk),
          limitTarget(
            workload.name,
            'req/s simulator ÷ express',
            ratios.rpsSimOverExpress,
            SEND_LIMITS.rpsOverExpress,
          ),
          limitTarget(
            workload.name,
            'req/s simulator ÷ node',
            ratios.rpsSimOverNode,
            SEND_LIMITS.rpsOverNode,
          ),
        ]
      : [],
  rows: (workload, { servers, ratios }, met) => [
    {
      label: workload.name,
      target: workload.isSend ? SEND_TARGET_CELL : workload.diagnostic ? '(diagnostic)' : '(none)',
      servers: byKind((kind) => `${grouped(servers[kind].rps)}/s p99 ${grouped(servers[kind].p99Ms, 2)}`),
      simOverSdk: `${grouped(ratios.rpsSimOverSdk, 2)}× (p99 ${grouped(ratios.p99SimOverSdk, 2)}×)`,
      simOverExpress: `${grouped(ratios.rpsSimOverExpress, 2)}×`,
      simOverNode: `${grouped(ratios.rpsSimOverNode, 2)}×`,
      met,
    },
  ],
  async close() {
    await loadWorker?.close();
    for (const server of sharedServers.values()) await server.stop();
  },
};
