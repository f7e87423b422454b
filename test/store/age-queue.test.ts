import { describe, expect, it } from 'vitest';
import { AgeQueue } from '../../src/store/age-queue.js';

const entries = (queue: AgeQueue) => [...queue.entries()];

describe('AgeQueue', () => {
  it('reads keys oldest first, skipping those deleted', () => {
    const queue = new AgeQueue();
    queue.set('a', 1);
    queue.set('b', 2);
    queue.set('c', 3);
    queue.delete('a');
    expect(queue.oldest()).toEqual(['b', 2]);
    queue.delete('c');
    expect(entries(queue)).toEqual([['b', 2]]);
    expect(queue.size).toBe(1);
    expect(queue.has('c')).toBe(false);
  });

  it('moves a key set again to the back, with its new time', () => {
    const queue = new AgeQueue();
    queue.set('a', 1);
    queue.set('b', 2);
    queue.set('a', 2);
    expect(entries(queue)).toEqual([
      ['b', 2],
      ['a', 2],
    ]);
    expect(queue.size).toBe(2);
  });

  it('may be deleted from while it is read', () => {
    const queue = new AgeQueue();
    for (let i = 0; i < 10; i++) queue.set(`k${i}`, i);
    const read: string[] = [];
    for (const [key] of queue.entries()) {
      read.push(key);
      queue.delete(key);
      queue.delete(`k${Number(key.slice(1)) + 1}`);
    }
    expect(read).toEqual(['k0', 'k2', 'k4', 'k6', 'k8']);
    expect(queue.size).toBe(0);
  });

  it('keeps its order through rebuilds while it is read from the front and added to at the back', () => {
    const queue = new AgeQueue();
    const model: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      queue.set(`k${i}`, i);
      model.push(`k${i}`);
      if (i % 3 === 0) {
        // a task removed out of order, as a reset or an eviction by bytes does
        const victim = model.splice(Math.floor(model.length / 2), 1)[0]!;
        queue.delete(victim);
      }
      if (model.length > 1000) {
        const [oldest] = queue.oldest()!;
        expect(oldest).toBe(model[0]);
        queue.delete(oldest);
        model.shift();
      }
    }
    expect(entries(queue).map(([key]) => key)).toEqual(model);
  });

  it('holds no more than about twice its live keys', () => {
    const queue = new AgeQueue();
    for (let i = 0; i < 100_000; i++) {
      queue.set(`k${i}`, i);
      if (i >= 10) queue.delete(queue.oldest()![0]);
    }
    expect(queue.size).toBe(10);
    expect(queue.held).toBeLessThanOrEqual(1024 + 2 * 10);
  });
});
