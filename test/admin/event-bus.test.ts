import { describe, expect, it } from 'vitest';
import { SimEventBus, type SimEventBody } from '../../src/admin/events.js';

/** A task-like value and a maker that counts the bodies it makes from it. */
function taskEvents() {
  let made = 0;
  const make = (task: { id: string }, step: number): SimEventBody => {
    made++;
    return { type: 'stream:opened', request: step, taskId: task.id };
  };
  return { make, made: () => made };
}

const keepNothing = (body: SimEventBody): SimEventBody => ({ ...body, taskId: 'released' }) as SimEventBody;

describe('SimEventBus.release', () => {
  it("makes the released value's events in the history now, through keep", () => {
    const bus = new SimEventBus(() => 0, 10);
    const { make } = taskEvents();
    const a = { id: 'a' };
    const b = { id: 'b' };
    bus.publish(make, a, 1);
    bus.publish(make, b, 2);
    bus.publish(make, a, 3);
    bus.release(a, keepNothing);
    expect(bus.history().map((e) => [e.n, (e as { taskId?: string }).taskId])).toEqual([
      [1, 'released'],
      [2, 'b'],
      [3, 'released'],
    ]);
  });

  it('makes nothing for a value whose events have all left the history', () => {
    const bus = new SimEventBus(() => 0, 4);
    const { make, made } = taskEvents();
    const old = { id: 'old' };
    bus.publish(make, old, 1);
    for (let i = 0; i < 4; i++) bus.publish(make, { id: `new-${i}` }, i);
    bus.release(old, keepNothing);
    expect(made()).toBe(0);
    expect(bus.history().map((e) => (e as { taskId?: string }).taskId)).toEqual([
      'new-0',
      'new-1',
      'new-2',
      'new-3',
    ]);
  });

  it('still finds a value whose older events left the history but whose newest did not', () => {
    const bus = new SimEventBus(() => 0, 3);
    const { make } = taskEvents();
    const a = { id: 'a' };
    bus.publish(make, a, 1);
    bus.publish(make, { id: 'b' }, 2);
    bus.publish(make, a, 3);
    bus.publish(make, { id: 'c' }, 4); // the first event of a leaves
    bus.release(a, keepNothing);
    expect(bus.history().map((e) => (e as { taskId?: string }).taskId)).toEqual(['b', 'released', 'c']);
    bus.release(a, () => {
      throw new Error('released twice');
    });
  });
});
