/**
 * One run of an SSE workload on one server: a fresh server at --speed 1 under `node --trace-gc`, a
 * warm-up stream of the workload's scenario, then bench/sse-client.ts on the load core. During the
 * client's steady window this side samples the server's RSS, CPU time and garbage collections: they
 * explain its lag.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SseJob, SseResult, SseScenario } from '../sse-client.js';
import type { Bench } from '../lib/family.js';
import {
  cpuMs,
  listenOverflows,
  LOAD_CORE,
  resultOf,
  rssBytes,
  spawnJob,
  startServer,
  stopChild,
  type ServerKind,
} from '../lib/procs.js';
import { warmStream } from '../lib/requests.js';
import { round } from '../lib/stats.js';

export interface SseRun extends SseResult {
  rssBaselineBytes: number | null;
  rssPeakBytes: number | null;
  rssPerStreamBytes: number | null;
  serverCpu: number | null;
  /** Connections the kernel dropped (listen queue full) while the streams were opening. */
  listenOverflowsDuringRamp: number | null;
  /** The collections of the server's main heap from the window's start to the end of the grace period. */
  serverGc: {
    collections: number;
    totalPauseMs: number | null;
    maxPauseMs: number | null;
    major: number;
    maxMajorMarkingMs: number | null;
  };
}

/** What `node --trace-gc` said about one collection. */
interface GcLine {
  /** The heap's isolate (`[pid:0x…]`): the main thread's, or a worker's such as tsx's loader. */
  isolate: string;
  major: boolean;
  pauseMs: number;
  /** Major GCs: from the start of (incremental, concurrent) marking to the end, ms. */
  markingMs: number;
}

function parseGcLine(line: string): GcLine | undefined {
  const kind = /ms: (Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)/.exec(line)?.[1];
  const pause = /MB, ([\d.]+) \/ [\d.]+ ms/.exec(line)?.[1];
  if (!kind || pause === undefined) return undefined;
  const marking = /walltime since start of marking (\d+) ms/.exec(line)?.[1];
  return {
    isolate: /^\[\d+:(0x[\da-f]+)\]/.exec(line)?.[1] ?? '',
    major: kind.startsWith('Mark'),
    pauseMs: Number(pause),
    markingMs: Number(marking ?? 0),
  };
}

/**
 * The collections of the heap the streams live in: the isolate with the most of them. A comparator
 * run through tsx has a second heap, its loader thread's, whose few collections (majors that
 * shrink an idle heap) pause nothing the streams do.
 */
function mainHeapOnly(gcs: GcLine[]): GcLine[] {
  const counts = new Map<string, number>();
  for (const gc of gcs) counts.set(gc.isolate, (counts.get(gc.isolate) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return gcs.filter((gc) => gc.isolate === main);
}

/** How each scenario numbers its ticks (status updates, chunks) in its file. */
const TICK_TEXT: Record<SseScenario, RegExp> = {
  'bench-ticks': /['"]tick (\d+)['"]/g,
  'bench-chunks': /['"]chunk (\d+): /g,
};
const TICK_MS = 100;
/**
 * The window ends this long before a stream opened at the ramp's start has its last tick scheduled
 * (settle 1 s, ramp up to 2 s): bench-chunks lasts 10 s, and a window past its end would count
 * ticks of fewer and fewer streams. bench-ticks (15 s) keeps its window of up to 8 s.
 */
const WINDOW_MARGIN_MS = 3_000;

/** How many ticks the scenario `scenario` in `dir` has. */
export function ticksIn(dir: string, scenario: SseScenario): number {
  const file = `${dir}/${scenario}.yaml`;
  if (!existsSync(file)) throw new Error(`--sse-scenarios ${dir} has no ${scenario}.yaml`);
  const text = readFileSync(file, 'utf8');
  return Math.max(0, ...[...text.matchAll(TICK_TEXT[scenario])].map((m) => Number(m[1])));
}

export async function sseRun(
  { streams, scenario }: { streams: number; scenario: SseScenario },
  kind: ServerKind,
  roundIndex: number,
  bench: Bench,
): Promise<SseRun> {
  const { settings, pin } = bench;
  // --trace-gc: the server's collections during the window explain its lag tail.
  let inWindow = false;
  const gcs: GcLine[] = [];
  const ticks = ticksIn(settings.sseScenarios, scenario);
  const server = await startServer(kind, {
    pin,
    speed: 1,
    scenarioDir: settings.sseScenarios,
    // 5,000 streams of 100-150 events hold some 300 MB of task data by the store's estimate, more
    // than the default budget (sized for a 512 MB container) admits: past it, new streams get 429.
    maxStoreBytes: '1GiB',
    nodeFlags: bench.simulatorFlags,
    traceGc: true,
    ...(scenario === 'bench-ticks' ? { ticks } : { chunks: ticks }),
    onLine: (line) => {
      const gc = inWindow ? parseGcLine(line) : undefined;
      if (gc) gcs.push(gc);
    },
  });
  try {
    await warmStream(server.url, scenario, 3);
    await sleep(settings.idleSettleMs);
    const baseline = rssBytes(server.pid);
    const overflowsBefore = listenOverflows();
    const job: SseJob = {
      url: server.url,
      streams,
      windowMs: Math.max(1_000, Math.min(settings.sseWindowMs, ticks * TICK_MS - WINDOW_MARGIN_MS)),
      settleMs: settings.sseSettleMs,
      graceMs: settings.sseGraceMs,
      rampTimeoutMs: settings.sseRampTimeoutMs,
      runId: `r${roundIndex}`,
      scenario,
      ticks,
    };
    const client = spawnJob('bench/sse-client.ts', job, { core: LOAD_CORE, pin });
    const samples: number[] = [];
    let sampler: NodeJS.Timeout | undefined;
    let cpuBefore: number | undefined;
    let overflowsAtSteady: number | undefined;
    let windowStarted = 0;
    const result = await resultOf<SseResult>(client, 'SSE client', ({ phase }) => {
      if (phase !== 'steady') return;
      inWindow = true;
      overflowsAtSteady = listenOverflows();
      cpuBefore = cpuMs(server.pid);
      windowStarted = performance.now();
      sampler = setInterval(() => {
        const rss = rssBytes(server.pid);
        if (rss !== undefined) samples.push(rss);
      }, 100);
    });
    inWindow = false;
    clearInterval(sampler);
    const cpuAfter = cpuMs(server.pid);
    const windowMs = performance.now() - windowStarted;
    await stopChild(client);
    const peak = samples.length ? Math.max(...samples) : undefined;
    const heap = mainHeapOnly(gcs);
    const majors = heap.filter((g) => g.major);
    return {
      ...result,
      rssBaselineBytes: baseline ?? null,
      rssPeakBytes: peak ?? null,
      rssPerStreamBytes: baseline !== undefined && peak !== undefined ? (peak - baseline) / streams : null,
      serverCpu: cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / windowMs : null,
      listenOverflowsDuringRamp:
        overflowsBefore !== undefined && overflowsAtSteady !== undefined
          ? overflowsAtSteady - overflowsBefore
          : null,
      serverGc: {
        collections: heap.length,
        totalPauseMs: round(
          heap.reduce((sum, g) => sum + g.pauseMs, 0),
          1,
        ),
        maxPauseMs: round(Math.max(0, ...heap.map((g) => g.pauseMs)), 1),
        major: majors.length,
        maxMajorMarkingMs: round(Math.max(0, ...majors.map((g) => g.markingMs)), 0),
      },
    };
  } finally {
    await server.stop();
  }
}
