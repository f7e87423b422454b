/** The table `npm run bench` prints: one row or more per workload, one column per server. */
import { SERVER_KINDS, type ServerKind } from './procs.js';

export interface TableRow {
  /** The workload, or what a follow-up row of it shows (indented). */
  label: string;
  target: string;
  /** One cell per server; `—` for a server that did not play the workload. */
  servers: Record<ServerKind, string>;
  simOverSdk?: string;
  simOverExpress?: string;
  simOverNode?: string;
  /** Whether the workload met its targets: `yes`, `NO (missed/all)`, or empty. */
  met?: string;
}

const HEADER = ['workload', 'target', ...SERVER_KINDS, 'sim/sdk', 'sim/express', 'sim/node', 'met'];

export function formatTable(rows: TableRow[]): string {
  const cells = [
    HEADER,
    ...rows.map((row) => [
      row.label,
      row.target,
      ...SERVER_KINDS.map((kind) => row.servers[kind]),
      row.simOverSdk ?? '',
      row.simOverExpress ?? '',
      row.simOverNode ?? '',
      row.met ?? '',
    ]),
  ];
  const widths = HEADER.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.slice(1).map(line)].join('\n');
}
