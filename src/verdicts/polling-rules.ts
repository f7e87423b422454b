/**
 * The rules about polling with GetTask: an overall bound, growing intervals, intervals that are
 * not a fixed cadence, and no polling once the end is known.
 */
import type { Observation } from './observation.js';
import { callsByTask, evidence, showedTerminal, type Finding, type Rule } from './rule.js';

const SOURCE =
  'Seeds 002/003: poll with an overall deadline, a maximum count, exponential backoff and random jitter';

/** The polls of each task, when there are at least `min`, and the intervals between them. */
function polled(calls: readonly Observation[], min: number): { polls: Observation[]; intervals: number[] }[] {
  return [...callsByTask(calls).values()].flatMap((taskCalls) => {
    const polls = taskCalls.filter((c) => c.kind === 'get');
    if (polls.length < min) return [];
    return [{ polls, intervals: polls.slice(1).map((p, i) => p.atMs - polls[i]!.atMs) }];
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
      const half = Math.floor(intervals.length / 2);
      const early = mean(intervals.slice(0, half));
      const late = mean(intervals.slice(intervals.length - half));
      if (late >= early * thresholds.backoffGrowth || Math.max(...intervals) >= thresholds.backoffCapMs)
        continue;
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
      const ratios = intervals.slice(1).map((d, i) => d / Math.max(1, intervals[i]!));
      const middle = median(ratios);
      const spread = Math.max(...ratios.map((r) => Math.abs(r - middle) / middle));
      if (spread >= thresholds.jitterSpread) continue;
      finding.failures.push(
        evidence(
          polls.at(-1)!,
          `intervals follow a fixed cadence (${intervals.map((d) => `${d} ms`).join(', ')}): they stray ${(spread * 100).toFixed(1)}% from it, ${thresholds.jitterSpread * 100}% expected`,
        ),
      );
    }
    return finding;
  },
};

export const noPollAfterTerminal: Rule = {
  id: 'no-poll-after-terminal',
  level: 'SHOULD',
  source: 'A2A §3.1.3: a terminal task does not change; seeds 002/003: stop polling at a terminal state',
  checks: 'No polling of a task after its terminal state was delivered to the client.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const taskCalls of callsByTask(calls).values()) {
      const end = taskCalls.findIndex(showedTerminal);
      if (end < 0 || !taskCalls.some((c) => c.kind === 'get')) continue;
      finding.exercised++;
      const late = taskCalls.slice(end + 1).filter((c) => c.kind === 'get');
      if (late.length) {
        finding.failures.push(
          evidence(
            late[0]!,
            `polled ${late.length} more time(s) after the task's terminal state was delivered`,
          ),
        );
      }
    }
    return finding;
  },
};

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
