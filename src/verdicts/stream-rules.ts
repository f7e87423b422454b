/**
 * The rules about streams: resuming with an honest cursor, losing no event across connections,
 * checking the task after a refused resume, and following a task past an unknown state.
 */
import { isTerminal } from '../domain/lifecycle.js';
import { factsOf, type Observation } from './observation.js';
import {
  callsByTask,
  evidence,
  isStream,
  isUnknownQuirk,
  showedTerminal,
  showsTerminal,
  type Finding,
  type Rule,
} from './rule.js';

export const resumeCursor: Rule = {
  id: 'resume-cursor',
  level: 'MUST',
  source:
    'Seed 002, for tasks/resubscribe through the gateway and the v0.3 dialect: afterSeq is the last SSE id the client fully processed and persisted',
  advice: {
    bindings: 'v1.0 bindings',
    source:
      'A2A v1.0 §3.1.6: SubscribeToTask starts with the Task as it is and defines no cursor (a resume rebuilds from that snapshot; no-lost-events judges loss); resumable streams are an open proposal, A2A #1986',
  },
  checks:
    'A reconnect after a dropped stream carries a cursor (afterSeq, Last-Event-ID), present whenever events had been delivered, and not beyond the last event delivered to that client; on the v1.0 bindings, advice only.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [], advice: [] };
    for (const taskCalls of callsByTask(calls).values()) {
      taskCalls.forEach((call, i) => {
        if (!isStream(call) || call.ended !== 'cut') return;
        const reconnect = taskCalls.slice(i + 1).find((c) => c.kind === 'subscribe');
        if (!reconnect) return;
        finding.exercised++;
        // v1.0 asks for no cursor: there the finding is advice (PROTOCOL.md §13).
        const found = reconnect.read?.version === '1.0' ? finding.advice! : finding.failures;
        const last = lastDelivered(taskCalls.slice(0, taskCalls.indexOf(reconnect)));
        if (reconnect.cursor === undefined && last > 0) {
          // A cursor the server refused (not a seq, a bad afterSeq) is no cursor at all.
          const sent = reconnect.error
            ? `with no cursor the server could use (refused: ${reconnect.error.reason})`
            : 'without a cursor';
          found.push(
            evidence(reconnect, `reconnected ${sent} after events up to seq ${last} were delivered`, last),
          );
        } else if (reconnect.cursor !== undefined && reconnect.cursor > last) {
          found.push(
            evidence(
              reconnect,
              `resumed after seq ${reconnect.cursor}, but only events up to seq ${last} were delivered`,
              reconnect.cursor,
            ),
          );
        }
      });
    }
    return finding;
  },
};

export const noLostEvents: Rule = {
  id: 'no-lost-events',
  level: 'MUST',
  source:
    'Seed 002: a stream cut before the end is resumed (tasks/resubscribe from the last event processed); A2A v1.0 §3.1.6: SubscribeToTask starts with the Task as it is, so a resume loses nothing',
  checks:
    'Across all its connections for a task, the client was delivered every event of the task: a cursor that skips, or not coming back after a drop before the end, fails.',
  judge({ calls, facts }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const [taskId, taskCalls] of callsByTask(calls)) {
      // A stream cut before its first event counts too: a client that never came back lost it all.
      const streams = taskCalls.filter((c) => isStream(c) && (c.delivered?.length || c.ended === 'cut'));
      const known = facts(taskId);
      // About drops and resumes: a client that hung up of its own accord lost nothing to the network.
      const dropped = taskCalls.some(
        (c) => c.ended === 'cut' || (c.kind === 'subscribe' && c.cursor !== undefined),
      );
      // Events the simulator no longer had for an honest cursor were lost by it, not by the client.
      const expired = taskCalls.some((c) => c.kind === 'subscribe' && c.error?.reason === 'EVENTS_EXPIRED');
      // A stream longer than the judge keeps cannot show what it lacked.
      const clipped = streams.some((c) => c.deliveredClipped);
      if (!streams.length || !dropped || expired || clipped || !known || !isTerminal(known.state)) continue;
      finding.exercised++;
      const covered = new Set<number>();
      for (const call of streams) {
        const seqs = call.delivered!.flatMap((d) => {
          const { seq, synthetic } = factsOf(d);
          return seq === undefined || synthetic ? [] : [seq];
        });
        seqs.forEach((seq) => covered.add(seq));
        // A subscription without a cursor starts with the task as it is: what came before is in it.
        if (call.kind === 'subscribe' && call.cursor === undefined && seqs.length) {
          const lowest = minOf(seqs);
          for (let seq = 1; seq < lowest; seq++) covered.add(seq);
        }
      }
      // A GetTask that showed the end gave the client the whole task: the way back the
      // requirements give after a refused resume.
      if (taskCalls.some((c) => c.kind === 'get' && showedTerminal(c))) continue;
      // From the first event, or the first the client had (a send or GetTask showed it those before);
      // a client that was delivered nothing at all at least never had the end.
      const first = taskCalls[0]!.kind === 'stream' ? 1 : covered.size ? minOf(covered) : known.latestSeq;
      const missing: number[] = [];
      for (let seq = first; seq <= known.latestSeq; seq++) if (!covered.has(seq)) missing.push(seq);
      if (missing.length) {
        const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ', …' : '');
        finding.failures.push(
          evidence(
            streams.at(-1)!,
            `never delivered ${missing.length} event(s) of the task: seq ${shown}`,
            missing[0],
          ),
        );
      }
    }
    return finding;
  },
};

