/**
 * The clock: a virtual clock that only moves when advanced, and the real clock checked only through
 * 0 ms timers, so no test ever waits on the wall clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealClock, VirtualClock } from '../../src/lib/clock.js';
import { MAX_DURATION_MS } from '../../src/lib/duration.js';

/** Schedules a timer that records `label` and the clock time it fired at. */
function recorder(clock: VirtualClock) {
  const fired: { label: string; at: number }[] = [];
  const schedule = (delayMs: number, label: string, then?: () => void) =>
    clock.setTimer(delayMs, () => {
      fired.push({ label, at: clock.now() });
      then?.();
    });
  return { fired, schedule, labels: () => fired.map((f) => f.label) };
}

describe('VirtualClock', () => {
  it('starts at 2026-01-01T00:00:00Z by default, or at the given time', () => {
    expect(new VirtualClock().now()).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(new VirtualClock(42).now()).toBe(42);
  });

  it('fires timers in due-time order, whatever order they were scheduled in', () => {
    const clock = new VirtualClock(0);
    const { fired, schedule } = recorder(clock);
    schedule(300, 'c');
    schedule(100, 'a');
    schedule(200, 'b');
    clock.advance(1000);
    expect(fired).toEqual([
      { label: 'a', at: 100 },
      { label: 'b', at: 200 },
      { label: 'c', at: 300 },
    ]);
    expect(clock.now()).toBe(1000);
  });

  it('fires timers due at the same instant in scheduling order, even among many', () => {
    const clock = new VirtualClock(0);
    const { labels, schedule } = recorder(clock);
    // 200 timers over 7 distinct due times, scheduled out of time order.
    const delays = Array.from({ length: 200 }, (_, i) => ((i * 5) % 7) * 10);
    delays.forEach((delay, i) => schedule(delay, String(i)));
    clock.advance(100);
    const expected = delays
      .map((delay, i) => ({ delay, i }))
      .sort((a, b) => a.delay - b.delay || a.i - b.i)
      .map(({ i }) => String(i));
    expect(labels()).toEqual(expected);
  });

  it('fires a timer due exactly at the target time, but none after it', () => {
    const clock = new VirtualClock(0);
    const { labels, schedule } = recorder(clock);
    schedule(500, 'on-time');
    schedule(501, 'late');
    clock.advance(500);
    expect(labels()).toEqual(['on-time']);
    expect(clock.now()).toBe(500);
    clock.advance(1);
    expect(labels()).toEqual(['on-time', 'late']);
  });

  it('never fires a timer synchronously inside setTimer, even with a 0 ms or negative delay', () => {
    const clock = new VirtualClock(0);
    const { labels, schedule } = recorder(clock);
    schedule(0, 'zero');
    schedule(-50, 'negative');
    expect(labels()).toEqual([]);
    expect(clock.nextAt()).toBe(0);
    clock.advance(0);
    expect(labels()).toEqual(['zero', 'negative']);
    expect(clock.now()).toBe(0);
  });

  it('reports the pending count and the next due time', () => {
    const clock = new VirtualClock(1000);
    expect(clock.pending).toBe(0);
    expect(clock.nextAt()).toBeUndefined();

    clock.setTimer(250, () => {});
    clock.setTimer(100, () => {});
    expect(clock.pending).toBe(2);
    expect(clock.nextAt()).toBe(1100);

    clock.advance(100);
    expect(clock.pending).toBe(1);
    expect(clock.nextAt()).toBe(1250);

    clock.advance(150);
    expect(clock.pending).toBe(0);
    expect(clock.nextAt()).toBeUndefined();
  });

  it('does not fire a cancelled timer, and drops it from pending and nextAt', () => {
    const clock = new VirtualClock(0);
    const { labels, schedule } = recorder(clock);
    const first = schedule(100, 'cancelled');
    schedule(200, 'kept');
    first.cancel();
    expect(clock.pending).toBe(1);
    expect(clock.nextAt()).toBe(200);
    clock.advance(1000);
    expect(labels()).toEqual(['kept']);
  });

  it('counts a timer once however often it is cancelled, and cancelling after it fired is a no-op', () => {
    const clock = new VirtualClock(0);
    const fired = clock.setTimer(10, () => {});
    const waiting = clock.setTimer(20, () => {});
    clock.setTimer(30, () => {});
    clock.advance(10);
    fired.cancel();
    expect(clock.pending).toBe(2);
    waiting.cancel();
    waiting.cancel();
    expect(clock.pending).toBe(1);
    expect(clock.nextAt()).toBe(30);
  });

  it('skips a timer cancelled by another timer firing at the same instant', () => {
    const clock = new VirtualClock(0);
    const { labels, schedule } = recorder(clock);
    let victim: { cancel(): void } | undefined;
    schedule(100, 'canceller', () => victim?.cancel());
    victim = schedule(100, 'victim');
    clock.advance(100);
    expect(labels()).toEqual(['canceller']);
    expect(clock.pending).toBe(0);
  });

  it('fires a 0 ms timer scheduled from a firing timer in the same advance, after the others due then', () => {
    const clock = new VirtualClock(0);
    const { fired, schedule } = recorder(clock);
    schedule(100, 'a', () => schedule(0, 'a-child'));
    schedule(100, 'b');
    clock.advance(100);
    expect(fired).toEqual([
      { label: 'a', at: 100 },
      { label: 'b', at: 100 },
      { label: 'a-child', at: 100 },
    ]);
    expect(clock.pending).toBe(0);
  });

  it('fires a timer scheduled from a firing timer at its own due time within the same advance', () => {
    const clock = new VirtualClock(0);
    const { fired, schedule } = recorder(clock);
    schedule(100, 'parent', () => {
      schedule(50, 'child');
      schedule(1000, 'too-late');
    });
    schedule(200, 'later');
    clock.advance(300);
    expect(fired).toEqual([
      { label: 'parent', at: 100 },
      { label: 'child', at: 150 },
      { label: 'later', at: 200 },
    ]);
    expect(clock.pending).toBe(1);
    expect(clock.nextAt()).toBe(1100);
  });

  it('runs a self-rescheduling timer once per period across one long advance', () => {
    const clock = new VirtualClock(0);
    const ticks: number[] = [];
    const tick = () => {
      ticks.push(clock.now());
      clock.setTimer(10, tick);
    };
    clock.setTimer(10, tick);
    clock.advance(50);
    expect(ticks).toEqual([10, 20, 30, 40, 50]);
  });

  it.each([-1, Number.NaN])('refuses to advance by %s', (ms) => {
    const clock = new VirtualClock(0);
    expect(() => clock.advance(ms)).toThrow(RangeError);
    expect(clock.now()).toBe(0);
  });
});

