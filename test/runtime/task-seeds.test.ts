/**
 * Task seeds counted by a shared store: the counts come from a counter behind a TurnBatch, as a
 * replica's come from Redis (one call a turn), and the calls to it are counted.
 */
import { describe, expect, it } from 'vitest';
import { ROOT_SCOPE } from '../../src/domain/scope.js';
import type { Message } from '../../src/domain/types.js';
import { TurnBatch } from '../../src/lib/turn-batch.js';
import { TaskSeeds } from '../../src/runtime/task-seeds.js';

const message: Message = {
  role: 'user',
  messageId: 'm-1',
  parts: [{ kind: 'text', text: 'What is the weather today?' }],
};

/** A shared count per base, as Redis keeps it, with the calls made to it. */
function sharedCounts() {
  const counts = new Map<string, number>();
  const store = {
    calls: 0,
    forget: () => counts.clear(),
    batch: new TurnBatch<string, number>(async (bases) => {
      store.calls++;
      return bases.map((base) => {
        const n = (counts.get(base) ?? 0) + 1;
        counts.set(base, n);
        return n;
      });
    }),
  };
  return store;
}

/** A replica's seeds over `store`, the ids it claims counted as taken (the tasks are stored). */
function replica(store: ReturnType<typeof sharedCounts>) {
  const stored = new Set<string>();
  const seeds = new TaskSeeds('seed', (taskId) => stored.has(taskId));
  const claim = async () => {
    const { taskId } = await seeds.claimShared('weather', message, ROOT_SCOPE, async (base) => {
      return (await store.batch.ask(base)) - 1;
    });
    stored.add(taskId);
    return taskId;
  };
  return { stored, claim };
}

describe('task seeds counted by a shared store', () => {
  it('give the ids the memory store gives, one call a repeat', async () => {
    const store = sharedCounts();
    const shared = replica(store);
    const memory = new TaskSeeds('seed', () => false);
    for (let i = 0; i < 20; i++) {
      expect(await shared.claim()).toBe(memory.claim('weather', message, ROOT_SCOPE).taskId);
    }
    expect(store.calls).toBe(20);
  });

  it('probe past the stored tasks of a forgotten count in a few calls, not one a task', async () => {
    const store = sharedCounts();
    const shared = replica(store);
    for (let i = 0; i < 1000; i++) await shared.claim();
    store.forget();
    store.calls = 0;

    const before = new Set(shared.stored);
    const next = await shared.claim();
    expect(before.has(next)).toBe(false);
    // 1 + 2 + 4 + ... + 64, then 64 a call: 1,001 counts in 21 calls.
    expect(store.calls).toBe(21);
    // What follows goes on from the counts used up, one call a repeat again.
    store.calls = 0;
    const after = await shared.claim();
    expect(before.has(after) || after === next).toBe(false);
    expect(store.calls).toBe(1);
  });

  it('probe the same way in every run: the same ids after a forgotten count', async () => {
    const runs = await Promise.all(
      [1, 2].map(async () => {
        const store = sharedCounts();
        const shared = replica(store);
        for (let i = 0; i < 50; i++) await shared.claim();
        store.forget();
        return [await shared.claim(), await shared.claim()];
      }),
    );
    expect(runs[0]).toEqual(runs[1]);
  });
});
