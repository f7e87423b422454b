/** Human durations as scenario files write them: `500ms`, `2s`, `1.5m`, `1h`, or a number of milliseconds. */

const UNIT_MS: Readonly<Record<string, number>> = Object.freeze({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 });
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/;

/**
 * The longest duration anything accepts: 2^31-1 ms, about 24.8 days, the most a Node timer can
 * wait. A longer delay would fire after 1 ms instead, so it is refused where it is written.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

const HINT = 'expected a duration like "500ms", "2s" or a number of milliseconds';

/**
 * Milliseconds for a duration, or why the input is not one, as a phrase to put after the name of
 * what was given (a flag, a field, a chaos key).
 *
 * @example readDuration('1000h') // → { error: '"1000h" is longer than the maximum, 2147483647ms (about 24.8 days)' }
 */
export function readDuration(input: unknown): { ms: number } | { error: string } {
  const ms = millisecondsOf(input);
  if (ms === undefined) return { error: `${HINT}, got ${shown(input)}` };
  return ms > MAX_DURATION_MS ? { error: tooLong(input) } : { ms };
}

/** Milliseconds for a duration, or undefined when the input is not one or is longer than the maximum. */
export function parseDuration(input: unknown): number | undefined {
  const reading = readDuration(input);
  return 'ms' in reading ? reading.ms : undefined;
}

/**
 * Why a well-formed duration is refused (it is longer than the maximum), or undefined: for a
 * schema that checks the form of a duration itself.
 */
export function durationLimitError(input: unknown): string | undefined {
  const ms = millisecondsOf(input);
  return ms !== undefined && ms > MAX_DURATION_MS ? tooLong(input) : undefined;
}

function millisecondsOf(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const match = DURATION.exec(input);
  if (!match) return undefined;
  // Rounded to the nanosecond so that "2.01s" is 2010, not 2009.9999999999998.
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]! * 1e6) / 1e6;
}

function tooLong(input: unknown): string {
  return `${shown(input)} is longer than the maximum, ${MAX_DURATION_MS}ms (about 24.8 days)`;
}

/** `1500` → `"1.5s"`, `86400000` → `"24h"`, for messages and listings. */
export function formatDuration(ms: number): string {
  if (ms >= UNIT_MS['h']! && ms % UNIT_MS['h']! === 0) return `${ms / UNIT_MS['h']!}h`;
  if (ms >= 2 * UNIT_MS['m']! && ms % UNIT_MS['m']! === 0) return `${ms / UNIT_MS['m']!}m`;
  if (ms >= 1000 && ms % 100 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

function shown(input: unknown): string {
  return typeof input === 'string' ? JSON.stringify(input) : String(input);
}
