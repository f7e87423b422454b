/**
 * How much is enough for the rules that measure: when polling counts as unbounded, how much growth
 * is backoff, how much spread is jitter, how much slack Retry-After gets. Every one can be set
 * (`verdicts` option, an exam curriculum's `thresholds`); the defaults suit real clients.
 */
export interface VerdictThresholds {
  /** Polls of one unfinished task past which polling counts as unbounded. */
  maxPolls: number;
  /** Polls of one task before backoff and jitter are judged. */
  minPolls: number;
  /** How many times the first interval the last one must reach to count as backing off. */
  backoffGrowth: number;
  /** An interval this long (ms) has reached a sensible cap: no more growth is asked of it. */
  backoffCapMs: number;
  /**
   * How far (relative) the ratio of two successive intervals must stray from the usual one to count
   * as jittered; at least half of them must.
   */
  jitterSpread: number;
  /** Early arrival forgiven after Retry-After, for clocks and networks, ms. */
  retryAfterSlackMs: number;
}

export const DEFAULT_THRESHOLDS: Readonly<VerdictThresholds> = Object.freeze({
  maxPolls: 30,
  minPolls: 7,
  backoffGrowth: 1.5,
  backoffCapMs: 30_000,
  jitterSpread: 0.05,
  retryAfterSlackMs: 50,
});
