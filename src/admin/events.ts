/**
 * Everything that happens in the simulator, as one stream of events for the control plane: the
 * live feed and the dashboard read it. A bounded history lets a new watcher catch up first.
 */
import type { FaultRecord } from '../chaos/fault-log.js';
import { faultBytes } from '../chaos/fault-log.js';
import { headersBytes } from '../lib/bytes.js';
import { merge } from '../lib/objects.js';
import type { Place } from '../domain/scope.js';
import { eventBytes } from '../domain/size.js';
import type { LoggedEvent } from '../domain/types.js';
import { deliveryBytes, type DeliveryRecord } from '../push/delivery-log.js';
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

/** What an event in the history costs beside its content: its slot, and the event made from it. */
export const EVENT_SLOT_BYTES = 200;

/** What the history may hold, approximately, in bytes (docs/limits.md). */
const DEFAULT_HISTORY_BYTES = 8 * 1024 ** 2;

const asIs: BodyMaker<SimEventBody, undefined> = (body) => body;

/**
 * Events as they happen, for the control plane. A simulator nobody watches pays no object per event:
 * the history is a ring of parallel arrays, overwritten in place, and events are made from it on
 * demand. (Per-event objects kept for 1,000 events outlived the young generation and became
 * old-space garbage: a major collection, and a pause, every few seconds under 10,000 events/s.)
 */
export class SimEventBus {
  private readonly makers: (BodyMaker<unknown, unknown> | undefined)[] = [];
  private readonly firsts: unknown[] = [];
  private readonly seconds: unknown[] = [];
  private readonly times: Float64Array;
  /** What each slot's event holds, approximately, in bytes. */
  private readonly weights: Float64Array;
  /** Events already made, by ring slot, so a watcher and the history share them. */
  private readonly made: (SimEvent | undefined)[] = [];
  /**
   * The newest `n` made from each value the history still holds events of, so that releasing one of
   * the many values with none (every evicted task but the last few) is one lookup, not a pass over
   * the history. It holds at most one entry per event in the history.
   */
  private readonly newest = new Map<unknown, number>();
  private counter = 0;
  /** The `n` of the oldest event the history holds. */
  private first = 1;
  private heldBytes = 0;
  private readonly listeners = new Set<(event: SimEvent) => void>();

  constructor(
    private readonly now: () => number,
    private readonly historySize = 1000,
    /** What the history may hold, approximately: a request's headers or a client's verdicts can be large. */
    readonly maxBytes = DEFAULT_HISTORY_BYTES,
  ) {
    this.times = new Float64Array(historySize);
    this.weights = new Float64Array(historySize);
  }

