/**
 * The bench's targets: each one a figure of one workload against a limit. A target whose figure is
 * missing (a server that never answered, a window that never closed) is neither met nor missed.
 */
import { round } from './stats.js';

export interface Target {
  workload: string;
  name: string;
  /** The limit as the report writes it, e.g. `≤ 10`. */
  target: string;
  value: number | null;
  /** null when there was no figure to judge. */
  pass: boolean | null;
  /** A stretch target, beyond what is required: judged and counted like the others, and named so. */
  stretch?: true;
}

/** A target of `value`, met or not as `pass` says; NaN, a missing figure, is neither. */
export function toTarget(
  workload: string,
  name: string,
  target: string,
  value: number,
  pass: boolean,
): Target {
  return { workload, name, target, value: round(value, 3), pass: Number.isFinite(value) ? pass : null };
}

/**
 * A limit on a figure: `{ atMost: 10 }` reads `≤ 10` in the report, `{ below: 1, label: '1.0' }`
 * reads `< 1.0`. `stretch` makes it a stretch target (its name then starts `stretch: `).
 */
export type Limit = ({ atMost: number } | { atLeast: number } | { below: number }) & {
  label?: string;
  stretch?: true;
};

/** The target of `value` against `limit`; a missing value is neither met nor missed. */
export function limitTarget(
  workload: string,
  name: string,
  value: number | null | undefined,
  limit: Limit,
): Target {
  const figure = value ?? Number.NaN;
  const [sign, bound, met] =
    'atMost' in limit
      ? ['≤', limit.atMost, figure <= limit.atMost]
      : 'atLeast' in limit
        ? ['≥', limit.atLeast, figure >= limit.atLeast]
        : ['<', limit.below, figure < limit.below];
  if (!limit.stretch) return toTarget(workload, name, `${sign} ${limit.label ?? bound}`, figure, met);
  return {
    ...toTarget(workload, `stretch: ${name}`, `${sign} ${limit.label ?? bound}`, figure, met),
    stretch: true,
  };
}

/** The table's `met` cell for one workload's targets: empty when it has none. */
export function verdict(targets: Target[]): string {
  if (targets.length === 0) return '';
  const missed = targets.filter((t) => !t.pass).length;
  return missed === 0 ? 'yes' : `NO (${missed}/${targets.length})`;
}

/** The lines under the table: every target missed, or that all were met. */
export function targetsSummary(targets: Target[]): string {
  const missed = targets.filter((t) => t.pass === false);
  if (missed.length)
    return `Targets missed (${missed.length}/${targets.length}):\n${missed.map((t) => `  ${t.workload}: ${t.name} = ${t.value} (target ${t.target})`).join('\n')}\n`;
  return targets.length ? `All ${targets.length} targets met.\n` : 'No targets among these workloads.\n';
}
