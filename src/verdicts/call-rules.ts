/** The rules about single calls: Retry-After, answering the task that asked, revalidating the card. */
import { evidence, lastState, type Finding, type Rule } from './rule.js';

export const retryAfter: Rule = {
  id: 'retry-after',
  level: 'MUST',
  source: 'RFC 9110 §10.2.3 (Retry-After); A2A §3.3 (429, 503)',
  checks: 'After a 429 or 503 with Retry-After, the next request comes no earlier than it says.',
  judge({ calls, thresholds }) {
    const finding: Finding = { exercised: 0, failures: [] };
    calls.forEach((call, i) => {
      const wait = call.error?.retryAfterMs;
      const next = calls[i + 1];
      if (wait === undefined || !next) return;
      finding.exercised++;
      const earliest = (call.endedAtMs ?? call.atMs) + wait;
      if (next.atMs + thresholds.retryAfterSlackMs < earliest) {
        finding.failures.push(
          evidence(
            next,
            `came ${earliest - next.atMs} ms before the ${wait / 1000} s that Retry-After asked for`,
          ),
        );
      }
    });
    return finding;
  },
};

export const inputRequiredContinuation: Rule = {
  id: 'input-required-continuation',
  level: 'MUST',
  source:
    'A2A §3.1.1, §4.1.3: the answer to input-required carries the task id; seeds 002/003 (the gateway: the context id)',
  checks:
    'The answer to an input-required task continues that task (its taskId, or its contextId through the gateway) instead of starting a new one.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    const waiting = new Set<string>();
    for (const call of calls) {
      const message = call.kind === 'send' || call.kind === 'stream';
      if (message && waiting.size) {
        const answered = [...waiting].find((id) => call.continues === id || call.taskId === id);
        finding.exercised++;
        if (answered !== undefined) waiting.delete(answered);
        else {
          const asked = [...waiting].join(', ');
          finding.failures.push(
            evidence(
              call,
              `started ${call.taskId ? `task ${call.taskId}` : 'a new conversation'} while task ${asked} waited for input`,
            ),
          );
          waiting.clear();
        }
      }
      // Whether the task waits is what the call showed last: a streamed follow-up opens with the
      // task still input-required, then shows it working and done.
      const last = call.taskId === undefined ? undefined : lastState(call);
      if (last === 'input-required') waiting.add(call.taskId!);
      else if (last !== undefined) waiting.delete(call.taskId!);
    }
    return finding;
  },
};

export const cardRevalidation: Rule = {
  id: 'card-revalidation',
  level: 'SHOULD',
  source: 'A2A §8.6.1: clients revalidate a cached card with If-None-Match or If-Modified-Since',
  checks: 'A re-fetched agent card is asked for conditionally (If-None-Match / If-Modified-Since).',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    const fetches = calls.filter((c) => c.kind === 'card');
    for (const refetch of fetches.slice(1)) {
      finding.exercised++;
      if (!refetch.conditional)
        finding.failures.push(
          evidence(refetch, 'fetched the card again without If-None-Match or If-Modified-Since'),
        );
    }
    return finding;
  },
};
