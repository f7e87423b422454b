/** Human durations as scenario files write them: `500ms`, `2s`, `1.5m`, `1h`, or a number of milliseconds. */

const UNIT_MS: Readonly<Record<string, number>> = Object.freeze({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 });
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/;

/** Milliseconds for a duration, or undefined when the input is not one. */
export function parseDuration(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const match = DURATION.exec(input);
  if (!match) return undefined;
  // Rounded to the nanosecond so that "2.01s" is 2010, not 2009.9999999999998.
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]! * 1e6) / 1e6;
}

/** `1500` → `"1.5s"`, `86400000` → `"24h"`, for messages and listings. */
export function formatDuration(ms: number): string {
  if (ms >= UNIT_MS['h']! && ms % UNIT_MS['h']! === 0) return `${ms / UNIT_MS['h']!}h`;
  if (ms >= 2 * UNIT_MS['m']! && ms % UNIT_MS['m']! === 0) return `${ms / UNIT_MS['m']!}m`;
  if (ms >= 1000 && ms % 100 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
