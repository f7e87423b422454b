/** Numbers as the bench writes them: `—` where there is none (null, NaN, a missing figure). */

/** For the log: fixed digits, no grouping. */
export function fixed(value: number | null | undefined, digits = 0): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** For the table: fixed digits, thousands grouped (`1,234.5`). */
export function grouped(value: unknown, digits = 0): string {
  return typeof value === 'number' && Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '—';
}
