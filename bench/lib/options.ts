/**
 * The bench's command line: its flags, --help, and the settings a run is made with. Every default is
 * written here once; the report repeats the settings as they were under `settings`.
 */
import { parseArgs } from 'node:util';
import type { HostileJob, SoakJob } from '../soak-process.js';

export const HELP = [
  'npm run bench -- [options]',
  '  --quick           every workload briefly, one round, 200 requests a run, at most 20 streams (what',
  '                    the smoke test runs): checks the script',
  '  --duration S      seconds per measured run (default 5)',
  '  --warmup S        seconds of load before each measured HTTP run, discarded (default 3; --quick 0)',
  '  --rounds N        rounds per workload, servers interleaved (default 3; --quick 1)',
  '  --only NAME,...   workloads by name, or by prefix where no workload has that name: startup, rest-send-c1,',
  '                    rest-send, jsonrpc, rest-get, round-trip, sse, sse-1000,',
  '                    sse-chunks, sse-append, sse-status, soak, ...',
  '  --sse-5000        also 5000 concurrent streams (sse-5000 of bench-ticks, sse-chunks-5000 of bench-chunks)',
  '  --soak            a virtual day of mixed traffic, RSS sampled after gc() (~1 min; --quick: a virtual hour);',
  '                    alone it runs only the soak, with --only it adds it to those workloads',
  '  --soak-hostile    hostile traffic against small budgets, ordinary traffic beside it, RSS and /_sim/health',
  '                    memory sampled after gc(): 20 virtual minutes of warm-up, then an hour (~2 min; --quick:',
  '                    4 virtual minutes); alone or with --soak it runs only the soaks, with --only it adds to them',
  '  --soak-hostile-hours H',
  '                    virtual hours of the hostile soak after its warm-up (default 1)',
  '  --sse-scenarios D a directory with another bench-ticks.yaml and bench-chunks.yaml (same form, any number of',
  '                    ticks or chunks)',
  '  --cost-streams N  concurrent streams of sse-append and sse-status (default 50, the sdk one per 50; --quick 2)',
  '  --cpu-prof DIR    run every simulator under node --cpu-prof, profiles into DIR',
  '  --json FILE       write the JSON there instead of printing it',
  '',
].join('\n');

export interface SoakSettings extends SoakJob {
  /** Samples before this (virtual hours) are left out of the slope. */
  warmupHours: number;
}

/**
 * Retention is lowered from the defaults (10,000 tasks, terminal tasks kept 24 h) so that one day
 * meets both limits, every cycle: a busy phase makes more tasks in one TTL than `maxTasks` (the cap
 * evicts), the quiet phase after it lets the TTL empty the store again.
 */
function soakSettings(quick: boolean): SoakSettings {
  // ~0.75 tasks per action (the rest are reads): busy ≈ 1,800 tasks per virtual hour, quiet ≈ 360;
  // half that in a quick run, whose busy phase makes ~75 tasks in its TTL.
  return quick
    ? {
        virtualHours: 1,
        warmupHours: 10 / 60,
        phaseMinutes: 5,
        busyPerMinute: 20,
        quietPerMinute: 4,
        sampleEveryMinutes: 2,
        retention: { maxTasks: 50, terminalTtl: 5 * 60_000 },
      }
    : {
        virtualHours: 24,
        warmupHours: 4,
        phaseMinutes: 60,
        busyPerMinute: 40,
        quietPerMinute: 8,
        sampleEveryMinutes: 15,
        retention: { maxTasks: 1_000, terminalTtl: 60 * 60_000 },
      };
}

const MiB = 2 ** 20;

export interface HostileSoakSettings extends SoakJob {
  hostile: HostileJob;
  /** Samples before this (virtual hours) are left out of the slope. */
  warmupHours: number;
}

/**
 * The hostile soak: the budgets of docs/limits.md set small, so that the hostile mix fills each of
 * them within the warm-up and the hour after it runs against full budgets. --verdict-bytes is 1 MiB
 * because the calls kept there are counted at 320 bytes each: 4 MiB would take the hour to fill.
 * --journal-size is raised so that the journal's byte budget, not its count, is the one met. The
 * rest are the defaults (10,000 tasks, ended tasks kept 24 h): within an hour, bytes evict, not age.
 * Ordinary traffic runs steadily beside it, at the rate of the soak's quiet phase.
 */
function hostileSoakSettings(quick: boolean, hours: number | undefined): HostileSoakSettings {
  // Twenty minutes of warm-up, then the hour (or --soak-hostile-hours) the slope is read over.
  const warmupHours = (quick ? 1 : 20) / 60;
  return {
    virtualHours: warmupHours + (hours ?? (quick ? 3 / 60 : 1)),
    warmupHours,
    phaseMinutes: 60,
    busyPerMinute: 8,
    quietPerMinute: 8,
    sampleEveryMinutes: quick ? 1 : 0.5,
    retention: { maxTasks: 10_000, terminalTtl: 24 * 60 * 60_000 },
    hostile: {
      perMinute: 20,
      watchers: quick ? 2 : 4,
      budgets: {
        maxStoreBytes: 16 * MiB,
        journalBytes: 4 * MiB,
        journalSize: 10_000,
        verdictBytes: 1 * MiB,
        maxBodyBytes: 4 * MiB,
      },
    },
  };
}

