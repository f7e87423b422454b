/**
 * The v1.1 draft's task generation (§3.2.7), as a layer of every agent's pipeline, present only with
 * `--preview generation`: a GetTask with `currentGeneration` is held until the task's generation
 * passes it (a long poll), and a follow-up message with `ifGenerationMatch` is refused unless the
 * task is at that generation (§3.2.2). The generation itself is the store's: each logged event
 * carries the generation after it, so a long poll waits on the task's log like any stream.
 */
import { A2AError } from '../domain/errors.js';
import type { Clock } from '../lib/clock.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { Layer } from './pipeline.js';

export interface LongPollLimits {
  /** How long a GetTask waits for the generation to pass its `currentGeneration`, ms of clock time. */
  timeoutMs: number;
  /** Requests held at once for one task; past it, GetTask answers at once. */
  maxPerTask: number;
  /** Requests held at once in all; past it, GetTask answers at once. */
  max: number;
}

/** The draft leaves the timeout to the server (§3.2.7): 30 s of clock time. */
export const LONG_POLL_LIMITS: Readonly<LongPollLimits> = Object.freeze({
  timeoutMs: 30_000,
  maxPerTask: 16,
  max: 1024,
});

/** Why a held GetTask went on to answer. */
export type Release = 'advanced' | 'timeout' | 'full' | 'left' | 'gone';

/** The GetTask calls held until their task's generation passes theirs, counted against the limits. */
export class LongPolls {
  private heldNow = 0;
  private readonly perTask = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: LongPollLimits = LONG_POLL_LIMITS,
  ) {}

  /** How many calls are held now. */
  get held(): number {
    return this.heldNow;
  }

  /**
   * Resolves once the task's generation is past `after`, the timeout passes, the client leaves or
   * the task is gone (evicted, or the simulator closing: the store clears every log); at once when
   * the limits are reached.
   */
  wait(record: TaskRecord, after: number, signal?: AbortSignal): Promise<Release> {
    const id = record.id;
    const forTask = this.perTask.get(id) ?? 0;
    if (this.heldNow >= this.limits.max || forTask >= this.limits.maxPerTask) return Promise.resolve('full');
    if (signal?.aborted) return Promise.resolve('left');
    this.heldNow++;
    this.perTask.set(id, forTask + 1);
    return new Promise((resolve) => {
      let done = false;
      let unfollow: (() => void) | undefined;
      const finish = (why: Release) => {
        if (done) return;
        done = true;
        timer.cancel();
        unfollow?.();
        signal?.removeEventListener('abort', onAbort);
        this.heldNow--;
        const left = (this.perTask.get(id) ?? 1) - 1;
        if (left > 0) this.perTask.set(id, left);
        else this.perTask.delete(id);
        resolve(why);
      };
      const onAbort = () => finish('left');
      const timer = this.clock.setTimer(this.limits.timeoutMs, () => finish('timeout'));
      signal?.addEventListener('abort', onAbort, { once: true });
      // Attach before read: an event logged between the check and here is not missed.
      unfollow = record.log.follow(record.log.latestSeq, {
        onEvent: (logged) => {
          if ((logged.generation ?? 0) > after) finish('advanced');
        },
        onClose: () => finish('gone'),
      });
      if (done) unfollow();
    });
  }
}

/**
 * The layer: holds a long-poll GetTask, refuses a follow-up whose `ifGenerationMatch` is not the
 * task's generation, and passes everything else on untouched.
 */
export function generationLayer(store: TaskStore, polls: LongPolls): Layer {
  return async (call, next) => {
    const { operation: op, ctx } = call;
    if (op.name === 'get' && op.currentGeneration !== undefined) {
      const record = store.get(op.taskId, ctx.scope);
      const generation = record?.generation;
      // §3.2.7: past it already, the answer is at once; otherwise it waits for the next step.
      if (record && generation !== undefined && generation <= op.currentGeneration) {
        await polls.wait(record, op.currentGeneration, ctx.connection?.signal);
      }
    } else if (op.name === 'send' || op.name === 'stream') {
      const expected = op.request.configuration?.ifGenerationMatch;
      const taskId = op.request.message.taskId;
      // A message that creates a task ignores it (§3.2.2); an unknown task is the service's to refuse.
      const record =
        expected === undefined || taskId === undefined ? undefined : store.get(taskId, ctx.scope);
      const current = record?.generation;
      if (current !== undefined && current !== expected)
        throw generationMismatch(taskId!, expected!, current);
    }
    return next(call);
  };
}

/** TaskGenerationMismatchError, worded and detailed as the draft's example (§11.6). */
export function generationMismatch(taskId: string, expected: number, current: number): A2AError {
  return new A2AError(
    'TaskGenerationMismatchError',
    `Task generation mismatch: expected ${expected} but current generation is ${current}. Fetch the task with GetTask, then send again with its generation if the message still applies.`,
    {
      metadata: {
        taskId,
        expectedGeneration: String(expected),
        currentGeneration: String(current),
      },
    },
  );
}
