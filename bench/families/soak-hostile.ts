/**
 * The hostile soak (`npm run bench -- --soak-hostile`): a virtual hour of hostile traffic
 * (bench/soak-hostile.ts: 256 KiB JSON-RPC ids, 10–14 KiB headers, bodies at --max-body-bytes, floods
 * from a hostile agent behind --proxy, feed watchers that never read) against a simulator started with
 * small budgets, ordinary traffic beside it, all on the virtual clock of bench/soak-process.ts. Each
 * sample reads RSS and heap after gc() and `/_sim/health`'s `memory`; the figures are the slopes after
 * warm-up, the largest value each budget showed, and the largest RSS against the bound the budgets
 * lead to expect ({@link expectedBound}). No target: read, not judged; ordinary calls must all succeed,
 * and hostile ones be answered as docs/limits.md says (the smoke test checks both).
 */
import type { HealthMemory, SoakResult, SoakSample } from '../soak-process.js';
import type { SoakActionCount } from '../soak-traffic.js';
import type { Bench, Workload, WorkloadFamily } from '../lib/family.js';
import { grouped } from '../lib/format.js';
import type { HostileSoakSettings } from '../lib/options.js';
import { resultOf, SERVER_CORE, spawnJob, stopChild } from '../lib/procs.js';
import { round, slope, slopeError } from '../lib/stats.js';

export interface HostileSoakWorkload extends Workload {
  kind: 'soak-hostile';
  name: 'soak-hostile';
}

const SOAK_HOSTILE: HostileSoakWorkload = {
  kind: 'soak-hostile',
  name: 'soak-hostile',
  description:
    'a virtual hour of hostile traffic (big ids, headers and bodies, proxied floods, feed watchers ' +
    'that never read) against small budgets, ordinary traffic beside it',
};

const MB = 2 ** 20;

/** The largest value each part of `memory` showed over the samples. */
interface MemoryMax {
  storeBytes: number;
  storeTasks: number;
  journalBytes: number;
  journalEntries: number;
  verdictBytes: number;
  verdictClients: number;
  verdictCalls: number;
  eventsKept: number;
  rssMB: number;
}

export interface HostileSoakSummary {
  kind: HostileSoakWorkload['kind'];
  description: string;
  settings: HostileSoakSettings;
  wallSec: number | null;
  ordinary: {
    actions: Record<string, SoakActionCount>;
    errors: number;
    errorSamples: string[];
    retried: number;
  };
  hostile: NonNullable<SoakResult['hostile']> & {
    errorCount: number;
    /** The most connections to the agent held at a sample after warm-up, and at the end. */
    agentConnections: { max: number; end: number };
  };
  /** After gc(): before any traffic, at the end of warm-up, the largest after it, at the end. */
  rssMB: { start: number | null; afterWarmup: number | null; max: number | null; end: number | null };
  heapUsedMB: { start: number | null; afterWarmup: number | null; max: number | null; end: number | null };
  /** Least-squares slopes after warm-up, each with its standard error. */
  slope: {
    samples: number;
    rssMBPerHour: number | null;
    rssError: number | null;
    heapMBPerHour: number | null;
    heapError: number | null;
  };
  memory: {
    max: MemoryMax;
    budgets: { store: number; journal: number; verdicts: number };
    withinBudgets: boolean;
  };
  bound: {
    rssMB: number | null;
    parts: Record<string, number>;
    withWatcherPins: number | null;
    met: boolean;
  };
  samples: SoakSample[];
}

/**
 * What the budgets lead to expect of RSS, in MB: the process before any traffic; twice what the byte
 * budgets let the simulator keep (V8 grows its heap ahead of what is live, about twice); what
 * docs/limits.md bounds by a count rather than in bytes (the event history keeps the headers of the
 * last 1,000 requests and the verdicts up to 1,000 client names, each at most Node's 16 KiB of
 * headers; a watcher is closed with up to 1 MiB waiting and 1 MiB queued); and the requests in flight,
 * each holding a few copies of what it carries (a 4 MiB message: the client's, the server's read and
 * parse, the task, the answer; or the 8 MiB the proxy may read of the agent).
 *
 * `withWatcherPins` adds what docs/limits.md does not say: a watcher that does not read holds on to
 * the history it was sent when it connected until it is dropped, and with it the content of tasks
 * the store has evicted since: up to a store's budget of them, the headers of 1,000 requests, and
 * 1,000 small events.
 */
