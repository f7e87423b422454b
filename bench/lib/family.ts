/**
 * A workload family: the workloads measured one way (HTTP sends under autocannon, SSE streams, …)
 * and everything the bench knows of them, behind one interface. run.ts {@link plan}s every
 * family's workloads, picks some and measures each; the family's targets live with it.
 */
import type { BenchOptions, Settings } from './options.js';
import type { TableRow } from './table.js';
import { verdict, type Target } from './targets.js';

export interface Workload {
  /** Its family, as the report names it. */
  kind: string;
  name: string;
  description: string;
}

/** What every run is given. */
export interface Bench {
  settings: Settings;
  /** Servers on the server core and load on the load core (taskset), or nothing pinned. */
  pin: boolean;
  /** Node flags for every simulator process (--cpu-prof); the comparators ignore them. */
  simulatorFlags: string[];
  /** A progress line on stderr; stdout is for the table and the JSON. */
  log(line: string): void;
}

/**
 * @example
 * const runs = await family.run(workload, bench); // every server, every round
 * const result = family.summarise(workload, runs, bench); // the report's record
 * const targets = family.judge(workload, result, bench);
 * const rows = family.rows(workload, result, verdict(targets));
 */
export interface WorkloadFamily<W extends Workload, Runs, Result> {
  /** Its workloads under these options, in table order. */
  workloads(options: BenchOptions): W[];
  /** Left out of the default set: runs when --only names it or its own flag asks for it. */
  onRequest?: boolean;
  /** Plays `workload` on each server it compares, round by round, logging every run. */
  run(workload: W, bench: Bench): Promise<Runs>;
  /** The workload's record in the report: medians over the rounds, and the rounds. */
  summarise(workload: W, runs: Runs, bench: Bench): Result;
  /** Its targets, judged on that record; none for a workload shown for information. */
  judge(workload: W, result: Result, bench: Bench): Target[];
  /** Its rows in the table; `met` is the verdict on its targets. */
  rows(workload: W, result: Result, met: string): TableRow[];
  /** Stops what it kept running from one workload to the next. */
  close?(): Promise<void>;
}

/** What one workload gave: its record, its targets judged, its rows in the table. */
export interface Measured {
  name: string;
  /** The workload's record in the report. */
  result: unknown;
  targets: Target[];
  rows: TableRow[];
}

/** A workload bound to its family: what run.ts picks from and measures. */
export interface PlannedWorkload {
  name: string;
  family: Pick<WorkloadFamily<Workload, unknown, unknown>, 'onRequest' | 'close'>;
  measure(bench: Bench): Promise<Measured>;
}

export function plan<W extends Workload, Runs, Result>(
  family: WorkloadFamily<W, Runs, Result>,
  options: BenchOptions,
): PlannedWorkload[] {
  return family.workloads(options).map((workload) => ({
    name: workload.name,
    family,
    async measure(bench) {
      const runs = await family.run(workload, bench);
      const result = family.summarise(workload, runs, bench);
      const targets = family.judge(workload, result, bench);
      return { name: workload.name, result, targets, rows: family.rows(workload, result, verdict(targets)) };
    },
  }));
}

/**
 * Plays `play` on every server of `kinds`, `rounds` times, the servers interleaved and every other
 * round in reverse (simulator, express, sdk, node, node, sdk, express, simulator, …) so that drift
 * on the machine hits all alike, whichever way it goes; logs each run as
 * `  <workload> <kind>: <describe(run)>`. The runs by server, only those of `kinds`.
 */
export async function playRounds<K extends string, R>(
  bench: Bench,
  workload: string,
  kinds: readonly K[],
  rounds: number,
  play: (kind: K, round: number) => Promise<R>,
  describe: (run: R) => string,
): Promise<Partial<Record<K, R[]>>> {
  const runs: Partial<Record<K, R[]>> = {};
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
      const run = await play(kind, round);
      (runs[kind] ??= []).push(run);
      bench.log(`  ${workload} ${kind}: ${describe(run)}`);
    }
  }
  return runs;
}