export const getAfterFailedResume: Rule = {
  id: 'get-after-failed-resume',
  level: 'SHOULD',
  source: 'Seed 002: after a failed resubscribe, confirm the task with tasks/get before deciding anything',
  checks:
    'After a resubscribe is refused (an expired or invalid cursor), the next call for that task is GetTask.',
  judge({ calls }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const taskCalls of callsByTask(calls).values()) {
      taskCalls.forEach((call, i) => {
        // Refused for its cursor or the task's state; an overloaded server's 429 or 503 asks for a retry instead.
        if (call.kind !== 'subscribe' || !call.error || OVERLOAD.has(call.error.type)) return;
        finding.exercised++;
        const next = taskCalls[i + 1];
        if (next?.kind === 'get') return;
        const detail = next
          ? `after the resume was refused (${call.error.reason}), the next call for the task was ${next.kind}, not GetTask`
          : `after the resume was refused (${call.error.reason}), the task was never read with GetTask`;
        finding.failures.push(evidence(next ?? call, detail));
      });
    }
    return finding;
  },
};

export const unknownState: Rule = {
  id: 'unknown-state',
  level: 'MUST',
  source:
    'Seeds 002/003: tolerate unknown states, never take one for success, keep the task unfinished; A2A v1.0 §4.1.3 (TaskState)',
  checks:
    'After an unknown state (the unknown-state quirk), the client keeps following the task to its real terminal state instead of stopping.',
  judge({ calls, facts }) {
    const finding: Finding = { exercised: 0, failures: [] };
    for (const [taskId, taskCalls] of callsByTask(calls)) {
      // A stream cut after the made-up state ended the client's reading, not the state: whether
      // the client came back after the cut is no-lost-events' to judge, not this rule's.
      const at = taskCalls.findIndex((c) => unknownIndex(c) >= 0 && c.ended !== 'cut');
      if (at < 0) continue;
      const known = facts(taskId);
      if (known && !isTerminal(known.state)) continue;
      finding.exercised++;
      const call = taskCalls[at]!;
      const after = unknownIndex(call);
      const sawEnd =
        call.delivered!.slice(after + 1).some((d) => showsTerminal(factsOf(d))) ||
        taskCalls.slice(at + 1).some(showedTerminal);
      if (!sawEnd)
        finding.failures.push(
          evidence(call, 'stopped following the task after an unknown state; never saw how it ended'),
        );
    }
    return finding;
  },
};

const OVERLOAD = new Set(['UnavailableError', 'ResourceExhaustedError', 'ConnectionFault']);

function unknownIndex(call: Observation): number {
  return (call.delivered ?? []).findIndex((d) => isUnknownQuirk(factsOf(d)));
}

function lastDelivered(calls: readonly Observation[]): number {
  let last = 0;
  for (const call of calls) {
    for (const d of call.delivered ?? []) {
      const { seq, synthetic } = factsOf(d);
      if (seq !== undefined && !synthetic && seq > last) last = seq;
    }
  }
  return last;
}

/** The smallest value: `Math.min(...values)` throws past about 100,000 values. */
function minOf(values: Iterable<number>): number {
  let min = Infinity;
  for (const value of values) if (value < min) min = value;
  return min;
}
