/**
 * The shared store (docs/replicas.md): the same load on the memory store, on one replica over Redis
 * (what sharing costs) and on two replicas over Redis, the load split evenly between them (what
 * scaling out buys). A real `redis-server` (persistence off) runs for the family's workloads; each
 * run's replicas get a key prefix of their own. Shown for information: no targets.
 *
 * On a two-core machine the first replica is pinned to the server core and the second to the load
 * core, beside the load generators; Redis is not pinned. Two replicas then share the machine with
 * their load and with Redis, so the figures say what a second process costs and gives here, not
 * what a second machine would.
 */
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadResult } from '../load.js';
import type { SseJob, SseResult } from '../sse-client.js';
import { playRounds, type Bench, type Workload, type WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import {
  cpuMs,
  LineWorker,
  LOAD_CORE,
  resultOf,
  SERVER_CORE,
  spawnJob,
  spawnPinned,
  startServer,
  stopChild,
  tsxArgv,
  type ServerHandle,
} from '../lib/procs.js';
import { REST_SEND_BODY, V1_HEADERS, warmStream } from '../lib/requests.js';
import { medianOf, sumOf } from '../lib/stats.js';
import { startRedis, type RedisServer } from '../../test/helpers/redis.js';
import { ticksIn } from './sse-run.js';

type Setup = 'memory' | 'redis-1' | 'redis-2';
const SETUPS: readonly Setup[] = ['memory', 'redis-1', 'redis-2'];
const SETUP_LABEL: Record<Setup, string> = {
  memory: 'memory store',
  'redis-1': 'redis, 1 replica',
  'redis-2': 'redis, 2 replicas',
};

interface ReplicaWorkload extends Workload {
  kind: 'replicas';
  load: 'send' | 'streams';
  /** Connections (send) or streams, in all: split evenly between the replicas. */
  total: number;
}

const WORKLOADS: ReplicaWorkload[] = [
  {
    kind: 'replicas',
    name: 'replicas-send-c64',
    load: 'send',
    total: 64,
    description:
      'REST message:send, 64 connections in all, on the memory store and on 1 and 2 replicas over Redis',
  },
  {
    kind: 'replicas',
    name: 'replicas-streams-1000',
    load: 'streams',
    total: 1_000,
    description:
      '1,000 concurrent bench-chunks streams in all, on the memory store and on 1 and 2 replicas over Redis',
  },
];

interface ReplicaRun {
  /** send: 2xx answers per second, all replicas together. */
  rps?: number;
  /** send: the highest p99 of the replicas' loads, ms. */
  p99Ms?: number;
  /** streams: chunks received in the window over those scheduled in it. */
  received?: number;
  lagP99Ms?: number;
  failed: number;
  /** CPU time of the replicas together during the measured run, as a share of one core. */
  serverCpu: number | null;
}

let redis: RedisServer | undefined;
let runs = 0;
const loadWorkers: LineWorker[] = [];

async function replicasFor(setup: Setup, bench: Bench, flags: { scenarioDir?: string; speed?: number }) {
  const count = setup === 'redis-2' ? 2 : 1;
  const store =
    setup === 'memory' ? [] : ['--store', `redis://127.0.0.1:${redis!.port}/0?prefix=run${++runs}:`];
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      startServer('simulator', {
        pin: bench.pin,
        core: i === 0 ? SERVER_CORE : LOAD_CORE,
        logLevel: 'silent',
        nodeFlags: bench.simulatorFlags,
        serveFlags: store,
        maxStoreBytes: '1GiB',
        ...flags,
      }),
    ),
  );
}

function loadWorker(i: number, pin: boolean): LineWorker {
  return (loadWorkers[i] ??= new LineWorker(spawnPinned(tsxArgv('bench/load.ts'), LOAD_CORE, pin)));
}

/** CPU ms of every server, for the share they used over `wallMs`. */
const cpuOf = (servers: ServerHandle[]) => servers.reduce((sum, s) => sum + (cpuMs(s.pid) ?? Number.NaN), 0);

async function sendRun(
  workload: ReplicaWorkload,
  servers: ServerHandle[],
  bench: Bench,
): Promise<ReplicaRun> {
  const { settings, pin } = bench;
  const job = (server: ServerHandle, durationSec: number, discard: boolean): LoadJob => ({
    url: `${server.url}/message:send`,
    method: 'POST',
    headers: V1_HEADERS,
    body: REST_SEND_BODY,
    connections: workload.total / servers.length,
    durationSec,
    ...(!discard && settings.requestsPerRun !== undefined && { requests: settings.requestsPerRun }),
    discard,
  });
  if (settings.warmupSec > 0)
    await Promise.all(servers.map((s, i) => loadWorker(i, pin).request(job(s, settings.warmupSec, true))));
  const cpuBefore = cpuOf(servers);
  const started = performance.now();
  const results = await Promise.all(
    servers.map((s, i) => loadWorker(i, pin).request<LoadResult>(job(s, settings.durationSec, false))),
  );
  const wallMs = performance.now() - started;
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    p99Ms: Math.max(...results.map((r) => r.latencyMs.p99)),
    failed: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
    serverCpu: (cpuOf(servers) - cpuBefore) / wallMs,
  };
}

