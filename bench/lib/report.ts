/** The JSON report of a run: what ran where, with which settings, every figure and every target. */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { LOAD_CORE, SERVER_CORE } from './procs.js';
import type { Settings } from './options.js';
import { round } from './stats.js';
import type { Target } from './targets.js';

export type Versions = ReturnType<typeof readVersions>;

/** The versions of what is compared, read from the installed packages (paths from the repository root). */
export function readVersions() {
  const versionOf = (dir: string) =>
    (JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { version: string }).version;
  return {
    simulator: versionOf('.'),
    sdk: versionOf('node_modules/@a2a-js/sdk'),
    express: versionOf('node_modules/express'),
    autocannon: versionOf('node_modules/autocannon'),
  };
}

export interface ReportInput {
  startedAt: Date;
  /** loadavg() before the first workload. */
  loadBefore: number[];
  versions: Versions;
  settings: Settings;
  pin: boolean;
  /** Each workload's JSON record, by name, in the order they ran. */
  workloads: Record<string, unknown>;
  targets: Target[];
}

export function buildReport({
  startedAt,
  loadBefore,
  versions,
  settings,
  pin,
  workloads,
  targets,
}: ReportInput) {
  const cpu = cpus();
  return {
    tool: 'a2a-sim bench',
    date: startedAt.toISOString(),
    command:
      process.env.npm_lifecycle_event === 'bench'
        ? `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`
        : `tsx bench/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine: {
      cpu: cpu[0]?.model ?? 'unknown',
      cores: cpu.length,
      memoryGB: round(totalmem() / 2 ** 30, 1),
      kernel: release(),
      node: process.version,
      loadavgBefore: loadBefore.map((l) => round(l, 2)),
      loadavgAfter: loadavg().map((l) => round(l, 2)),
    },
    versions,
    settings: {
      ...settings,
      pinned: pin,
      serverCore: pin ? SERVER_CORE : null,
      loadCore: pin ? LOAD_CORE : null,
      loadGenerator: `autocannon ${versions.autocannon}, programmatic API, in a child process`,
    },
    workloads,
    targets,
  };
}

/** Writes the report to `file`, or prints it when there is none. */
export function writeReport(report: ReturnType<typeof buildReport>, file: string | undefined): void {
  const json = JSON.stringify(report, null, 2);
  if (file) {
    writeFileSync(file, `${json}\n`);
    process.stdout.write(`JSON written to ${file}\n`);
  } else {
    process.stdout.write(`\n${json}\n`);
  }
}
