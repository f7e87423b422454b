/**
 * The time templates see (`{{now}}`, `{{today}}`, faker's dates such as `faker.date.soon`): the
 * clock's time to the day, so that the same seed and the same requests give the same content all
 * day long, and a transcript can be snapshotted. With a start time (`--start-time`), the day is the
 * start time itself, moved on by the whole days the clock has run since the simulator started:
 * runs started at any moment then render identical content. Events' timestamps still follow the
 * clock to the millisecond.
 */
export const DAY_MS = 86_400_000;

/**
 * @example contentTimeOf({ startedAt: clock.now() })(Date.parse('2026-12-01T15:04:05Z')) // 2026-12-01T00:00:00Z
 * @example contentTimeOf({ startTime: Date.parse('2030-01-01T09:00:00Z'), startedAt: t0 })(t0 + 5_000) // 2030-01-01T09:00:00Z
 */
export function contentTimeOf(options: { startTime?: number; startedAt: number }): (nowMs: number) => number {
  const { startTime, startedAt } = options;
  if (startTime === undefined) return (nowMs) => nowMs - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
  return (nowMs) => startTime + Math.floor((nowMs - startedAt) / DAY_MS) * DAY_MS;
}

/**
 * A start time as epoch milliseconds: an ISO 8601 date and time (`2030-01-01T09:00:00Z`), a Date or
 * a number of milliseconds; undefined for anything else (`Date.parse` alone would take `"1"`).
 */
export function readInstant(value: unknown): number | undefined {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? value
        : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)
          ? Date.parse(value)
          : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/** How a start time is written, for the message that refuses another. */
export const INSTANT_HINT = 'a date and time like "2030-01-01T09:00:00Z"';
