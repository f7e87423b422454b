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
}

export function toTarget(
  workload: string,
  name: string,
  target: string,
  value: number,
  pass: boolean,
): Target {
  return { workload, name, target, value: round(value, 3), pass: Number.isFinite(value) ? pass : null };
}

/** A target met when `value` is at most `limit` (written `label`); a missing value is not met. */
export function atMost(
  workload: string,
  name: string,
  value: number | null | undefined,
  limit: number,
  label = `${limit}`,
): Target {
  return toTarget(workload, name, `≤ ${label}`, value ?? Number.NaN, (value ?? Infinity) <= limit);
}

/** A target met when `value` is at least `limit` (written `label`). */
export function atLeast(
  workload: string,
  name: string,
  value: number | null | undefined,
  limit: number,
  label = `${limit}`,
): Target {
  return toTarget(workload, name, `≥ ${label}`, value ?? Number.NaN, (value ?? 0) >= limit);
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