function expectedBound(settings: HostileSoakSettings, start: number, maxInFlight: number) {
  const { budgets, watchers } = settings.hostile;
  const parts = {
    start,
    budgets: (2 * (budgets.maxStoreBytes + budgets.journalBytes + budgets.verdictBytes)) / MB,
    eventHistoryHeaders: 16,
    verdictClientNames: 16,
    watcherQueues: watchers * 2,
    inFlight: maxInFlight * 5 * Math.max(budgets.maxBodyBytes / MB, 8 / 5),
  };
  const rssMB = Object.values(parts).reduce((a, b) => a + b, 0);
  const watcherPins = watchers * (budgets.maxStoreBytes / MB + 16 + 4);
  return {
    rssMB: round(rssMB, 1),
    parts: Object.fromEntries(Object.entries(parts).map(([name, mb]) => [name, round(mb, 1) ?? mb])),
    withWatcherPins: round(rssMB + watcherPins, 1),
  };
}

async function soakRun(bench: Bench): Promise<SoakResult> {
  const settings = bench.settings.soakHostile;
  const { warmupHours, ...job } = settings;
  const child = spawnJob('bench/soak-process.ts', job, {
    core: SERVER_CORE,
    pin: bench.pin,
    nodeFlags: ['--expose-gc'],
  });
  // A line every five virtual minutes; a quick run, which lasts four, every minute.
  const linesPerHour = settings.virtualHours <= 0.25 ? 60 : 12;
  let lastLine = -1;
  const result = await resultOf<SoakResult, { phase: string; sample?: SoakSample }>(
    child,
    'hostile soak process',
    ({ sample: s }) => {
      const line = s && Math.floor(s.hour * linesPerHour + 1e-9);
      if (s?.memory && line! > lastLine) {
        lastLine = line!;
        bench.log(`  soak-hostile: minute ${grouped(s.hour * 60)}, ${describeSample(s, s.memory)}`);
      }
    },
  );
  await stopChild(child);
  return result;
}

function describeSample(s: SoakSample, m: HealthMemory): string {
  const mb = (bytes: number, digits = 1) => `${grouped(bytes / MB, digits)} MB`;
  return (
    `RSS ${grouped(s.rssMB, 1)} MB, heap ${grouped(s.heapUsedMB, 1)} MB; ` +
    `store ${mb(m.store.bytes)} (${grouped(m.store.tasks)} tasks), ` +
    `journal ${mb(m.journal.bytes)} (${grouped(m.journal.entries)}), ` +
    `verdicts ${mb(m.verdicts.bytes, 2)} (${grouped(m.verdicts.clients)} clients), ${grouped(s.wallSec, 1)} s`
  );
}

function memoryMax(samples: SoakSample[]): MemoryMax {
  const max = (read: (m: HealthMemory) => number) =>
    Math.max(...samples.filter((s) => s.memory).map((s) => read(s.memory!)));
  return {
    storeBytes: max((m) => m.store.bytes),
    storeTasks: max((m) => m.store.tasks),
    journalBytes: max((m) => m.journal.bytes),
    journalEntries: max((m) => m.journal.entries),
    verdictBytes: max((m) => m.verdicts.bytes),
    verdictClients: max((m) => m.verdicts.clients),
    verdictCalls: max((m) => m.verdicts.calls),
    eventsKept: max((m) => m.events.kept),
    rssMB: round(max((m) => m.rssBytes) / MB, 1)!,
  };
}

