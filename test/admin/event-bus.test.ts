import { describe, expect, it } from 'vitest';
import { EVENT_SLOT_BYTES, SimEventBus, type SimEventBody } from '../../src/admin/events.js';

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
    bus.publish(make, a, 1, 0);
    bus.publish(make, b, 2, 0);
    bus.publish(make, a, 3, 0);
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
    bus.publish(make, old, 1, 0);
    for (let i = 0; i < 4; i++) bus.publish(make, { id: `new-${i}` }, i, 0);
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
    bus.publish(make, a, 1, 0);
    bus.publish(make, { id: 'b' }, 2, 0);
    bus.publish(make, a, 3, 0);
    bus.publish(make, { id: 'c' }, 4, 0); // the first event of a leaves
    bus.release(a, keepNothing);
    expect(bus.history().map((e) => (e as { taskId?: string }).taskId)).toEqual(['b', 'released', 'c']);
    bus.release(a, () => {
      throw new Error('released twice');
    });
  });
});

/** A body of its own whose size is the length of its task id, plus the slot's. */
const sized = (request: number, chars: number): SimEventBody => ({
  type: 'stream:opened',
  request,
  taskId: 'x'.repeat(chars),
});

describe('SimEventBus byte budget', () => {
  it('keeps what its history holds within maxBytes, the oldest going first', () => {
    const bus = new SimEventBus(() => 0, 10, 3 * (EVENT_SLOT_BYTES + 300));
    for (let i = 1; i <= 5; i++) bus.publish(sized(i, 300));
    expect(bus.size).toBe(3);
    expect(bus.bytes).toBe(3 * (EVENT_SLOT_BYTES + 300));
    expect(bus.span).toEqual([3, 5]);
    expect(bus.at(2)).toBeUndefined();
    expect(bus.history().map((e) => e.n)).toEqual([3, 4, 5]);
  });

  it('keeps the newest event whatever its size, and counts it', () => {
    const bus = new SimEventBus(() => 0, 10, 1000);
    bus.publish(sized(1, 10));
    bus.publish(sized(2, 5000));
    expect(bus.history().map((e) => e.n)).toEqual([2]);
    expect(bus.bytes).toBe(EVENT_SLOT_BYTES + 5000);
  });

  it('gives back what an event overwritten by the ring held', () => {
    const bus = new SimEventBus(() => 0, 4, 1024 ** 2);
    for (let i = 1; i <= 4; i++) bus.publish(sized(i, 1000));
    for (let i = 5; i <= 8; i++) bus.publish(sized(i, 10));
    expect(bus.span).toEqual([5, 8]);
    expect(bus.bytes).toBe(4 * (EVENT_SLOT_BYTES + 10));
  });

  it("counts a released value's kept bodies as the history's, within the budget", () => {
    const bus = new SimEventBus(() => 0, 10, 3 * (EVENT_SLOT_BYTES + 1000));
    const { make } = taskEvents();
    const a = { id: 'a' };
    // A task's events are the store's to count while it keeps the task: the slot only.
    for (let i = 1; i <= 5; i++) bus.publish(make, a, i, 0);
    expect(bus.bytes).toBe(5 * EVENT_SLOT_BYTES);
    // Released, what the history keeps of each is its own: three fit.
    bus.release(a, (body) => ({ ...body, taskId: 'y'.repeat(1000) }) as SimEventBody);
    expect(bus.span).toEqual([3, 5]);
    expect(bus.bytes).toBe(3 * (EVENT_SLOT_BYTES + 1000));
    expect(bus.history().every((e) => (e as { taskId?: string }).taskId === 'y'.repeat(1000))).toBe(true);
  });
});
