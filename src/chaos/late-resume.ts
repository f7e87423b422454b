/**
 * Late resumes (`drop.resumeWithin`): chaos remembers when it cut a client's stream of a task, and
 * refuses that client's next subscription to the task, once, when it comes later than the window
 * allows, as a server whose events expired refuses it (EVENTS_EXPIRED), with a cursor or without.
 * A client meets the refusal however it resumes; the requirements then ask it to read the task with
 * GetTask before anything else (seed 002), and its next subscription is served.
 */
import { A2AError } from '../domain/errors.js';

/** Cuts remembered at most; past them, the oldest is forgotten (its resume is then served). */
const MAX_CUTS = 10_000;

export class LateResumes {
  /** When each (client, task) stream was last cut, clock time. */
  private readonly cuts = new Map<string, number>();

  cut(client: string, taskId: string, atMs: number): void {
    const key = keyOf(client, taskId);
    this.cuts.delete(key);
    this.cuts.set(key, atMs);
    if (this.cuts.size > MAX_CUTS) this.cuts.delete(this.cuts.keys().next().value!);
  }

  /**
   * How late a resume arriving now is, past the window, if it is; the cut is forgotten either way,
   * so only the first resume after a cut can be refused.
   */
  lateBy(client: string, taskId: string, nowMs: number, windowMs: number): number | undefined {
    const key = keyOf(client, taskId);
    const cutAt = this.cuts.get(key);
    if (cutAt === undefined) return undefined;
    this.cuts.delete(key);
    const after = nowMs - cutAt;
    return after > windowMs ? after : undefined;
  }
}

/** The refusal of a resume `afterMs` after its stream was cut, later than `windowMs` allows. */
export function resumeExpired(taskId: string, afterMs: number, windowMs: number, profile: string): A2AError {
  return new A2AError(
    'UnsupportedOperationError',
    `Failed to resume task ${taskId}: the resume came ${afterMs} ms after the stream was cut, later than the ${windowMs} ms its events are kept for resuming (simulated by chaos profile "${profile}"). Get the task with GetTask, then subscribe again.`,
    { reason: 'EVENTS_EXPIRED', metadata: { taskId } },
  );
}

const keyOf = (client: string, taskId: string) => `${client}\n${taskId}`;
