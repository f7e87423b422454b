/** The slots deliveries take to go on the wire: a total, a per-host limit, and who waits for them. */
import { describe, expect, it } from 'vitest';
import { DeliverySlots } from '../../src/push/slots.js';

describe('DeliverySlots', () => {
  it('grants up to the total and per host, then one waiting delivery per slot given back', async () => {
    const slots = new DeliverySlots(3, 2);
    const a1 = (await slots.take('a'))!;
    await slots.take('a');
    const a3 = slots.take('a');
    const b1 = (await slots.take('b'))!;
    const c1 = slots.take('c');
    expect([slots.active, slots.activeFor('a'), slots.queued]).toEqual([3, 2, 2]);

    // A slot of `a` frees: `a` is at its limit no more, but `a3` waited first, so it gets it.
    a1();
    a1(); // a second release is ignored
    expect(await a3).toBeTypeOf('function');
    expect([slots.active, slots.activeFor('a'), slots.queued]).toEqual([3, 2, 1]);
    // A slot of `b` frees: `c` takes it.
    b1();
    expect(await c1).toBeTypeOf('function');
    expect([slots.active, slots.activeFor('c'), slots.queued]).toEqual([3, 1, 0]);
  });

  it('lets a host at its limit hold up no other host', async () => {
    const slots = new DeliverySlots(10, 1);
    await slots.take('slow');
    void slots.take('slow');
    expect(await slots.take('fast')).toBeTypeOf('function');
    expect(slots.queued).toBe(1);
  });

  it('forgets a waiting delivery whose signal aborts', async () => {
    const slots = new DeliverySlots(1, 1);
    const held = (await slots.take('a'))!;
    const abort = new AbortController();
    const waiting = slots.take('a', abort.signal);
    abort.abort();
    expect(await waiting).toBeUndefined();
    expect(slots.queued).toBe(0);
    held();
    expect(slots.active).toBe(0);
  });
});
