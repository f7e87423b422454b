/**
 * Everything that happens in the simulator, as one stream of events for the control plane: the
 * live feed and the dashboard read it. A bounded history lets a new watcher catch up first.
 */
import type { FaultRecord } from '../chaos/fault-log.js';
import { merge } from '../lib/objects.js';
import type { Place } from '../domain/scope.js';
import type { LoggedEvent } from '../domain/types.js';
import type { DeliveryRecord } from '../push/delivery-log.js';
import type { ClientVerdicts } from '../verdicts/judge.js';
import type { JournalEntry } from './journal.js';

export type SimEventBody =
  | ({ type: 'task:created'; taskId: string; contextId: string; scenario: string } & Place)
  | ({ type: 'task:event'; taskId: string; contextId: string; event: LoggedEvent } & Place)
  | { type: 'stream:opened' | 'stream:closed'; request: number; taskId?: string }
  | { type: 'chaos:fault'; fault: FaultRecord }
  | { type: 'push:attempt'; delivery: DeliveryRecord }
  | { type: 'request:received'; request: JournalEntry }
  | { type: 'verdict:changed'; verdicts: ClientVerdicts };

/** One event: `n` orders them, `at` is clock time (ISO 8601). */
export type SimEvent = SimEventBody & { n: number; at: string };

/**
 * How to make an event's body from two values, called only if a watcher is listening or reads the
 * history. It must give the same body whenever it is called: build it from values that do not change.
 */
type BodyMaker<A, B> = (a: A, b: B) => SimEventBody;

const asIs: BodyMaker<SimEventBody, undefined> = (body) => body;

/**
 * Events as they happen, for the control plane. A simulator nobody watches pays no object per event:
 * the history is a ring of parallel arrays, overwritten in place, and events are made from it on
 * demand. (Per-event objects kept for 1,000 events outlived the young generation and became
 * old-space garbage: a major collection, and a pause, every few seconds under 10,000 events/s.)
 */
export class SimEventBus {
  private readonly makers: BodyMaker<unknown, unknown>[] = [];
  private readonly firsts: unknown[] = [];
  private readonly seconds: unknown[] = [];
  private readonly times: Float64Array;
  /** Events already made, by ring slot, so a watcher and the history share them. */
  private readonly made: (SimEvent | undefined)[] = [];
  /**
   * The newest `n` made from each value the history still holds events of, so that releasing one of
   * the many values with none (every evicted task but the last few) is one lookup, not a pass over
   * the history. It holds at most one entry per event in the history.
   */
  private readonly newest = new Map<unknown, number>();
  private counter = 0;
  private readonly listeners = new Set<(event: SimEvent) => void>();

  constructor(
    private readonly now: () => number,
    private readonly historySize = 1000,
  ) {
    this.times = new Float64Array(historySize);
  }

  /** Publishes `body`, or the body `make(a, b)` makes when someone asks for it. */
  publish(body: SimEventBody): void;
  publish<A, B>(make: BodyMaker<A, B>, a: A, b: B): void;
  publish<A, B>(bodyOrMaker: SimEventBody | BodyMaker<A, B>, a?: A, b?: B): void {
    const n = ++this.counter;
    const slot = (n - 1) % this.historySize;
    const dropped = this.firsts[slot];
    if (dropped !== undefined && this.newest.get(dropped) === n - this.historySize)
      this.newest.delete(dropped);
    if (typeof bodyOrMaker === 'function') {
      this.makers[slot] = bodyOrMaker as BodyMaker<unknown, unknown>;
      this.firsts[slot] = a;
      this.seconds[slot] = b;
      this.newest.set(a, n);
    } else {
      this.makers[slot] = asIs as BodyMaker<unknown, unknown>;
      this.firsts[slot] = bodyOrMaker;
      this.seconds[slot] = undefined;
    }
    this.times[slot] = this.now();
    this.made[slot] = undefined;
    if (this.listeners.size === 0) return;
    const event = this.event(n);
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Lets go of `value` (an evicted task's record): the history's events made from it are made now,
   * through `keep`, which returns what the history may go on holding. Without it, the history
   * would keep evicted tasks, and their events, alive past the store's byte budget.
   */
  release(value: unknown, keep: (body: SimEventBody) => SimEventBody): void {
    if (!this.newest.delete(value)) return;
    for (let slot = 0; slot < this.makers.length; slot++) {
      if (this.firsts[slot] !== value || this.makers[slot] === asIs) continue;
      const body = this.makers[slot]!(this.firsts[slot], this.seconds[slot]);
      this.makers[slot] = asIs as BodyMaker<unknown, unknown>;
      this.firsts[slot] = keep(body);
      this.seconds[slot] = undefined;
      this.made[slot] = undefined;
    }
  }

  /** How many events the history holds. */
  get size(): number {
    return Math.min(this.counter, this.historySize);
  }

  /** Whether anyone watches now (what is costly to say can wait until someone does). */
  get watched(): boolean {
    return this.listeners.size > 0;
  }

  subscribe(listener: (event: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The `n` of the oldest and the newest event the history holds (`[1, 0]` when empty). */
  get span(): [first: number, last: number] {
    return [Math.max(1, this.counter - this.historySize + 1), this.counter];
  }

  /** Event `n`, while the history still holds it. */
  at(n: number): SimEvent | undefined {
    const [first, last] = this.span;
    return n >= first && n <= last ? this.event(n) : undefined;
  }

  /** The most recent events, oldest first. */
  history(): SimEvent[] {
    const events: SimEvent[] = [];
    for (let n = Math.max(1, this.counter - this.historySize + 1); n <= this.counter; n++) {
      events.push(this.event(n));
    }
    return events;
  }

  private event(n: number): SimEvent {
    const slot = (n - 1) % this.historySize;
    let event = this.made[slot];
    if (!event) {
      const body = this.makers[slot]!(this.firsts[slot], this.seconds[slot]);
      event = merge(body, { n, at: new Date(this.times[slot]!).toISOString() }) as SimEvent;
      this.made[slot] = event;
    }
    return event;
  }
}
