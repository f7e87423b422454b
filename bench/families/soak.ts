/**
 * The soak (`npm run bench -- --soak`): a virtual day of mixed traffic through the simulator's
 * retention limits, with RSS and heap sampled after gc(); the figure is their slope after warm-up,
 * per virtual hour and per 10,000 tasks, which is flat when nothing outlives what retention evicts.
 * bench/soak-process.ts does the work; this side starts it, logs its samples as they come and sums
 * them up. No target: the slope is read, not judged, and the soak runs only when asked for.
 */
import type { SoakResult, SoakSample } from '../soak-process.js';
import type { SoakActionCount } from '../soak-traffic.js';
import type { Bench, Workload, WorkloadFamily } from '../lib/family.js';
import { grouped } from '../lib/format.js';
import type { SoakSettings } from '../lib/options.js';
import { resultOf, SERVER_CORE, spawnJob, stopChild } from '../lib/procs.js';
import { round, slope } from '../lib/stats.js';

export interface SoakWorkload extends Workload {
  kind: 'soak';
  name: 'soak';
}

const SOAK: SoakWorkload = {
  kind: 'soak',
  name: 'soak',
  description:
    'a virtual day of mixed traffic (REST, JSON-RPC, SSE, GetTask, ListTasks) through the retention limits',
};

export interface SoakSummary {
  kind: SoakWorkload['kind'];
  description: string;
  settings: SoakSettings;
  wallSec: number | null;
  virtualHours: number;
  tasksCreated: number;
  /** Per kind of action: started, answered as expected, GetTask of an evicted task, errors. */
  actions: Record<string, SoakActionCount>;
  errors: number;
  errorSamples: string[];
  /** Requests sent again after a reset on a reused idle connection (bench/soak-traffic.ts). */
  retried: number;
  evictions: { ttl: number; cap: number; firstTtlHour: number | null; firstCapHour: number | null };
  storeSize: { max: number; end: number };
  /** After gc(): at the end of warm-up, at the end of the day, the largest after warm-up. */
  rssMB: { afterWarmup: number | null; end: number | null; max: number | null };
  heapUsedMB: { afterWarmup: number | null; end: number | null; max: number | null };
  /** Least-squares slopes over the samples after warm-up. */
  slope: {
    samples: number;
    rssMBPerHour: number | null;
    rssMBPer10kTasks: number | null;
    heapMBPerHour: number | null;
    heapMBPer10kTasks: number | null;
  };
  samples: SoakSample[];
}

/** Starts the soak process and logs its samples as they come; resolves to its samples and counts. */
async function soakRun(bench: Bench): Promise<SoakResult> {
  const settings = bench.settings.soak;
  // The warm-up is this side's to leave out of the slope; the process gets the rest.
  const { warmupHours, ...job } = settings;
  const child = spawnJob('bench/soak-process.ts', job, {
    core: SERVER_CORE,
    pin: bench.pin,
    nodeFlags: ['--expose-gc'],
  });
  // One line per virtual hour; a quick run, which lasts one, every ten minutes.
  const linesPerHour = settings.virtualHours <= 1 ? 6 : 1;
  let lastLine = -1;
  const result = await resultOf<SoakResult, { phase: string; sample?: SoakSample }>(
    child,
    'soak process',
    ({ sample: s }) => {
      if (s && Math.floor(s.hour * linesPerHour + 1e-9) > lastLine) {
        lastLine = Math.floor(s.hour * linesPerHour + 1e-9);
        bench.log(
          `  soak: hour ${grouped(s.hour, 2)}, ${grouped(s.tasksCreated)} tasks (store ${grouped(s.storeSize)}; evicted ` +
            `${grouped(s.evictedTtl)} by TTL, ${grouped(s.evictedCap)} by the cap), RSS ${grouped(s.rssMB, 1)} MB, ` +
            `heap ${grouped(s.heapUsedMB, 1)} MB, ${grouped(s.wallSec, 1)} s`,
        );
      }
    },
  );
  await stopChild(child);
  return result;
}

