/**
 * A panel that reloads from the admin API: soon after the feed says something changed (a burst of
 * changes costs one reload), and on a short poll for what the feed does not tell.
 */

/**
 * @param {() => Promise<void>} load
 * @param {{pollMs: number, settleMs: number}} timing
 */
export function reloader(load, { pollMs, settleMs }) {
  /** @type {number | undefined} */
  let waiting;
  const schedule = () => {
    if (waiting !== undefined) return;
    waiting = setTimeout(() => {
      waiting = undefined;
      void load().catch(() => {});
    }, settleMs);
  };
  return {
    /** Reloads soon; at most one reload waits at a time. */
    schedule,
    start() {
      void load().catch(() => {});
      setInterval(schedule, pollMs);
    },
  };
}