describe('RealClock', () => {
  it('reads wall-clock time', () => {
    const before = Date.now();
    const now = new RealClock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('fires a 0 ms timer asynchronously, not inside setTimer', async () => {
    const clock = new RealClock();
    let fired = false;
    const done = new Promise<void>((resolve) =>
      clock.setTimer(0, () => {
        fired = true;
        resolve();
      }),
    );
    expect(fired).toBe(false);
    await done;
    expect(fired).toBe(true);
  });

  it('fires 0 ms timers in scheduling order and skips a cancelled one', async () => {
    const clock = new RealClock();
    const order: string[] = [];
    clock.setTimer(0, () => order.push('first'));
    clock.setTimer(-10, () => order.push('cancelled')).cancel();
    await new Promise<void>((resolve) =>
      clock.setTimer(0, () => {
        order.push('last');
        resolve();
      }),
    );
    expect(order).toEqual(['first', 'last']);
  });
});

describe('RealClock: delays past what a Node timer can wait', () => {
  // The spy first (it wraps the fake setTimeout), then the fake timers: in the other order, a
  // worker's later test files would keep a setTimeout that never fires.
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  /** The delays the clock hands to setTimeout, on fake timers (nothing waits); a busy loop fails fast. */
  function armedDelays(): number[] {
    vi.useFakeTimers();
    const delays: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
      delays.push(ms);
      if (delays.length > 100)
        throw new Error(`the clock re-armed ${delays.length} times: ${delays.slice(-3)}`);
      return real(fn, ms);
    }) as typeof setTimeout);
    return delays;
  }

  it('arms at most MAX_DURATION_MS and re-arms when that fires early, instead of every millisecond', () => {
    const delays = armedDelays();
    const clock = new RealClock();
    let fired = false;
    clock.setTimer(MAX_DURATION_MS * 2 + 5, () => (fired = true));
    vi.advanceTimersByTime(1000);
    expect(delays).toEqual([MAX_DURATION_MS]);
    vi.advanceTimersByTime(MAX_DURATION_MS);
    expect(fired).toBe(false);
    expect(delays).toHaveLength(2);
    vi.advanceTimersByTime(MAX_DURATION_MS + 5);
    expect(fired).toBe(true);
    expect(delays.every((ms) => ms <= MAX_DURATION_MS)).toBe(true);
  });

  it('never fires a timer due at Infinity, nor spins on it, and still fires the ones before it', () => {
    const delays = armedDelays();
    const clock = new RealClock();
    const fired: string[] = [];
    clock.setTimer(Number.POSITIVE_INFINITY, () => fired.push('never'));
    clock.setTimer(10, () => fired.push('soon'));
    vi.advanceTimersByTime(3 * MAX_DURATION_MS);
    expect(fired).toEqual(['soon']);
    expect(delays.length).toBeLessThan(10);
  });
});

describe('either clock: delays that are not numbers of milliseconds', () => {
  it.each([Number.NaN, -5])('runs a timer of %s ms as a timer of 0 ms, in order', (ms) => {
    const clock = new VirtualClock(0);
    const order: string[] = [];
    clock.setTimer(1, () => order.push('later'));
    clock.setTimer(ms, () => order.push('now'));
    clock.advance(0);
    expect(order).toEqual(['now']);
    clock.advance(1);
    expect(order).toEqual(['now', 'later']);
  });
});
