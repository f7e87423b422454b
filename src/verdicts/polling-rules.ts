/**
 * The rules about polling with GetTask: an overall bound, growing intervals, intervals that are
 * not a fixed cadence, and no polling once the end is known.
 */
import type { Observation } from './observation.js';
import { callsByTask, evidence, showedTerminal, type Finding, type Rule } from './rule.js';

const SOURCE =
  'Seeds 002/003: poll with an overall deadline, a maximum count, exponential backoff and random jitter';

/**
 * The polls of each task that were answered, until one showed its end, when there are at least
 * `min`, and the intervals between them. An interval with a refused call in it is the client
 * honouring Retry-After, not its polling: it is left out.
 */
function polled(calls: readonly Observation[], min: number): { polls: Observation[]; intervals: number[] }[] {
  // In arrival order, so sorted: whether one falls inside an interval is a binary search.
  const refusals = calls.filter((c) => c.error).map((c) => c.atMs);
  const refusedWithin = (from: number, to: number) => {
    let lo = 0;
    let hi = refusals.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (refusals[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    return lo < refusals.length && refusals[lo]! < to;
  };
  return [...callsByTask(calls).values()].flatMap((taskCalls) => {
    // Up to the poll that showed the end: what comes after is no-poll-after-terminal's to judge.
    const answered = taskCalls.filter((c) => c.kind === 'get' && !c.error);
    const end = answered.findIndex(showedTerminal);
    const polls = end < 0 ? answered : answered.slice(0, end + 1);
    if (polls.length < min) return [];
    const intervals = polls.slice(1).flatMap((poll, i) => {
      const from = polls[i]!.atMs;
      return refusedWithin(from, poll.atMs) ? [] : [poll.atMs - from];
    });
    return intervals.length >= min - 1 ? [{ polls, intervals }] : [];
  });
}

export const pollDeadline: Rule = {
  id: 'poll-deadline',
  level: 'MUST',
  source: SOURCE,
  checks:
    'Polling a task that never finishes stops (a deadline or a maximum count) rather than going on without bound.',
  judge({ calls, thresholds }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const { polls } of polled(calls, 2)) {
      if (polls.some(showedTerminal)) continue;
      finding.exercised++;
      if (polls.length > thresholds.maxPolls) {
        finding.failures.push(
          evidence(
            polls.at(-1)!,
            `polled ${polls.length} times a task that never finished (at most ${thresholds.maxPolls})`,
          ),
        );
      }
    }
    return finding;
  },
};

export const pollBackoff: Rule = {
  id: 'poll-backoff',
  level: 'SHOULD',
  source: SOURCE,
  checks: 'Intervals between polls of one task grow, up to a cap.',
  judge({ calls, thresholds }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const { polls, intervals } of polled(calls, thresholds.minPolls)) {
      finding.exercised++;
      // The first intervals against the last third: a backoff that reached its cap keeps the last
      // third up, and jitter averages out over a third.
      const third = Math.max(1, Math.floor(intervals.length / 3));
      const early = mean(intervals.slice(0, Math.min(2, third)));
      const late = mean(intervals.slice(intervals.length - third));
      if (late >= early * thresholds.backoffGrowth || maxOf(intervals) >= thresholds.backoffCapMs) continue;
      finding.failures.push(
        evidence(
          polls.at(-1)!,
          `intervals did not grow: ${Math.round(early)} ms on average early, ${Math.round(late)} ms late (×${thresholds.backoffGrowth} expected)`,
        ),
      );
    }
    return finding;
  },
};

export const pollJitter: Rule = {
  id: 'poll-jitter',
  level: 'SHOULD',
  source: SOURCE,
  checks: 'Intervals are not a fixed cadence: they vary within a task (and across tasks).',
  judge({ calls, thresholds }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const { polls, intervals } of polled(calls, thresholds.minPolls)) {
      finding.exercised++;
      // Against the cadence itself: a fixed interval, or one that doubles each time, shows the same
      // ratio between successive intervals; jitter moves each ratio away from the others.
      // A fixed cadence keeps the ratio of successive intervals the same (1 for a constant
      // interval, 2 for one that doubles), then 1 once a cap is reached; jitter moves most ratios
      // off it. One interval a busy network stretched moves two ratios at most: it takes at least
      // half of them to count as jitter.
      // A cadence shows in its first intervals: judging more would cost the event loop quadratic
      // time for a client that polls thousands of times.
      const judged = intervals.slice(0, MAX_JITTER_INTERVALS);
      const ratios = judged.slice(1).map((d, i) => d / Math.max(1, judged[i]!));
      const off = offCadence(ratios, thresholds.jitterSpread);
      if (off >= ratios.length / 2) continue;
      const spread = off / ratios.length;
      finding.failures.push(
        evidence(
          polls.at(-1)!,
          `intervals follow a fixed cadence (${judged
            .slice(0, 20)
            .map((d) => `${d} ms`)
            .join(
              ', ',
            )}${judged.length > 20 ? ', …' : ''}): ${Math.round(spread * 100)}% of them stray more than ${thresholds.jitterSpread * 100}% from it, half expected`,
        ),
      );
    }
    return finding;
  },
};

export const noPollAfterTerminal: Rule = {
  id: 'no-poll-after-terminal',
  level: 'SHOULD',
  source:
    'A2A v1.0 §3.1.3 (GetTask fetches the final state once a stream has ended); seeds 002/003: polling stops at a terminal state',
  checks:
    'No polling of a task once its terminal state is known: one GetTask after a stream or send showed the end is fine, a second one (or any after a GetTask showed it) is polling.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const taskCalls of callsByTask(calls).values()) {
      const end = taskCalls.findIndex(showedTerminal);
      if (end < 0 || !taskCalls.some((c) => c.kind === 'get')) continue;
      finding.exercised++;
      // Reading the final state once after a stream or send showed it is what §3.1.3 describes;
      // after a GetTask showed it, the client already has it.
      const allowed = taskCalls[end]!.kind === 'get' ? 0 : 1;
      // A read refused with 429 or 503 and retried is one read.
      const late = taskCalls.slice(end + 1).filter((c) => c.kind === 'get' && !c.error);
      if (late.length > allowed) {
        const first = late[allowed]!;
        finding.failures.push(
          evidence(
            first,
            `read the task ${late.length} time(s) after its terminal state was delivered (${allowed ? 'once is enough' : 'a GetTask had shown it'})`,
          ),
        );
      }
    }
    return finding;
  },
};

/** How few ratios stray from the nearest fixed cadence: one growth ratio, then 1 from some poll on. */
function offCadence(ratios: number[], spread: number): number {
  const strays = (values: number[], usual: number) =>
    values.filter((r) => Math.abs(r - usual) / usual > spread).length;
  let fewest = ratios.length;
  for (let capAt = 0; capAt <= ratios.length; capAt++) {
    const growing = ratios.slice(0, capAt);
    const capped = ratios.slice(capAt);
    const growth = growing.length ? median(growing) : 1;
    // A growth that does not grow is the capped cadence already, with its strays counted there.
    if (growing.length && growth < 1 + 2 * spread) continue;
    const off = (growing.length ? strays(growing, growth) : 0) + strays(capped, 1);
    fewest = Math.min(fewest, off);
  }
  return fewest;
}

/** How many intervals of a task poll-jitter reads, from its first. */
const MAX_JITTER_INTERVALS = 200;

function maxOf(values: readonly number[]): number {
  let max = -Infinity;
  for (const value of values) if (value > max) max = value;
  return max;
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
