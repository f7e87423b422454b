/** Percentiles and summaries for the bench. Values in, numbers out; no I/O. */

export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The p-th percentile (0–100) of ascending `sorted`, nearest-rank; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(values: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/** Median of a few numbers (the rounds of one workload); NaN when empty. */
export function median(values: number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const mid = finite.length >> 1;
  return finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/** The median of one figure over a workload's rounds (a missing one is left out), rounded to `digits`. */
export function medianOf<T>(rounds: T[], pick: (round: T) => number | null | undefined, digits: number) {
  return round(median(rounds.map((r) => pick(r) ?? Number.NaN)), digits);
}

/**
 * The largest of one figure over a workload's rounds (a missing one is left out), rounded to
 * `digits`; null when every round's is missing. A figure that went through JSON as NaN comes back
 * null, which Math.max would take for 0.
 */
export function maxOf<T>(rounds: T[], pick: (round: T) => number | null | undefined, digits: number) {
  const finite = rounds.map(pick).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return round(finite.length ? Math.max(...finite) : Number.NaN, digits);
}

/** The sum of one count over a workload's rounds (a missing one counts 0). */
export function sumOf<T>(rounds: T[], pick: (round: T) => number | null | undefined): number {
  return rounds.reduce((total, r) => total + (pick(r) ?? 0), 0);
}

/**
 * Digits a ratio between servers is kept with: targets are judged on it, and two digits would make
 * 1.2488 the 1.25 a target asks for. Tables still show two.
 */
export const RATIO_DIGITS = 4;

/** Rounds to `digits` decimals, keeping NaN as null for JSON. */
export function round(value: number, digits = 2): number | null {
  if (!Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Least-squares slope of `ys` against `xs` (same length); NaN with fewer than two distinct xs. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2 || ys.length !== n) return Number.NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den > 0 ? num / den : Number.NaN;
}

/**
 * The standard error of {@link slope}: how far the slope of noisy samples may be from the trend
 * under them (about two of it either way). NaN with fewer than three samples.
 */
export function slopeError(xs: number[], ys: number[]): number {
  const n = xs.length;
  const b = slope(xs, ys);
  if (n < 3 || !Number.isFinite(b)) return Number.NaN;
  const mx = xs.reduce((a, c) => a + c, 0) / n;
  const my = ys.reduce((a, c) => a + c, 0) / n;
  let residuals = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    residuals += (ys[i]! - my - b * (xs[i]! - mx)) ** 2;
    den += (xs[i]! - mx) ** 2;
  }
  return Math.sqrt(residuals / (n - 2) / den);
}
