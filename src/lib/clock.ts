/**
 * The only place that reads wall-clock time or arms Node timers.
 *
 * Every delay in the simulator goes through one {@link Clock}: real time for users, a
 * {@link VirtualClock} for tests (advance, never sleep). Both share one scheduler, a binary heap
 * driven by a single underlying timer, so thousands of running tasks and open streams cost one
 * Node timer, not one each.
 */
import { MAX_DURATION_MS } from './duration.js';
import { Heap } from './heap.js';

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once, `delayMs` from now. Callbacks due at the same instant run in scheduling order. */
  setTimer(delayMs: number, fn: () => void): Timer;
}

/** A delay as the queue orders it: NaN, which no comparison orders, or a negative delay is "now". */
function delayOf(delayMs: number): number {
  return delayMs > 0 ? delayMs : 0;
}

/** A scheduled callback, and the handle that cancels it: one object per timer, nothing else. */
class Entry implements Timer {
  constructor(
    readonly at: number,
    readonly order: number,
    public fn: (() => void) | null,
    private readonly queue: TimerQueue,
  ) {}

  cancel(): void {
    if (this.fn) {
      this.fn = null;
      this.queue.forget();
    }
  }
}

/** Timer entries, the earliest due first (by due time, then scheduling order). */
class TimerQueue {
  private readonly heap = new Heap<Entry>((a, b) => a.at < b.at || (a.at === b.at && a.order < b.order));
  private nextOrder = 0;
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(at: number, fn: () => void): Timer {
    const entry = new Entry(at, this.nextOrder++, fn, this);
    this.heap.push(entry);
    this.live++;
    return entry;
  }

  /** A timer was cancelled; its entry leaves the heap when it reaches the top. */
  forget(): void {
    this.live--;
  }

  /** Due time of the earliest live entry, or undefined when empty. */
  peekAt(): number | undefined {
    this.dropCancelled();
    return this.heap.peek()?.at;
  }

  /** Removes and returns the earliest live entry if it is due at or before `time`. */
  popDue(time: number): (() => void) | undefined {
    this.dropCancelled();
    const head = this.heap.peek();
    if (!head || head.at > time) return undefined;
    this.heap.pop();
    const fn = head.fn!;
    head.fn = null;
    this.live--;
    return fn;
  }

  private dropCancelled(): void {
    while (this.heap.peek()?.fn === null) this.heap.pop();
  }
}

/** Wall-clock time; one Node timer armed for the earliest due entry. */
export class RealClock implements Clock {
  private readonly queue = new TimerQueue();
  private armed: { at: number; handle: NodeJS.Timeout } | null = null;

  now(): number {
    return Date.now();
  }

  setTimer(delayMs: number, fn: () => void): Timer {
    const timer = this.queue.push(this.now() + delayOf(delayMs), fn);
    this.arm();
    return timer;
  }

  private arm(): void {
    const at = this.queue.peekAt();
    if (at === undefined) {
      if (this.armed) clearTimeout(this.armed.handle);
      this.armed = null;
      return;
    }
    if (this.armed && this.armed.at <= at) return;
    if (this.armed) clearTimeout(this.armed.handle);
    // Node fires a timer longer than MAX_DURATION_MS after 1 ms: that would re-arm every millisecond
    // until the entry fell due. Capped, the timer fires early, finds nothing due, and re-arms.
    const handle = setTimeout(() => this.fire(), Math.min(MAX_DURATION_MS, Math.max(0, at - this.now())));
    // Scheduled scenario steps alone must not keep a process alive; the server's socket does.
    handle.unref();
    this.armed = { at, handle };
  }

  private fire(): void {
    this.armed = null;
    const now = this.now();
    for (let fn = this.queue.popDue(now); fn; fn = this.queue.popDue(now)) fn();
    this.arm();
  }
}

/**
 * Time that moves only when told to. Tests call {@link advance}; nothing ever waits on the wall clock.
 *
 * @example
 * const clock = new VirtualClock();
 * clock.setTimer(500, () => console.log('fired'));
 * clock.advance(500); // prints "fired"
 */
export class VirtualClock implements Clock {
  /** 2026-01-01T00:00:00.000Z: a fixed origin so timestamps in transcripts are reproducible. */
  static readonly DEFAULT_START = Date.UTC(2026, 0, 1);

  private current: number;
  private readonly queue = new TimerQueue();

  constructor(startMs: number = VirtualClock.DEFAULT_START) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(delayMs: number, fn: () => void): Timer {
    return this.queue.push(this.current + delayOf(delayMs), fn);
  }

  /** Number of timers waiting to fire. */
  get pending(): number {
    return this.queue.size;
  }

  /** Due time of the next timer, if any. */
  nextAt(): number | undefined {
    return this.queue.peekAt();
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`Failed to advance the clock: ${ms} is not a non-negative number.`);
    const target = this.current + ms;
    for (;;) {
      const at = this.queue.peekAt();
      if (at === undefined || at > target) break;
      this.current = Math.max(this.current, at);
      this.queue.popDue(this.current)!();
    }
    this.current = target;
  }
}

// The machine's own time, for what happens between processes: leases that other replicas must
// see lapse, and retries against a store that went away. Never a Clock, which may be virtual and
// stand still while a test looks at a task.

/** Epoch milliseconds, as every process on the machine reads them. */
export function wallNow(): number {
  return Date.now();
}

/** Calls `tick` every `ms` until the returned function is called; never keeps the process alive. */
export function every(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** Resolves after `ms`; never keeps the process alive. */
export function wallDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Calls `expire` after `ms` unless the returned function is called first; never keeps the process alive. */
export function deadline(ms: number, expire: () => void): () => void {
  const timer = setTimeout(expire, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
