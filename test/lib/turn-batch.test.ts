import { describe, expect, it } from 'vitest';
import { TurnBatch, type TurnBatchOptions } from '../../src/lib/turn-batch.js';

/** A batch whose calls are recorded; each question is answered with itself doubled. */
function doubling(options?: TurnBatchOptions<number>) {
  const calls: number[][] = [];
  const batch = new TurnBatch<number, number>(async (questions) => {
    calls.push([...questions]);
    return questions.map((q) => q * 2);
  }, options);
  return { batch, calls };
}

describe('TurnBatch', () => {
  it('answers the questions of one turn with one call, each caller its own answer', async () => {
    const { batch, calls } = doubling();
    const answers = await Promise.all([1, 2, 3].map((q) => batch.ask(q)));
    expect(answers).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('asks again for a question that comes after the call was made', async () => {
    const { batch, calls } = doubling();
    const first = batch.ask(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batch.ask(2);
    expect([await first, await second]).toEqual([2, 4]);
    expect(calls).toEqual([[1], [2]]);
  });

  it('splits a turn past its most questions into several calls', async () => {
    const { batch, calls } = doubling({ most: 2 });
    expect(await Promise.all([1, 2, 3, 4, 5].map((q) => batch.ask(q)))).toEqual([2, 4, 6, 8, 10]);
    expect(calls).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every question of a call that fails, and the next turn asks anew', async () => {
    let fail = true;
    const batch = new TurnBatch<number, number>(async (questions) => {
      if (fail) throw new Error('store away');
      return questions;
    });
    const asked = [batch.ask(1), batch.ask(2)].map((answer) => answer.catch((error: Error) => error.message));
    expect(await Promise.all(asked)).toEqual(['store away', 'store away']);
    fail = false;
    expect(await batch.ask(3)).toBe(3);
  });

  it('fails every question of a call that does not answer one per question, and tells onFailure once', async () => {
    const told: string[] = [];
    const batch = new TurnBatch<number, number>(async (questions) => questions.slice(1), {
      onFailure: (error) => told.push((error as Error).message),
    });
    const asked = [batch.ask(1), batch.ask(2)].map((answer) => answer.catch((error: Error) => error.message));
    expect(await Promise.all(asked)).toEqual([
      'an answer that is not one per question: 2',
      'an answer that is not one per question: 2',
    ]);
    expect(told).toEqual(['an answer that is not one per question: 2']);
  });

  it('sends at the next tick when asked to, ahead of what the run queued after its question', async () => {
    const { batch, calls } = doubling({ at: 'next-tick' });
    const order: string[] = [];
    const answered = batch.ask(1).then(() => order.push('answered'));
    process.nextTick(() => order.push(`tick after the question, ${calls.length} call sent`));
    await answered;
    expect(order).toEqual(['tick after the question, 1 call sent', 'answered']);
  });

  it('sends a call once its questions weigh the most it may, and at once when flushed', async () => {
    const { batch, calls } = doubling({ weigh: (q) => q, mostWeight: 10 });
    const asked = [batch.ask(4), batch.ask(6), batch.ask(1)];
    batch.flush();
    const last = batch.ask(2);
    expect(await Promise.all([...asked, last])).toEqual([8, 12, 2, 4]);
    expect(calls).toEqual([[4, 6], [1], [2]]);
  });

  it('never lets a call weigh past the most it may: a question that would goes in the next call', async () => {
    const { batch, calls } = doubling({ weigh: (q) => q, mostWeight: 10 });
    expect(await Promise.all([batch.ask(4), batch.ask(7), batch.ask(12), batch.ask(3)])).toEqual([
      8, 14, 24, 6,
    ]);
    // 4 + 7 would weigh 11; 12 is past the most on its own, and goes alone.
    expect(calls).toEqual([[4], [7], [12], [3]]);
  });
});
