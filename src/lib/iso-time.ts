/**
 * A clock time as ISO 8601, the same string for the same millisecond: the statuses a busy
 * simulator stamps within one millisecond (a task's submitted, working and completed at speed 0,
 * the tasks of concurrent sends) then share one string instead of keeping a copy each.
 */
let lastMs = NaN;
let lastIso = '';

export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
