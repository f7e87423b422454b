/** What a rule is, what it is given, and what it says: the shapes every rule file shares. */
import { isTerminal } from '../domain/lifecycle.js';
import type { TaskState } from '../domain/types.js';
import { factsOf, type DeliveredFacts, type Observation } from './observation.js';
import type { VerdictThresholds } from './thresholds.js';

export type Level = 'MUST' | 'SHOULD';
/**
 * `advice`: the rule applied where the requirements do not make it one (a binding that asks less,
 * PROTOCOL.md §13): what the client did is reported, not failed.
 */
export type Outcome = 'pass' | 'fail' | 'advice' | 'not exercised';

/** Why a rule failed: the calls and events that show it. */
export interface Evidence {
  taskId?: string;
  /** Clock time of the call in question, ISO 8601. */
  at?: string;
  seq?: number;
  detail: string;
}

/** The task as the simulator knows it now. */
export interface TaskFacts {
  state: TaskState;
  latestSeq: number;
}

export interface RuleInput {
  /** One client's calls, in the order they arrived. */
  calls: readonly Observation[];
  facts(taskId: string): TaskFacts | undefined;
  thresholds: VerdictThresholds;
}

/** How often the rule applied, where it did not hold, and where it only advises. */
export interface Finding {
  exercised: number;
  failures: Evidence[];
  /** Where the client did not do what the rule asks, on a binding where that is advice only. */
  advice?: Evidence[];
}

export interface Rule {
  id: string;
  level: Level;
  /** Where the rule comes from: the requirement or the section of the protocol. */
  source: string;
  /**
   * Where a binding asks less than `level` (PROTOCOL.md §13): on those bindings a finding is
   * advice, resting on this source instead.
   */
  advice?: { bindings: string; source: string };
  /** What the simulator checks, in a sentence. */
  checks: string;
  judge(input: RuleInput): Finding;
}

/** A client's calls about each task, in order. */
export function callsByTask(calls: readonly Observation[]): Map<string, Observation[]> {
  const tasks = new Map<string, Observation[]>();
  for (const call of calls) {
    if (call.taskId === undefined) continue;
    let list = tasks.get(call.taskId);
    if (!list) tasks.set(call.taskId, (list = []));
    list.push(call);
  }
  return tasks;
}

/** A real event that showed a terminal state. */
export const showsTerminal = (d: DeliveredFacts): boolean =>
  !d.synthetic && d.state !== undefined && isTerminal(d.state);

/** A made-up event that showed the `unknown` state (the unknown-state quirk). */
export const isUnknownQuirk = (d: DeliveredFacts): boolean => d.synthetic === true && d.state === 'unknown';

/** Whether the call showed the client the task's terminal state (a real one, not a quirk's). */
export function showedTerminal(call: Observation): boolean {
  if (call.state !== undefined && isTerminal(call.state)) return true;
  return (call.delivered ?? []).some((d) => showsTerminal(factsOf(d)));
}

/** The last real state the call showed the client: its answer's, or its stream's last. */
export function lastState(call: Observation): TaskState | undefined {
  const delivered = call.delivered ?? [];
  for (let i = delivered.length - 1; i >= 0; i--) {
    const { synthetic, state } = factsOf(delivered[i]!);
    if (!synthetic && state !== undefined) return state;
  }
  return call.state;
}

export function evidence(call: Observation, detail: string, seq?: number): Evidence {
  return {
    ...(call.taskId !== undefined && { taskId: call.taskId }),
    at: new Date(call.atMs).toISOString(),
    ...(seq !== undefined && { seq }),
    detail,
  };
}

export const isStream = (call: Observation): boolean => call.kind === 'stream' || call.kind === 'subscribe';
