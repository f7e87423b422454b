/**
 * Where a task's seed comes from. It depends only on the root seed, the caller's scope, the
 * scenario and what the request says, so the same question gets the same answer in every run,
 * whatever else runs meanwhile (in other tenants and workspaces too). Asking the same question
 * again gets the next occurrence: counted, so the thousandth repeat costs what the first does.
 */
import { hash } from 'node:crypto';
import type { Scope } from '../domain/scope.js';
import type { Message } from '../domain/types.js';
import { Random } from '../lib/random.js';

/**
 * Distinct requests whose repeat count is remembered, the least recently repeated forgotten first:
 * twice the default task cap, so a request whose tasks are still stored is rarely forgotten. With a
 * shared store, the bases each generation of its counts holds (replica/scripts.ts).
 */
export const MAX_REMEMBERED_REQUESTS = 20_000;

/** Shared counts a probe for a free task id asks for at once, at most. */
const MOST_COUNTS_ASKED = 64;

export interface TaskSeed {
  seed: string;
  /** The task's id stream, which has drawn the task id. */
  ids: Random;
  taskId: string;
}

export class TaskSeeds {
  /** How many tasks each distinct request has started: the next one's occurrence. */
  private readonly occurrences = new Map<string, number>();

  constructor(
    private readonly rootSeed: string,
    /** Whether a task id is taken: a repeat whose count was forgotten probes for the next free one. */
    private readonly taken: (taskId: string) => boolean,
  ) {}

  claim(scenarioId: string, message: Message, scope: Scope): TaskSeed {
    const base = this.baseOf(scenarioId, message, scope);
    // The count only saves work: forgetting it (to bound memory) falls back to probing the store.
    const counted = this.occurrences.get(base);
    this.occurrences.delete(base);
    if (this.occurrences.size >= MAX_REMEMBERED_REQUESTS) {
      this.occurrences.delete(this.occurrences.keys().next().value!);
    }
    for (let occurrence = counted ?? 0; ; occurrence++) {
      const claimed = seedOf(base, occurrence);
      if (!this.taken(claimed.taskId)) {
        this.occurrences.set(base, occurrence + 1);
        return claimed;
      }
    }
  }

  /**
   * As {@link claim}, with the occurrences counted by every replica together (`next` counts one
   * more and answers the previous count), so ids do not depend on which replica answers. Each count
   * `next` answers is this call's alone, whichever replica asks at the same time.
   *
   * A count the shared store forgot (a generation gone, a restart without persistence) starts again
   * at 0, and the ids of the tasks still stored are taken: the probe for a free one asks for twice
   * as many counts each time, up to {@link MOST_COUNTS_ASKED}, which `next` gets in one call to the
   * store. A request with 1,000 tasks stored then costs 21 round trips, not 1,001. Counts past the
   * one claimed are left unused.
   */
  async claimShared(
    scenarioId: string,
    message: Message,
    scope: Scope,
    next: (base: string) => Promise<number>,
  ): Promise<TaskSeed> {
    const base = this.baseOf(scenarioId, message, scope);
    for (let asked = 1; ; asked = Math.min(asked * 2, MOST_COUNTS_ASKED)) {
      const occurrences = await Promise.all(Array.from({ length: asked }, () => next(base)));
      for (const occurrence of occurrences.sort((a, b) => a - b)) {
        const claimed = seedOf(base, occurrence);
        if (!this.taken(claimed.taskId)) return claimed;
      }
    }
  }

  private baseOf(scenarioId: string, message: Message, scope: Scope): string {
    const digest = hash(
      'sha256',
      JSON.stringify([scope.key, message.contextId ?? '', message.parts]),
      'base64url',
    ).slice(0, 16);
    return [this.rootSeed, scenarioId, digest].join('/');
  }
}

function seedOf(base: string, occurrence: number): TaskSeed {
  // Joined, not concatenated: a concatenation is a tree of strings (V8's cons strings), and a seed
  // and a request's base are kept as long as their task and count are, one string each this way.
  const seed = [base, occurrence].join('#');
  const ids = new Random(seed).fork('task');
  return { seed, ids, taskId: ids.uuid() };
}
