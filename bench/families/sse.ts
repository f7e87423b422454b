/**
 * The SSE workloads: N concurrent REST message:stream streams of the bench-ticks scenario (a status
 * update every 100 ms each), read by bench/sse-client.ts (how lag, wire lag and timer fidelity are
 * told apart is written there); one run per server is in ./sse-run.ts. Targets: at 1000 streams the
 * simulator's lag p99, timer p99 and RSS per stream; at 5000 (--sse-5000) every stream held, and lag
 * p99 no worse than bare express's in the same run.
 */
import { playRounds, type Bench, type Workload, type WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import { byKind, SERVER_KINDS, type ServerKind } from '../lib/procs.js';
import type { Settings } from '../lib/options.js';
import { medianOf, round, sumOf } from '../lib/stats.js';
import { limitTarget, toTarget, type Target } from '../lib/targets.js';
import { sseRun, ticksIn, type SseRun } from './sse-run.js';

export interface SseWorkload extends Workload {
  kind: 'sse';
  streams: number;
  /** The lag and RSS targets apply (1000 streams); other sizes are shown for information. */
  hasTargets: boolean;
  /** Every stream held and lag p99 no worse than bare express's in the same run (5000 streams). */
  againstExpress: boolean;
}

const LIMITS = { lagP99Ms: 10, fidelityP99Ms: 5, rssPerStreamKB: 60 };

/**
 * --quick leaves the comparators out: the smoke test checks the script, and three servers per SSE
 * workload would add seconds to `npm test`.
 */
const sseKinds = (settings: Settings): readonly ServerKind[] =>
  settings.quick ? ['simulator'] : SERVER_KINDS;

function describe(run: SseRun): string {
  return (
    `lag p50 ${fixed(run.lagMs.p50, 2)} ms, p99 ${fixed(run.lagMs.p99, 2)} ms ` +
    `(wire p99 ${fixed(run.wireLagMs.p99, 2)}, timer p99 ${fixed(run.fidelityMs.p99, 2)}), first event p50 ${fixed(run.firstEventMs.p50, 1)} / p99 ${fixed(run.firstEventMs.p99, 1)} ms, ` +
    `${fixed((run.rssPerStreamBytes ?? Number.NaN) / 1024, 1)} KB/stream, ${run.ticksReceived}/${run.ticksScheduled} ticks, ` +
    `${run.opened}/${run.streams} opened, ${run.failed} failed, ramp ${fixed(run.rampMs)} ms (${run.listenOverflowsDuringRamp ?? '?'} listen overflows), ` +
    `server CPU ${fixed((run.serverCpu ?? Number.NaN) * 100)}%, client CPU ${fixed(run.clientCpu * 100)}%, ` +
    `server GC: ${run.serverGc.major} major (marking up to ${run.serverGc.maxMajorMarkingMs} ms), max pause ${run.serverGc.maxPauseMs} ms`
  );
}

/** One server's rounds of an SSE workload: medians (counts summed over rounds), and the rounds. */
function serverSummary(runs: SseRun[]) {
  return {
    lagP50Ms: medianOf(runs, (r) => r.lagMs.p50, 2),
    lagP99Ms: medianOf(runs, (r) => r.lagMs.p99, 2),
    wireLagP99Ms: medianOf(runs, (r) => r.wireLagMs.p99, 2),
    // status.timestamp − scheduled: how late the server's timers fired, before any delivery.
    fidelityP50Ms: medianOf(runs, (r) => r.fidelityMs.p50, 2),
    fidelityP99Ms: medianOf(runs, (r) => r.fidelityMs.p99, 2),
    fidelityMaxMs: round(Math.max(...runs.map((r) => r.fidelityMs.max)), 1),
    firstEventP50Ms: medianOf(runs, (r) => r.firstEventMs.p50, 1),
    firstEventP99Ms: medianOf(runs, (r) => r.firstEventMs.p99, 1),
    rssPerStreamKB: medianOf(runs, (r) => (r.rssPerStreamBytes ?? Number.NaN) / 1024, 1),
    rssPeakMB: medianOf(runs, (r) => (r.rssPeakBytes ?? Number.NaN) / 2 ** 20, 1),
    ticksReceived: sumOf(runs, (r) => r.ticksReceived),
    ticksScheduled: sumOf(runs, (r) => r.ticksScheduled),
    lagMaxMs: round(Math.max(...runs.map((r) => r.lagMs.max)), 1),
    openedStreams: sumOf(runs, (r) => r.opened),
    failedStreams: sumOf(runs, (r) => r.failed),
    listenOverflows: sumOf(runs, (r) => r.listenOverflowsDuringRamp),
    serverMajorGcs: sumOf(runs, (r) => r.serverGc.major),
    serverCpu: medianOf(runs, (r) => r.serverCpu, 2),
    rounds: runs,
  };
}
type ServerSummary = ReturnType<typeof serverSummary>;
type Servers = Partial<Record<ServerKind, ServerSummary>>;

/**
 * The lag percentiles are over the ticks received by the end of the grace period: with more than
 * 1 % of them missing, a server's true p99 lies among ticks never seen, so NaN, and no ratio.
 */
function lagP99(servers: Servers, kind: ServerKind): number {
  const summary = servers[kind];
  return summary && summary.ticksReceived >= 0.99 * summary.ticksScheduled
    ? (summary.lagP99Ms ?? Number.NaN)
    : Number.NaN;
}

function summarise(workload: SseWorkload, runs: Partial<Record<ServerKind, SseRun[]>>, bench: Bench) {
  const servers: Servers = Object.fromEntries(
    sseKinds(bench.settings).map((kind) => [kind, serverSummary(runs[kind] ?? [])]),
  );
  // Three digits: against the sdk's seconds of lag, two would round the simulator's to 0.
  const lagRatio = (other: ServerKind) => round(lagP99(servers, 'simulator') / lagP99(servers, other), 3);
  return {
    kind: workload.kind,
    description: workload.description,
    streams: workload.streams,
    scenarioTicks: ticksIn(bench.settings.sseScenarios),
    servers,
    ratios: { lagP99SimOverSdk: lagRatio('sdk'), lagP99SimOverExpress: lagRatio('express') },
  };
}
type SseSummary = ReturnType<typeof summarise>;

function judge(workload: SseWorkload, { servers }: SseSummary, bench: Bench): Target[] {
  const { name, streams } = workload;
  const sim = servers.simulator!;
  const targets: Target[] = [];
  if (workload.hasTargets) {
    targets.push(
      limitTarget(name, 'event lag p99 (ms)', sim.lagP99Ms, { atMost: LIMITS.lagP99Ms }),
      limitTarget(name, 'timing fidelity p99: status.timestamp − scheduled (ms)', sim.fidelityP99Ms, {
        atMost: LIMITS.fidelityP99Ms,
      }),
      limitTarget(name, 'server RSS per stream (KB)', sim.rssPerStreamKB, { atMost: LIMITS.rssPerStreamKB }),
    );
  }
  if (workload.againstExpress) {
    const held = Math.min(...sim.rounds.map((r) => r.opened - r.failed));
    // A tick missing at the end of the grace period was later than that: a server that misses
    // more than 1 % of them has a p99 past the grace period, though not a figure.
    const express = lagP99(servers, 'express');
    const expressLost = Number.isNaN(express) && (servers.express?.ticksScheduled ?? 0) > 0;
    const graceMs = bench.settings.sseGraceMs;
    targets.push(
      toTarget(
        name,
        'simulator streams held: fewest opened and not failed in a round (and no tick missing)',
        `= ${streams}`,
        held,
        held === streams && sim.ticksReceived === sim.ticksScheduled,
      ),
      toTarget(
        name,
        'event lag p99 (ms), simulator, no worse than express in the same run',
        expressLost
          ? `≤ express's, > ${graceMs} (it missed over 1 % of its ticks)`
          : `≤ ${fixed(express, 2)} (express)`,
        servers.express ? lagP99(servers, 'simulator') : Number.NaN,
        lagP99(servers, 'simulator') <= (expressLost ? graceMs : express),
      ),
    );
  }
  return targets;
}

function rows(workload: SseWorkload, { servers, ratios }: SseSummary, met: string) {
  const ratioCell = (ratio: number | null) =>
    ratio === null ? '' : `p99 ${grouped(ratio, ratio < 0.1 ? 3 : 2)}×`;
  const cells = (cell: (c: ServerSummary) => string) =>
    byKind((kind) => {
      const summary = servers[kind];
      return summary ? cell(summary) : '—';
    });
  const target = [
    ...(workload.hasTargets
      ? [
          `lag p99 ≤${LIMITS.lagP99Ms} ms, timer p99 ≤${LIMITS.fidelityP99Ms} ms, ≤${LIMITS.rssPerStreamKB} KB/stream`,
        ]
      : []),
    ...(workload.againstExpress ? ['all streams held, lag p99 ≤ express'] : []),
  ];
  const detail = (label: string, cell: (c: ServerSummary) => string) => ({
    label,
    target: '',
    servers: cells(cell),
  });
  return [
    {
      label: `${workload.name} lag p50/p99`,
      target: target.join('; ') || '(for information)',
      servers: cells((c) => `${grouped(c.lagP50Ms, 1)}/${grouped(c.lagP99Ms, 1)} ms`),
      simOverSdk: ratioCell(ratios.lagP99SimOverSdk),
      simOverExpress: ratioCell(ratios.lagP99SimOverExpress),
      met,
    },
    detail(
      '  wire lag p99, timer p50/p99',
      (c) =>
        `${grouped(c.wireLagP99Ms, 1)}; ${grouped(c.fidelityP50Ms, 1)}/${grouped(c.fidelityP99Ms, 1)} ms`,
    ),
    detail(
      '  RSS/stream, server CPU',
      (c) => `${grouped(c.rssPerStreamKB, 1)} KB, ${grouped((c.serverCpu ?? Number.NaN) * 100)}%`,
    ),
    detail('  ticks recv/sched', (c) => `${grouped(c.ticksReceived)}/${grouped(c.ticksScheduled)}`),
    detail('  streams opened, failed', (c) => `${grouped(c.openedStreams)}, ${grouped(c.failedStreams)}`),
    detail('  1st event p50/p99', (c) => `${grouped(c.firstEventP50Ms)}/${grouped(c.firstEventP99Ms)} ms`),
  ];
}

export const sseFamily: WorkloadFamily<SseWorkload, Partial<Record<ServerKind, SseRun[]>>, SseSummary> = {
  workloads: (options) =>
    [100, 1000, ...(options.sse5000 ? [5000] : [])].map((streams) => ({
      kind: 'sse',
      name: `sse-${streams}`,
      description: `${streams} concurrent REST message:stream streams, one status update every 100 ms each`,
      streams,
      hasTargets: streams === 1000,
      againstExpress: streams === 5000,
    })),
  run: (workload, bench) =>
    playRounds(
      bench,
      workload.name,
      sseKinds(bench.settings),
      bench.settings.rounds,
      (kind, round) => sseRun(workload.streams, kind, round, bench),
      describe,
    ),
  summarise,
  judge,
  rows,
};