  /** Publishes `body`; its size is worked out here. */
  publish(body: SimEventBody): void;
  /**
   * Publishes the body `make(a, b)` makes when someone asks for it; `bytes`: what it holds that
   * nothing else counts (a task's event is the store's to count).
   */
  publish<A, B>(make: BodyMaker<A, B>, a: A, b: B, bytes: number): void;
  publish<A, B>(bodyOrMaker: SimEventBody | BodyMaker<A, B>, a?: A, b?: B, bytes?: number): void {
    const n = ++this.counter;
    if (n - this.first >= this.historySize) this.dropOldest();
    const slot = (n - 1) % this.historySize;
    let weight: number;
    if (typeof bodyOrMaker === 'function') {
      this.makers[slot] = bodyOrMaker as BodyMaker<unknown, unknown>;
      this.firsts[slot] = a;
      this.seconds[slot] = b;
      this.newest.set(a, n);
      weight = EVENT_SLOT_BYTES + bytes!;
    } else {
      this.makers[slot] = asIs as BodyMaker<unknown, unknown>;
      this.firsts[slot] = bodyOrMaker;
      this.seconds[slot] = undefined;
      weight = bodyBytes(bodyOrMaker);
    }
    this.times[slot] = this.now();
    this.made[slot] = undefined;
    this.weigh(slot, weight);
    this.keepWithinBudget();
    if (this.listeners.size === 0) return;
    const event = this.event(n);
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Lets go of `value` (an evicted task's record): the history's events made from it are made now,
   * through `keep`, which returns what the history may go on holding, and counted as the history's.
   * Without it, the history would keep evicted tasks, and their events, alive past the store's byte
   * budget.
   */
  release(value: unknown, keep: (body: SimEventBody) => SimEventBody): void {
    if (!this.newest.delete(value)) return;
    for (let n = this.first; n <= this.counter; n++) {
      const slot = (n - 1) % this.historySize;
      if (this.firsts[slot] !== value || this.makers[slot] === asIs) continue;
      const body = keep(this.makers[slot]!(this.firsts[slot], this.seconds[slot]));
      this.makers[slot] = asIs as BodyMaker<unknown, unknown>;
      this.firsts[slot] = body;
      this.seconds[slot] = undefined;
      this.made[slot] = undefined;
      this.weigh(slot, bodyBytes(body));
    }
    this.keepWithinBudget();
  }

  /** How many events the history holds. */
  get size(): number {
    return this.counter - this.first + 1;
  }

  /** What the history holds, approximately, in bytes. */
  get bytes(): number {
    return this.heldBytes;
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
    return [this.first, this.counter];
  }

  /** Event `n`, while the history still holds it. */
  at(n: number): SimEvent | undefined {
    return n >= this.first && n <= this.counter ? this.event(n) : undefined;
  }

  /** The most recent events, oldest first. */
  history(): SimEvent[] {
    const events: SimEvent[] = [];
    for (let n = this.first; n <= this.counter; n++) events.push(this.event(n));
    return events;
  }

  private weigh(slot: number, weight: number): void {
    this.heldBytes += weight - this.weights[slot]!;
    this.weights[slot] = weight;
  }

  /** The oldest events go while the history holds more than its budget; the newest stays. */
  private keepWithinBudget(): void {
    while (this.heldBytes > this.maxBytes && this.first < this.counter) this.dropOldest();
  }

  private dropOldest(): void {
    const n = this.first++;
    const slot = (n - 1) % this.historySize;
    const value = this.firsts[slot];
    if (this.makers[slot] !== asIs && this.newest.get(value) === n) this.newest.delete(value);
    this.makers[slot] = undefined;
    this.firsts[slot] = undefined;
    this.seconds[slot] = undefined;
    this.made[slot] = undefined;
    this.weigh(slot, 0);
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

/** What a body holds, approximately, in bytes: the strings its sender chose count whole. */
function bodyBytes(body: SimEventBody): number {
  switch (body.type) {
    case 'task:created':
      return EVENT_SLOT_BYTES + body.taskId.length + body.contextId.length + placeBytes(body);
    case 'task:event':
      return (
        EVENT_SLOT_BYTES +
        body.taskId.length +
        body.contextId.length +
        placeBytes(body) +
        eventBytes(body.event.event)
      );
    case 'stream:opened':
    case 'stream:closed':
      return EVENT_SLOT_BYTES + (body.taskId?.length ?? 0);
    case 'chaos:fault':
      return EVENT_SLOT_BYTES + faultBytes(body.fault);
    case 'push:attempt':
      return EVENT_SLOT_BYTES + deliveryBytes(body.delivery);
    case 'request:received':
      return EVENT_SLOT_BYTES + requestEventBytes(body.request.path, body.request.headers);
    case 'verdict:changed':
      return EVENT_SLOT_BYTES + verdictsBytes(body.verdicts);
  }
}

/** What a request's event holds beside its slot: what arrived, as the client sent it. */
export const requestEventBytes = (path: string, headers: Record<string, string>): number =>
  path.length + headersBytes(headers);

const placeBytes = ({ agent, workspace, tenant }: Place): number =>
  (agent?.length ?? 0) + (workspace?.length ?? 0) + (tenant?.length ?? 0);

/** A client's verdicts: the rules' texts are shared; its name and the evidence are its own. */
function verdictsBytes({ client, verdicts }: ClientVerdicts): number {
  let bytes = client.length;
  for (const verdict of verdicts) {
    bytes += 100;
    // Advice names the bindings it rests on: a string of its own.
    if (verdict.outcome === 'advice') bytes += verdict.source.length;
    for (const evidence of verdict.evidence)
      bytes += 100 + evidence.detail.length + (evidence.taskId?.length ?? 0);
  }
  return bytes;
}