/** Sums the samples up after warm-up, and logs the slopes: the figures the soak is run for. */
function summarise(workload: SoakWorkload, result: SoakResult, bench: Bench): SoakSummary {
  const settings = bench.settings.soak;
  const { warmupHours } = settings;
  const samples = result.samples;
  const last = samples[samples.length - 1];
  const settled = samples.filter((s) => s.hour >= warmupHours - 1e-9);
  const first = settled[0];
  const hours = settled.map((s) => s.hour);
  const tenK = settled.map((s) => s.tasksCreated / 10_000);
  const rss = settled.map((s) => s.rssMB);
  const heap = settled.map((s) => s.heapUsedMB);
  const errors = Object.values(result.actions).reduce((sum, a) => sum + a.errors, 0);
  const summary: SoakSummary = {
    kind: workload.kind,
    description: workload.description,
    settings,
    wallSec: round(result.wallSec, 1),
    virtualHours: settings.virtualHours,
    tasksCreated: last?.tasksCreated ?? 0,
    actions: result.actions,
    errors,
    errorSamples: result.errors,
    retried: result.retried,
    evictions: {
      ttl: last?.evictedTtl ?? 0,
      cap: last?.evictedCap ?? 0,
      firstTtlHour: round(result.firstEvictionHour.ttl ?? Number.NaN, 2),
      firstCapHour: round(result.firstEvictionHour.cap ?? Number.NaN, 2),
    },
    storeSize: { max: result.maxStoreSize, end: last?.storeSize ?? 0 },
    rssMB: {
      afterWarmup: round(first?.rssMB ?? Number.NaN, 1),
      end: round(last?.rssMB ?? Number.NaN, 1),
      max: round(Math.max(...rss), 1),
    },
    heapUsedMB: {
      afterWarmup: round(first?.heapUsedMB ?? Number.NaN, 1),
      end: round(last?.heapUsedMB ?? Number.NaN, 1),
      max: round(Math.max(...heap), 1),
    },
    slope: {
      samples: settled.length,
      rssMBPerHour: round(slope(hours, rss), 3),
      rssMBPer10kTasks: round(slope(tenK, rss), 3),
      heapMBPerHour: round(slope(hours, heap), 3),
      heapMBPer10kTasks: round(slope(tenK, heap), 3),
    },
    samples: samples.map((s) => ({
      ...s,
      hour: round(s.hour, 3)!,
      wallSec: round(s.wallSec, 1)!,
      rssMB: round(s.rssMB, 2)!,
      heapUsedMB: round(s.heapUsedMB, 2)!,
      heapTotalMB: round(s.heapTotalMB, 2)!,
      externalMB: round(s.externalMB, 2)!,
    })),
  };
  const sl = summary.slope;
  bench.log(
    `  soak: ${settings.virtualHours} virtual hour(s) in ${grouped(result.wallSec)} s, ${grouped(summary.tasksCreated)} tasks, ` +
      `${errors} errors; after warm-up (${sl.samples} samples from hour ${grouped(warmupHours, 2)}): RSS ` +
      `${sl.rssMBPerHour ?? '—'} MB/h, ${sl.rssMBPer10kTasks ?? '—'} MB per 10k tasks; heap ` +
      `${sl.heapMBPerHour ?? '—'} MB/h, ${sl.heapMBPer10kTasks ?? '—'} MB per 10k tasks`,
  );
  for (const error of result.errors) bench.log(`    ${error}`);
  return summary;
}

export const soakFamily: WorkloadFamily<SoakWorkload, SoakResult, SoakSummary> = {
  workloads: () => [SOAK],
  onRequest: true,
  run: (_workload, bench) => soakRun(bench),
  summarise,
  judge: () => [],
  rows: (workload, soak, met) => [
    {
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
        node: '—',
      },
      met,
    },
  ],
};