async function streamsRun(
  workload: ReplicaWorkload,
  servers: ServerHandle[],
  bench: Bench,
): Promise<ReplicaRun> {
  const { settings, pin } = bench;
  const ticks = ticksIn(settings.sseScenarios, 'bench-chunks');
  for (const server of servers) await warmStream(server.url, 'bench-chunks', 3);
  const clients = servers.map((server, i) => {
    const job: SseJob = {
      url: server.url,
      streams: workload.total / servers.length,
      windowMs: Math.max(1_000, Math.min(settings.sseWindowMs, ticks * 100 - 3_000)),
      settleMs: settings.sseSettleMs,
      graceMs: settings.sseGraceMs,
      rampTimeoutMs: settings.sseRampTimeoutMs,
      runId: `replicas-${runs}-${i}`,
      scenario: 'bench-chunks',
      ticks,
    };
    return spawnJob('bench/sse-client.ts', job, { core: LOAD_CORE, pin });
  });
  let cpuBefore = Number.NaN;
  let started = 0;
  let steady = 0;
  const results = await Promise.all(
    clients.map((client) =>
      resultOf<SseResult>(client, 'SSE client', ({ phase }) => {
        if (phase !== 'steady' || ++steady < clients.length) return;
        cpuBefore = cpuOf(servers);
        started = performance.now();
      }),
    ),
  );
  const wallMs = performance.now() - started;
  const cpu = (cpuOf(servers) - cpuBefore) / wallMs;
  await Promise.all(clients.map(stopChild));
  const scheduled = results.reduce((sum, r) => sum + r.ticksScheduled, 0);
  return {
    received: results.reduce((sum, r) => sum + r.ticksReceived, 0) / scheduled,
    lagP99Ms: Math.max(...results.map((r) => r.lagMs.p99)),
    failed: results.reduce((sum, r) => sum + r.failed + r.gaps, 0),
    serverCpu: cpu,
  };
}

async function play(workload: ReplicaWorkload, setup: Setup, bench: Bench): Promise<ReplicaRun> {
  redis ??= await startRedis();
  const servers = await replicasFor(
    setup,
    bench,
    workload.load === 'streams' ? { scenarioDir: bench.settings.sseScenarios, speed: 1 } : {},
  );
  try {
    return workload.load === 'send'
      ? await sendRun(workload, servers, bench)
      : await streamsRun(workload, servers, bench);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

function describe(run: ReplicaRun): string {
  const cpu = `server CPU ${fixed((run.serverCpu ?? Number.NaN) * 100)}%`;
  const failed = run.failed ? `, ${run.failed} failed` : '';
  return run.rps !== undefined
    ? `${fixed(run.rps)} req/s, p99 ${fixed(run.p99Ms!, 2)} ms, ${cpu}${failed}`
    : `${fixed(run.received! * 100, 2)}% of chunks on time, lag p99 ${fixed(run.lagP99Ms!, 1)} ms, ${cpu}${failed}`;
}

interface SetupSummary {
  rps: number | null;
  p99Ms: number | null;
  received: number | null;
  lagP99Ms: number | null;
  serverCpu: number | null;
  failed: number;
  rounds: ReplicaRun[];
}

function summarise(workload: ReplicaWorkload, runs: Partial<Record<Setup, ReplicaRun[]>>) {
  const summary = (mine: ReplicaRun[]): SetupSummary => ({
    rps: medianOf(mine, (r) => r.rps, 0),
    p99Ms: medianOf(mine, (r) => r.p99Ms, 3),
    received: medianOf(mine, (r) => r.received, 4),
    lagP99Ms: medianOf(mine, (r) => r.lagP99Ms, 2),
    serverCpu: medianOf(mine, (r) => r.serverCpu, 2),
    failed: sumOf(mine, (r) => r.failed),
    rounds: mine,
  });
  const setups = {
    memory: summary(runs.memory ?? []),
    'redis-1': summary(runs['redis-1'] ?? []),
    'redis-2': summary(runs['redis-2'] ?? []),
  };
  return { kind: workload.kind, description: workload.description, total: workload.total, setups };
}

export const replicasFamily: WorkloadFamily<
  ReplicaWorkload,
  Partial<Record<Setup, ReplicaRun[]>>,
  ReturnType<typeof summarise>
> = {
  workloads: () => WORKLOADS,
  run: (workload, bench) =>
    playRounds(
      bench,
      workload.name,
      SETUPS,
      bench.settings.rounds,
      (setup) => play(workload, setup, bench),
      describe,
    ),
  summarise,
  judge: () => [],
  rows: (workload, { setups }) =>
    SETUPS.map((setup, i) => {
      const s = setups[setup];
      const memory = setups.memory;
      const figure =
        workload.load === 'send'
          ? `${grouped(s.rps)}/s p99 ${grouped(s.p99Ms, 2)}${i > 0 && s.rps && memory.rps ? ` (${grouped(s.rps / memory.rps, 2)}× memory)` : ''}`
          : `${grouped((s.received ?? Number.NaN) * 100, 2)}% on time, lag p99 ${grouped(s.lagP99Ms, 1)} ms`;
      return {
        label: i === 0 ? `${workload.name} (${SETUP_LABEL[setup]})` : `  ${SETUP_LABEL[setup]}`,
        target: '(none)',
        servers: { simulator: figure, sdk: '—', express: '—', node: '—' },
      };
    }),
  async close() {
    await Promise.all(loadWorkers.splice(0).map((w) => w.close()));
    await redis?.stop();
    redis = undefined;
  },
};