/** The flags that settings are made from, as given. */
interface SettingFlags {
  quick: boolean;
  duration: string | undefined;
  warmup: string | undefined;
  rounds: string | undefined;
  sseScenarios: string | undefined;
  costStreams: string | undefined;
  soakHostileHours: string | undefined;
}

function settingsFor({
  quick,
  duration,
  warmup,
  rounds,
  sseScenarios,
  costStreams,
  soakHostileHours,
}: SettingFlags) {
  const durationSec = Number(duration ?? (quick ? 0.5 : 5));
  return {
    quick,
    durationSec,
    /**
     * A fresh server's rate settles only after ~2 s of load: its first second runs at a fifth of it
     * and its second at a third to a half while V8 optimises the code, on the same core
     * (BENCHMARKS.md, run O). A run measures the rate the server keeps, after 3 s.
     */
    warmupSec: Number(warmup ?? (quick ? 0 : 3)),
    /**
     * Three: the median of three drops one round that fell in one of this machine's slow spells,
     * where the median of two is its mean with the other (BENCHMARKS.md, run O).
     */
    rounds: Number(rounds ?? (quick ? 1 : 3)),
    startupRepeats: quick ? 1 : 5,
    /**
     * --quick: each measured HTTP run sends this many requests instead of lasting `durationSec`.
     * It checks the script, beside the rest of the test suite, niced: a half-second window once
     * ended before a starved server had answered anything.
     */
    requestsPerRun: quick ? 200 : undefined,
    /** A fresh server for every HTTP run, except with --quick (one per kind for all of them). */
    reuseServers: quick,
    idleSettleMs: quick ? 300 : 1000,
    /**
     * SSE: after every stream has had its first event, wait `sseSettleMs`, then count the ticks
     * scheduled in the next `sseWindowMs`, and wait `sseGraceMs` for late ones. The bench-ticks
     * scenario lasts 15 s, so ramp + settle + window must stay under that: the window is capped at 8 s
     * (bench-chunks lasts 10 s: bench/families/sse-run.ts caps its window at 7 s).
     */
    sseSettleMs: quick ? 300 : 1000,
    sseWindowMs: Math.min(durationSec, 8) * 1000,
    sseGraceMs: quick ? 2000 : 1000,
    /**
     * How long 1,000 streams may take to open. --quick runs beside the rest of the test suite on a
     * busy machine, where opening them once took more than 5 s (837 of 1,000 by then): 8 s, which
     * bench-chunks' 10 s still leaves room for with --quick's short settle, window and grace.
     */
    sseRampTimeoutMs: quick ? 8_000 : 5_000,
    sseScenarios: sseScenarios ?? 'bench/scenarios',
    /**
     * sse-append / sse-status: streams per run, and the servers' --speed (1: an event every 10 ms per
     * stream). --quick plays them twice as fast: its windows of 200 events then last 1 s. Beside the
     * rest of the test suite, niced, the client once read a whole window of 250 ms (at 8×) in one
     * go, which leaves no time to divide by: no figure.
     */
    costStreams: Number(costStreams ?? (quick ? 2 : 50)),
    costSpeed: quick ? 2 : 1,
    soak: soakSettings(quick),
    soakHostile: hostileSoakSettings(
      quick,
      soakHostileHours === undefined ? undefined : Number(soakHostileHours),
    ),
  };
}

export type Settings = ReturnType<typeof settingsFor>;

export interface BenchOptions {
  settings: Settings;
  /** --only, split at commas: workload names or prefixes; empty for the default set. */
  only: string[];
  sse5000: boolean;
  soak: boolean;
  soakHostile: boolean;
  cpuProfDir: string | undefined;
  jsonFile: string | undefined;
}

/** The options of `args` (as in process.argv.slice(2)), or 'help' for --help. */
export function parseOptions(args: string[]): BenchOptions | 'help' {
  const { values: flags } = parseArgs({
    args,
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string', multiple: true },
      'sse-5000': { type: 'boolean', default: false },
      soak: { type: 'boolean', default: false },
      'soak-hostile': { type: 'boolean', default: false },
      'soak-hostile-hours': { type: 'string' },
      'sse-scenarios': { type: 'string' },
      'cost-streams': { type: 'string' },
      'cpu-prof': { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (flags.help) return 'help';
  const settings = settingsFor({
    quick: flags.quick,
    duration: flags.duration,
    warmup: flags.warmup,
    rounds: flags.rounds,
    sseScenarios: flags['sse-scenarios'],
    costStreams: flags['cost-streams'],
    soakHostileHours: flags['soak-hostile-hours'],
  });
  const { soakHostile } = settings;
  if (
    !(settings.durationSec > 0) ||
    !(settings.warmupSec >= 0) ||
    !(settings.rounds >= 1) ||
    !(settings.costStreams >= 1) ||
    !(soakHostile.virtualHours > soakHostile.warmupHours)
  )
    throw new Error(
      '--duration, --rounds, --cost-streams and --soak-hostile-hours must be positive, --warmup not negative',
    );
  return {
    settings,
    only: (flags.only ?? [])
      .flatMap((o) => o.split(','))
      .map((o) => o.trim())
      .filter(Boolean),
    sse5000: flags['sse-5000'],
    soak: flags.soak,
    soakHostile: flags['soak-hostile'],
    cpuProfDir: flags['cpu-prof'],
    jsonFile: flags.json,
  };
}
