import { describe, expect, it } from 'vitest';
import { Heap } from '../../src/lib/heap.js';
import { Random } from '../../src/lib/random.js';

describe('Heap', () => {
  it('gives its items back smallest first, however they were pushed, popped and replaced', () => {
    const random = new Random('heap');
    for (let run = 0; run < 50; run++) {
      const heap = new Heap<number>((a, b) => a < b);
      const model: number[] = [];
      for (let step = 0; step < 200; step++) {
        const value = random.int(0, 50);
        const move = random.next();
        if (move < 0.5) {
          heap.push(value);
          model.push(value);
        } else if (move < 0.75) {
          model.sort((a, b) => a - b);
          expect(heap.pop()).toBe(model.shift());
        } else {
          model.sort((a, b) => a - b);
          if (model.length > 0) model[0] = value;
          else model.push(value);
          heap.replaceTop(value);
        }
        expect(heap.size).toBe(model.length);
        expect(heap.peek()).toBe(model.length > 0 ? Math.min(...model) : undefined);
      }
      expect(heap.drain()).toEqual(model.sort((a, b) => a - b));
      expect(heap.size).toBe(0);
    }
  });
});
