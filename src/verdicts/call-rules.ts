/**
 * The rules about single calls: Retry-After, answering the task that asked, revalidating the card,
 * refusing a forged one.
 */
import type { Observation } from './observation.js';
import { evidence, lastState, type Finding, type Rule } from './rule.js';

export const retryAfter: Rule = {
  id: 'retry-after',
  level: 'MUST',
  source:
    'RFC 9110 §10.2.3 (Retry-After); A2A v1.0 §3.3.2 (retry guidance on temporary failures), also as a google.rpc.RetryInfo detail (§9.5, §11.6)',
  checks:
    'After a 429 or 503 that asks for a wait (the Retry-After header, or RetryInfo in the error details), the next request comes no earlier than it says.',
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
    "A2A v1.0 §3.4.3: the client continues an input-required task with a new message carrying its taskId (and contextId); seed 002, through the gateway: the answer reuses the task's contextId",
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
  source:
    'A2A v1.0 §8.6.2: clients revalidate an expired cached card with If-None-Match or If-Modified-Since',
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

export const forgedCard: Rule = {
  id: 'forged-card',
  level: 'SHOULD',
  source:
    'A2A v1.0 §8.4.3: clients SHOULD verify at least one signature before trusting an Agent Card (RFC 7515 JWS over the RFC 8785 form)',
  checks:
    'After fetching a card whose signature chaos spoiled (card-signature), the client makes no call of the agent until it fetched a sound card again.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    let forged: Observation | undefined;
    for (const call of calls) {
      if (call.kind === 'card') {
        if (forged === undefined && call.forgedCard !== undefined) finding.exercised++;
        forged = call.forgedCard === undefined ? undefined : (forged ?? call);
      } else if (forged !== undefined && call.kind !== undefined) {
        finding.failures.push(
          evidence(
            call,
            `called the agent (${call.read?.operation ?? call.kind}) after a card whose signature was ${forged.forgedCard} (${describeForgery(forged.forgedCard!)}), fetched at ${new Date(forged.atMs).toISOString()}: it accepted a forged card`,
          ),
        );
        forged = undefined;
      }
    }
    return finding;
  },
};

function describeForgery(fault: NonNullable<Observation['forgedCard']>): string {
  switch (fault) {
    case 'invalid':
      return 'the card changed after signing';
    case 'missing':
      return 'no signature';
    case 'wrong-key':
      return 'signed by a key its JWKS does not hold';
  }
}
