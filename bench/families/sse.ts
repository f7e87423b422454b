/**
 * The SSE workloads: N concurrent REST message:stream streams of one bench scenario, read by
 * bench/sse-client.ts (how lag, wire lag and timer fidelity are told apart is written there); one
 * run per server is in ./sse-run.ts. Two scenarios: bench-ticks, a status update saying `tick k`
 * every 100 ms (sse-100, sse-1000, sse-5000), and bench-chunks, one artifact in 100 chunks of a fake
 * sentence every 100 ms, the shape of an agent streaming out its answer (sse-chunks-1000,
 * sse-chunks-5000). Artifact updates carry no timestamp, so bench-chunks has no wire lag or timer
 * fidelity: those figures are null, and no target or ratio reads them.
 *
 * Targets, on the simulator: sse-1000, lag p99, timer p99 and RSS per stream; sse-chunks-1000, lag
 * p99 (≤ 10 ms, or ≤ express's when that is higher), RSS per stream (≤ express's + 3 KB), and time
 * to first event p99 ≤ express's; at 5000 streams (--sse-5000, either scenario) every stream held and lag p99 no
 * worse than bare express's in the same run. The sdk and bare node:http comparators are shown for
 * information. A target against express is left out when express did not play (--quick).
 */
import { playRounds, type Bench, type Workload, type WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import { byKind, PLAY_ORDER, type ServerKind } from '../lib/procs.js';
import type { Settings } from '../lib/options.js';
import { maxOf, medianOf, RATIO_DIGITS, round, sumOf } from '../lib/stats.js';
import { limitTarget, toTarget, type Target } from '../lib/targets.js';
import type { SseScenario } from '../sse-client.js';
import { sseRun, ticksIn, type SseRun } from './sse-run.js';

export interface SseWorkload extends Workload {
  kind: 'sse';
  scenario: SseScenario;
  streams: number;
  /**
   * Which targets apply: `ticks` (sse-1000), `chunks` (sse-chunks-1000), `againstExpress` (every
   * stream held and lag p99 no worse than bare express's: 5000 streams), or none (information).
   */
  targets: 'ticks' | 'chunks' | 'againstExpress' | 'none';
}

const LIMITS = {
  lagP99Ms: 10,
  fidelityP99Ms: 5,
  rssPerStreamKB: 60,
  /** sse-chunks-1000: RSS per stream no more than express's and this (KB). */
  rssOverExpressKB: 3,
  firstEventP99OverExpress: 1,
};

/**
 * --quick leaves the comparators out: the smoke test checks the script, and three more servers per
 * SSE workload would add seconds to `npm test`.
 */
const sseKinds = (settings: Settings): readonly ServerKind[] => (settings.quick ? ['simulator'] : PLAY_ORDER);

function describe(run: SseRun): string {
  return (
    `lag p50 ${fixed(run.lagMs.p50, 2)} ms, p99 ${fixed(run.lagMs.p99, 2)} ms` +
    // Chunks (artifact updates) carry no timestamp: no wire lag or timer figures.
    (run.wireLagMs.n > 0
      ? ` (wire p99 ${fixed(run.wireLagMs.p99, 2)}, timer p99 ${fixed(run.fidelityMs.p99, 2)}), `
      : ', ') +
    `first event p50 ${fixed(run.firstEventMs.p50, 1)} / p99 ${fixed(run.firstEventMs.p99, 1)} ms, ` +
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
    fidelityMaxMs: maxOf(runs, (r) => r.fidelityMs.max, 1),
    firstEventP50Ms: medianOf(runs, (r) => r.firstEventMs.p50, 1),
    firstEventP99Ms: medianOf(runs, (r) => r.firstEventMs.p99, 1),
    rssPerStreamKB: medianOf(runs, (r) => (r.rssPerStreamBytes ?? Number.NaN) / 1024, 1),
    rssPeakMB: medianOf(runs, (r) => (r.rssPeakBytes ?? Number.NaN) / 2 ** 20, 1),
    // Ticks: the scenario's numbered events, status updates (bench-ticks) or chunks (bench-chunks).
    ticksReceived: sumOf(runs, (r) => r.ticksReceived),
    ticksScheduled: sumOf(runs, (r) => r.ticksScheduled),
    lagMaxMs: maxOf(runs, (r) => r.lagMs.max, 1),
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

/** Every tick received, or at most 1 % missing, so that the p99 of those received is the true one. */
const heldTicks = (summary: ServerSummary) => summary.ticksReceived >= 0.99 * summary.ticksScheduled;

/**
 * The lag percentiles are over the ticks received by the end of the grace period: with more than
 * 1 % of them missing, a server's true p99 lies among ticks never seen, so NaN, and no ratio.
 */
function lagP99(servers: Servers, kind: ServerKind): number {
  const summary = servers[kind];
  return summary && heldTicks(summary) ? (summary.lagP99Ms ?? Number.NaN) : Number.NaN;
}

function summarise(workload: SseWorkload, runs: Partial<Record<ServerKind, SseRun[]>>, bench: Bench) {
  const servers: Servers = Object.fromEntries(
    sseKinds(bench.settings).map((kind) => [kind, serverSummary(runs[kind] ?? [])]),
  );
  const lagRatio = (other: ServerKind) =>
    round(lagP99(servers, 'simulator') / lagP99(servers, other), RATIO_DIGITS);
  const firstEventP99 = (kind: ServerKind) => servers[kind]?.firstEventP99Ms ?? Number.NaN;
  return {
    kind: workload.kind,
    description: workload.description,
    scenario: workload.scenario,
    streams: workload.streams,
    scenarioTicks: ticksIn(bench.settings.sseScenarios, workload.scenario),
    servers,
    ratios: {
      lagP99SimOverSdk: lagRatio('sdk'),
      lagP99SimOverExpress: lagRatio('express'),
      lagP99SimOverNode: lagRatio('node'),
      firstEventP99SimOverExpress: round(firstEventP99('simulator') / firstEventP99('express'), RATIO_DIGITS),
    },
  };
}
type SseSummary = ReturnType<typeof summarise>;

/**
 * Express's lag p99 as a bound on the simulator's, with how the report writes it; undefined when
 * express did not play. A tick missing at the end of the grace period was later than that: when
 * express missed more than 1 % of its ticks its p99 lies past the grace period, and the bound is that.
 */
function expressLagBound(servers: Servers, graceMs: number): { bound: number; label: string } | undefined {
  const express = servers.express;
  if (!express) return undefined;
  const lag = lagP99(servers, 'express');
  return Number.isNaN(lag) && express.ticksScheduled > 0
    ? { bound: graceMs, label: `express's, > ${graceMs} (it missed over 1 % of its ticks)` }
    : { bound: lag, label: `${fixed(lag, 2)} (express)` };
}

function judge(workload: SseWorkload, { servers }: SseSummary, bench: Bench): Target[] {
  const { name, streams } = workload;
  const sim = servers.simulator!;
  const express = expressLagBound(servers, bench.settings.sseGraceMs);
  switch (workload.targets) {
    case 'none':
      return [];
    case 'ticks':
      return [
        limitTarget(name, 'event lag p99 (ms)', sim.lagP99Ms, { atMost: LIMITS.lagP99Ms }),
        limitTarget(name, 'timing fidelity p99: status.timestamp − scheduled (ms)', sim.fidelityP99Ms, {
          atMost: LIMITS.fidelityP99Ms,
        }),
        limitTarget(name, 'server RSS per stream (KB)', sim.rssPerStreamKB, {
          atMost: LIMITS.rssPerStreamKB,
        }),
      ];
    case 'chunks': {
      // Express's p99 where it is higher: a lag bare express has too is the machine's, not the simulator's.
      const lagBound = Math.max(LIMITS.lagP99Ms, express?.bound ?? LIMITS.lagP99Ms);
      const lag = sim.lagP99Ms ?? Number.NaN;
      const targets = [
        toTarget(
          name,
          'event lag p99 (ms), no more than 1 % of the chunks missing',
          express && lagBound > LIMITS.lagP99Ms ? `≤ ${express.label}` : `≤ ${LIMITS.lagP99Ms}`,
          lag,
          lag <= lagBound && heldTicks(sim),
        ),
      ];
      const expressRss = servers.express?.rssPerStreamKB;
      targets.push(
        expressRss === undefined || expressRss === null
          ? limitTarget(name, 'server RSS per stream (KB)', sim.rssPerStreamKB, {
              atMost: LIMITS.rssPerStreamKB,
            })
          : toTarget(
              name,
              `server RSS per stream (KB), no more than express's + ${LIMITS.rssOverExpressKB} KB`,
              `≤ ${fixed(expressRss + LIMITS.rssOverExpressKB, 1)}`,
              sim.rssPerStreamKB ?? Number.NaN,
              (sim.rssPerStreamKB ?? Number.NaN) <= expressRss + LIMITS.rssOverExpressKB,
            ),
      );
      const expressFirst = servers.express?.firstEventP99Ms;
      if (servers.express) {
        const bound = LIMITS.firstEventP99OverExpress * (expressFirst ?? Number.NaN);
        targets.push(
          toTarget(
            name,
            `time to first event p99 (ms), no more than ${LIMITS.firstEventP99OverExpress}× express's`,
            `≤ ${fixed(bound, 1)} (${LIMITS.firstEventP99OverExpress}× express)`,
            sim.firstEventP99Ms ?? Number.NaN,
            (sim.firstEventP99Ms ?? Number.NaN) <= bound,
          ),
        );
      }
      return targets;
    }
    case 'againstExpress': {
      const held = Math.min(...sim.rounds.map((r) => r.opened - r.failed));
      const targets = [
        toTarget(
          name,
          'simulator streams held: fewest opened and not failed in a round (and no tick missing)',
          `= ${streams}`,
          held,
          held === streams && sim.ticksReceived === sim.ticksScheduled,
        ),
      ];
      if (express) {
        const lag = lagP99(servers, 'simulator');
        targets.push(
          toTarget(
            name,
            'event lag p99 (ms), simulator, no worse than express in the same run',
            `≤ ${express.label}`,
            lag,
            lag <= express.bound,
          ),
        );
      }
      return targets;
    }
  }
}

function rows(workload: SseWorkload, { servers, ratios }: SseSummary, met: string) {
  const ratioCell = (ratio: number | null) =>
    ratio === null ? '' : `p99 ${grouped(ratio, ratio < 0.1 ? 3 : 2)}×`;
  const cells = (cell: (c: ServerSummary) => string) =>
    byKind((kind) => {
      const summary = servers[kind];
      return summary ? cell(summary) : '—';
    });
  const target = {
    ticks: `lag p99 ≤${LIMITS.lagP99Ms} ms, timer p99 ≤${LIMITS.fidelityP99Ms} ms, ≤${LIMITS.rssPerStreamKB} KB/stream`,
    chunks:
      `lag p99 ≤${LIMITS.lagP99Ms} ms (or ≤ express), ≤ express+${LIMITS.rssOverExpressKB} KB/stream, ` +
      `1st event p99 ≤${LIMITS.firstEventP99OverExpress}× express`,
    againstExpress: 'all streams held, lag p99 ≤ express',
    none: '(for information)',
  }[workload.targets];
  const chunks = workload.scenario === 'bench-chunks';
  const detail = (label: string, cell: (c: ServerSummary) => string) => ({
    label,
    target: '',
    servers: cells(cell),
  });
  return [
    {
      label: `${workload.name} lag p50/p99`,
      target,
      servers: cells((c) => `${grouped(c.lagP50Ms, 1)}/${grouped(c.lagP99Ms, 1)} ms`),
      simOverSdk: ratioCell(ratios.lagP99SimOverSdk),
      simOverExpress: ratioCell(ratios.lagP99SimOverExpress),
      simOverNode: ratioCell(ratios.lagP99SimOverNode),
      met,
    },
    // Chunks are artifact updates, which carry no timestamp: no wire lag or timer figures to show.
    ...(chunks
      ? []
      : [
          detail(
            '  wire lag p99, timer p50/p99',
            (c) =>
              `${grouped(c.wireLagP99Ms, 1)}; ${grouped(c.fidelityP50Ms, 1)}/${grouped(c.fidelityP99Ms, 1)} ms`,
          ),
        ]),
    detail(
      '  RSS/stream, server CPU',
      (c) => `${grouped(c.rssPerStreamKB, 1)} KB, ${grouped((c.serverCpu ?? Number.NaN) * 100)}%`,
    ),
    detail(
      `  ${chunks ? 'chunks' : 'ticks'} recv/sched`,
      (c) => `${grouped(c.ticksReceived)}/${grouped(c.ticksScheduled)}`,
    ),
    detail('  streams opened, failed', (c) => `${grouped(c.openedStreams)}, ${grouped(c.failedStreams)}`),
    {
      ...detail(
        '  1st event p50/p99',
        (c) => `${grouped(c.firstEventP50Ms)}/${grouped(c.firstEventP99Ms)} ms`,
      ),
      simOverExpress: ratioCell(ratios.firstEventP99SimOverExpress),
    },
  ];
}

/**
 * --quick plays each SSE workload with at most this many streams: it checks the script, beside the
 * rest of the test suite, niced, where a server with a tenth of a core's share could not keep up
 * with 100 streams' ticks (none arrived within the grace period) or open 1,000 before the scenario
 * ended.
 */
const QUICK_STREAMS = 20;

export const sseFamily: WorkloadFamily<SseWorkload, Partial<Record<ServerKind, SseRun[]>>, SseSummary> = {
  workloads: (options) => {
    const played = (streams: number) => (options.settings.quick ? Math.min(streams, QUICK_STREAMS) : streams);
    const ticks = (streams: number, targets: SseWorkload['targets']): SseWorkload => ({
      kind: 'sse',
      scenario: 'bench-ticks',
      name: `sse-${streams}`,
      description: `${played(streams)} concurrent REST message:stream streams, one status update every 100 ms each`,
      streams: played(streams),
      targets,
    });
    const chunks = (streams: number, targets: SseWorkload['targets']): SseWorkload => ({
      kind: 'sse',
      scenario: 'bench-chunks',
      name: `sse-chunks-${streams}`,
      description:
        `${played(streams)} concurrent REST message:stream streams, each one artifact in 100 chunks of a ` +
        'fake sentence, one every 100 ms',
      streams: played(streams),
      targets,
    });
    return [
      ticks(100, 'none'),
      ticks(1000, 'ticks'),
      chunks(1000, 'chunks'),
      ...(options.sse5000 ? [ticks(5000, 'againstExpress'), chunks(5000, 'againstExpress')] : []),
    ];
  },
  run: (workload, bench) =>
    playRounds(
      bench,
      workload.name,
      sseKinds(bench.settings),
      bench.settings.rounds,
      (kind, round) => sseRun(workload, kind, round, bench),
      describe,
    ),
  summarise,
  judge,
  rows,
};