function summarise(workload: HostileSoakWorkload, result: SoakResult, bench: Bench): HostileSoakSummary {
  const settings = bench.settings.soakHostile;
  const { budgets } = settings.hostile;
  const samples = result.samples;
  const [first] = samples;
  const last = samples[samples.length - 1];
  const settled = samples.filter((s) => s.hour >= settings.warmupHours - 1e-9);
  const hours = settled.map((s) => s.hour);
  const rss = settled.map((s) => s.rssMB);
  const heap = settled.map((s) => s.heapUsedMB);
  const hostile = result.hostile!;
  const max = memoryMax(samples);
  const bound = expectedBound(settings, first?.rssMB ?? Number.NaN, hostile.maxInFlight);
  const rssMax = round(Math.max(...rss), 1);
  const sum = (counts: Record<string, { errors: number }>) =>
    Object.values(counts).reduce((total, a) => total + a.errors, 0);
  const summary: HostileSoakSummary = {
    kind: workload.kind,
    description: workload.description,
    settings,
    wallSec: round(result.wallSec, 1),
    ordinary: {
      actions: result.actions,
      errors: sum(result.actions),
      errorSamples: result.errors,
      retried: result.retried,
    },
    hostile: {
      ...hostile,
      errorCount: sum(hostile.actions),
      agentConnections: {
        max: Math.max(...settled.map((s) => s.agentConnections ?? 0)),
        end: last?.agentConnections ?? 0,
      },
    },
    rssMB: {
      start: round(first?.rssMB ?? Number.NaN, 1),
      afterWarmup: round(settled[0]?.rssMB ?? Number.NaN, 1),
      max: rssMax,
      end: round(last?.rssMB ?? Number.NaN, 1),
    },
    heapUsedMB: {
      start: round(first?.heapUsedMB ?? Number.NaN, 1),
      afterWarmup: round(settled[0]?.heapUsedMB ?? Number.NaN, 1),
      max: round(Math.max(...heap), 1),
      end: round(last?.heapUsedMB ?? Number.NaN, 1),
    },
    slope: {
      samples: settled.length,
      rssMBPerHour: round(slope(hours, rss), 2),
      rssError: round(slopeError(hours, rss), 2),
      heapMBPerHour: round(slope(hours, heap), 2),
      heapError: round(slopeError(hours, heap), 2),
    },
    memory: {
      max,
      budgets: {
        store: budgets.maxStoreBytes,
        journal: budgets.journalBytes,
        verdicts: budgets.verdictBytes,
      },
      // The store lets a failed relay's last status in past its budget: a few hundred bytes.
      withinBudgets:
        max.storeBytes <= budgets.maxStoreBytes + 4096 &&
        max.journalBytes <= budgets.journalBytes &&
        max.verdictBytes <= budgets.verdictBytes,
    },
    bound: { ...bound, met: rssMax !== null && bound.rssMB !== null && rssMax <= bound.rssMB },
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
  const { rssMB: r, slope: sl } = summary;
  bench.log(
    `  soak-hostile: ${grouped(settings.virtualHours * 60)} virtual minutes in ${grouped(result.wallSec)} s; ` +
      `ordinary errors ${summary.ordinary.errors}, hostile errors ${summary.hostile.errorCount}; ` +
      `RSS ${grouped(r.start, 1)} → ${grouped(r.afterWarmup, 1)} after warm-up, max ${grouped(r.max, 1)}, ` +
      `end ${grouped(r.end, 1)} MB (expected at most ${grouped(bound.rssMB, 1)}); slope after warm-up ` +
      `(${sl.samples} samples) RSS ${sl.rssMBPerHour ?? '—'} ± ${sl.rssError ?? '—'} MB/h, ` +
      `heap ${sl.heapMBPerHour ?? '—'} ± ${sl.heapError ?? '—'} MB/h`,
  );
  for (const error of [...result.errors, ...hostile.errors]) bench.log(`    ${error}`);
  return summary;
}

export const soakHostileFamily: WorkloadFamily<HostileSoakWorkload, SoakResult, HostileSoakSummary> = {
  workloads: () => [SOAK_HOSTILE],
  onRequest: true,
  run: (_workload, bench) => soakRun(bench),
  summarise,
  judge: () => [],
  rows: (workload, soak, met) => [
    {
      label: workload.name,
      target: 'RSS flat, within the budgets',
      servers: {
        simulator:
          `RSS ${grouped(soak.rssMB.afterWarmup, 1)} → max ${grouped(soak.rssMB.max, 1)} MB ` +
          `(expected ≤ ${grouped(soak.bound.rssMB, 1)}), slope ${grouped(soak.slope.rssMBPerHour, 1)} ± ` +
          `${grouped(soak.slope.rssError, 1)} MB/h (heap ${grouped(soak.slope.heapMBPerHour, 1)} ± ` +
          `${grouped(soak.slope.heapError, 1)}); errors ${soak.ordinary.errors} ordinary, ` +
          `${soak.hostile.errorCount} hostile`,
        sdk: '—',
        express: '—',
        node: '—',
      },
      met,
    },
  ],
};
