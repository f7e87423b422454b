/**
 * Stream chaos for one connection: latency, jitter, cut connections, duplicated events and protocol
 * quirks between a task's stream and the wire. Only what this client sees changes; the task's log is
 * untouched, so resubscribing with `afterSeq` always recovers.
 *
 * Every chance an item is exposed to is drawn when the item arrives, in arrival order (jitter, then
 * drop, then duplicate), so a seed names the same faults at the same events however delivery
 * interleaves with arrival on a real clock.
 */
import type { A2AError } from '../domain/errors.js';
import { isTerminal } from '../domain/lifecycle.js';
import type { Task, TaskState } from '../domain/types.js';
import { sampleDelay } from '../lib/delay.js';
import type { Clock, Timer } from '../lib/clock.js';
import { isoTime } from '../lib/iso-time.js';
import type { Random } from '../lib/random.js';
import type { StreamItem, TaskStream } from '../runtime/stream.js';
import type { DataItem, WireItem, WireSink, WireStream } from '../calls/wire.js';
import type { FaultKind } from './fault-log.js';
import type { ChaosPlan } from './plan.js';
import type { Quirk } from './profile.js';

export interface StreamChaosDeps {
  clock: Clock;
  /** The seeded chaos stream for this connection (already forked per connection). */
  random: Random;
  /** Records one injected fault; the caller fills profile, request and time. */
  record(fault: {
    kind: FaultKind;
    detail: Record<string, string | number>;
    taskId?: string;
    seq?: number;
  }): void;
  /** The task as it is now, for the `final-snapshot` quirk (undefined for message streams). */
  currentTask?(): Task | undefined;
}

type EventItem = Extract<WireItem, { kind: 'event' }>;
type DropReason = 'after-events' | 'after-ms' | 'probability';

/** An item from the inner stream, its chances already drawn, waiting for its delivery time. */
type Queued =
  | { kind: 'item'; item: StreamItem; at: number; jitterMs: number; drop: boolean; duplicate: boolean }
  | { kind: 'end'; at: number; error?: A2AError };

/**
 * Wraps `inner` so that its items meet the plan's stream faults, each one reported to `deps.record`.
 * Returns `inner` itself when the plan has nothing for streams.
 *
 * @example
 * const stream = chaoticStream(followTask(record, options), plan, {
 *   clock, random: new Random(`${seed}/chaos/stream-${n}`), record: (fault) => faults.record({ ...fault, profile, at }),
 * });
 * pipeToSse(res, stream, { keepAlive, encoding, report, exchange });
 */
export function chaoticStream(inner: TaskStream, plan: ChaosPlan, deps: StreamChaosDeps): WireStream {
  const quiet = !plan.firstByte && !plan.perEvent && !plan.drop && !plan.duplicate && plan.quirks.size === 0;
  return quiet ? inner : new ChaoticStream(inner, plan, deps);
}

class ChaoticStream implements WireStream {
  readonly holdsHeaders: boolean;
  readonly taskId: string | undefined;
  private sink: WireSink | undefined;
  private done = false;
  /** Whether headers went out: a `fin` drop must not look like an end before any byte (an eviction). */
  private opened = false;
  private firstByteTimer: Timer | undefined;
  private dropTimer: Timer | undefined;
  private deliveryTimer: Timer | undefined;
  private delivering = false;
  private readonly queue: Queued[] = [];
  /** Data items delivered from the inner stream (not quirks, not copies): what drops count. */
  private delivered = 0;
  private lastSeq = 0;
  /** The task the items are about, for the records of a stream that does not name one itself. */
  private seenTaskId: string | undefined;
  /** Whether the `unknown-state` quirk is still to be sent on this stream. */
  private unknownStateDue: boolean;
  /** Whether the `skip-generation` quirk is still to hold back an event of this stream. */
  private skipDue: boolean;
  /** Late duplicates, each sent once `remaining` more events have been delivered. */
  private copies: { item: EventItem; remaining: number }[] = [];

  constructor(
    private readonly inner: TaskStream,
    private readonly plan: ChaosPlan,
    private readonly deps: StreamChaosDeps,
  ) {
    this.holdsHeaders = plan.firstByte !== undefined;
    this.taskId = inner.taskId;
    this.unknownStateDue = plan.quirks.has('unknown-state');
    this.skipDue = plan.quirks.has('skip-generation');
  }

  start(sink: WireSink): void {
    this.sink = sink;
    const ms = this.plan.firstByte ? sampleDelay(this.plan.firstByte, this.deps.random) : 0;
    if (ms <= 0) return this.begin();
    this.firstByteTimer = this.deps.clock.setTimer(ms, () => {
      this.firstByteTimer = undefined;
      this.record('delay', { where: 'first-byte', ms });
      this.begin();
    });
  }

  stop(): void {
    this.close();
    this.inner.stop();
  }

  /** Headers out, the drop clock running, then the inner stream. */
  private begin(): void {
    if (this.holdsHeaders) this.markOpen();
    const drop = this.plan.drop;
    if (drop?.afterEvents === 0) return this.drop('after-events');
    if (drop?.afterMs !== undefined) {
      this.dropTimer = this.deps.clock.setTimer(drop.afterMs, () => this.drop('after-ms'));
    }
    this.inner.start({
      item: (item) => this.arrive(item),
      end: (error) => this.enqueue({ kind: 'end', at: this.deps.clock.now(), ...(error && { error }) }),
    });
  }

  /** Draws this item's fate now, in a fixed order, and queues it behind everything before it. */
  private arrive(item: StreamItem): void {
    if (this.done) return;
    this.seenTaskId = taskIdOf(item) ?? this.seenTaskId;
    const { perEvent, drop, duplicate } = this.plan;
    const jitterMs = perEvent ? Math.max(0, sampleDelay(perEvent, this.deps.random)) : 0;
    const dropped = !!drop?.probability && this.deps.random.next() < drop.probability;
    const copied = isLogged(item) && !!duplicate && this.deps.random.next() < duplicate.probability;
    const at = this.deps.clock.now() + jitterMs;
    this.enqueue({ kind: 'item', item, at, jitterMs, drop: dropped, duplicate: copied });
  }

  private enqueue(entry: Queued): void {
    if (this.done) return;
    this.queue.push(entry);
    // An armed timer is for an earlier item, and this one waits behind it.
    if (!this.deliveryTimer) this.deliverDue();
  }

  /**
   * First in, first out: an item due sooner waits behind a later one, so each goes out at
   * max(previous delivery, arrival + jitter) and jitter never reorders the stream.
   */
  private deliverDue(): void {
    this.deliveryTimer = undefined;
    if (this.delivering) return; // the loop below picks up what arrives while it runs
    this.delivering = true;
    while (!this.done && this.queue[0] && this.queue[0].at <= this.deps.clock.now()) {
      const entry = this.queue.shift()!;
      if (entry.kind === 'end') this.finish(entry.error);
      else this.deliver(entry);
    }
    this.delivering = false;
    const head = this.queue[0];
    if (!this.done && head) {
      this.deliveryTimer = this.deps.clock.setTimer(head.at - this.deps.clock.now(), () => this.deliverDue());
    }
  }

  private deliver({ item, jitterMs, drop, duplicate }: Extract<Queued, { kind: 'item' }>): void {
    if (drop) return this.drop('probability');
    if (this.skipsGeneration(item)) return;
    if (jitterMs > 0)
      this.record('delay', { where: 'event', ms: jitterMs }, isLogged(item) ? item.event.seq : undefined);
    const opening = opensStream(item);
    if (!opening && item.kind === 'event') this.unknownStateFirst(item.event.taskId, item.event.contextId);
    this.send(item);
    this.delivered++;
    if (isLogged(item)) this.lastSeq = item.event.seq;
    this.sendLateCopies(duplicate && isLogged(item) ? item : undefined);
    if (item.kind === 'event') this.lateStatus(item);
    const afterEvents = this.plan.drop?.afterEvents;
    if (afterEvents !== undefined && this.delivered >= afterEvents) return this.drop('after-events');
    // After the opening Task, unless it already ended the stream: a stream must begin with the
    // Task (§3.1.2, §3.1.6) and must not go on past a terminal state.
    if (opening && !endsStream(item)) this.unknownStateFirst(opening.id, opening.contextId);
    else if (opening) this.unknownStateDue = false;
  }

  /** One more event went out: age the pending copies, add this one's, send those now due. */
  private sendLateCopies(copyOf: EventItem | undefined): void {
    for (const copy of this.copies) copy.remaining--;
    if (copyOf) this.copies.push({ item: copyOf, remaining: this.plan.duplicate!.lateBy });
    const due = this.copies.filter((c) => c.remaining <= 0);
    this.copies = this.copies.filter((c) => c.remaining > 0);
    for (const copy of due) this.sendCopy(copy.item);
  }

  /** The same item object again: same seq, same payload; never itself a candidate for duplication. */
  private sendCopy(item: EventItem): void {
    this.record('duplicate', { lateBy: this.plan.duplicate!.lateBy }, item.event.seq);
    this.send(item);
  }

  /**
   * The `unknown-state` quirk: a made-up state the client must not take for an end, sent once, as
   * the first state of the stream (right after its opening Task, or before its first event when it
   * opens with a replayed event), so that it never follows a terminal state.
   */
  private unknownStateFirst(taskId: string, contextId: string): void {
    if (!this.unknownStateDue) return;
    this.unknownStateDue = false;
    this.insert('unknown-state', syntheticStatus(taskId, contextId, 'unknown', this.deps.clock.now()));
  }

  /** The `late-status` quirk: a status after the one that ended the task; clients must not regress on it (§4.1.3). */
  private lateStatus(item: EventItem): void {
    const status = item.event.event.kind === 'status' ? item.event.event.status : undefined;
    if (item.last && status && isTerminal(status.state) && this.plan.quirks.has('late-status')) {
      const { taskId, contextId } = item.event;
      this.insert('late-status', syntheticStatus(taskId, contextId, 'working', this.deps.clock.now()));
    }
  }

  /**
   * The `skip-generation` quirk (v1.1 draft §3.2.7, with `--preview generation`): the first update of
   * the stream that is not its last is not sent, so the next one shows a gap in the generations. Only
   * this connection misses it: the task's log, GetTask and a resume still have it.
   */
  private skipsGeneration(item: StreamItem): boolean {
    if (!this.skipDue || item.kind !== 'event' || item.last) return false;
    const { event, generation, seq } = item.event;
    if (event.kind === 'task' || generation === undefined) return false;
    this.skipDue = false;
    this.record('quirk', { quirk: 'skip-generation', generation }, seq);
    return true;
  }

  /** The inner stream ended: pending copies, then the final snapshot, then a clean close (or the error). */
  private finish(error?: A2AError): void {
    for (const copy of this.copies.splice(0)) this.sendCopy(copy.item);
    const task = this.plan.quirks.has('final-snapshot') ? this.deps.currentTask?.() : undefined;
    if (task) this.insert('final-snapshot', { kind: 'snapshot', task });
    this.close();
    this.sink!.end(error);
  }

  private drop(reason: DropReason): void {
    const { mode } = this.plan.drop!;
    this.close();
    this.inner.stop();
    this.record('drop', { mode, reason }, this.lastSeq);
    const sink = this.sink!;
    if (mode !== 'fin') return sink.abort(mode);
    if (!this.opened) sink.open();
    sink.end();
  }

  private insert(quirk: Quirk, item: DataItem): void {
    this.record('quirk', { quirk });
    this.send(item);
  }

  /** Every data frame goes out here, so the keep-alive flood precedes each one. */
  private send(item: DataItem): void {
    if (this.plan.quirks.has('keep-alive-flood')) {
      this.record('quirk', { quirk: 'keep-alive-flood' });
      this.sink!.item({ kind: 'keep-alive' });
    }
    this.opened = true;
    this.sink!.item(item);
  }

  private markOpen(): void {
    this.opened = true;
    this.sink!.open();
  }

  /** Nothing more goes out: timers cancelled, queued items and copies discarded. */
  private close(): void {
    this.done = true;
    for (const timer of [this.firstByteTimer, this.dropTimer, this.deliveryTimer]) timer?.cancel();
    this.firstByteTimer = this.dropTimer = this.deliveryTimer = undefined;
    this.queue.length = 0;
    this.copies = [];
  }

  private record(kind: FaultKind, detail: Record<string, string | number>, seq?: number): void {
    const taskId = this.taskId ?? this.seenTaskId ?? this.deps.currentTask?.()?.id;
    this.deps.record({
      kind,
      detail,
      ...(taskId !== undefined && { taskId }),
      ...(seq !== undefined && { seq }),
    });
  }
}

/** A logged event (not made up by chaos): the only kind with a seq, and the only kind duplicated. */
function isLogged(item: WireItem): item is EventItem {
  return item.kind === 'event' && !item.synthetic;
}

function taskIdOf(item: WireItem): string | undefined {
  if (item.kind === 'event') return item.event.taskId;
  if (item.kind === 'snapshot') return item.task.id;
  return item.kind === 'message' ? item.message.taskId : undefined;
}

function syntheticStatus(taskId: string, contextId: string, state: TaskState, atMs: number): EventItem {
  const status = { state, timestamp: isoTime(atMs) };
  return {
    kind: 'event',
    synthetic: true,
    event: { seq: 0, taskId, contextId, atMs, event: { kind: 'status', status } },
  };
}

/** The Task a stream opens with (a subscription's snapshot, a turn's opening Task event), if `item` is one. */
function opensStream(item: WireItem): Pick<Task, 'id' | 'contextId' | 'status'> | undefined {
  if (item.kind === 'snapshot') return item.task;
  if (item.kind === 'event' && item.event.event.kind === 'task') return item.event.event.task;
  return undefined;
}

/** Whether the stream ends with this item: its last, or one that shows a terminal state. */
function endsStream(item: WireItem): boolean {
  if (item.kind === 'event' && item.last) return true;
  const task = opensStream(item);
  return task !== undefined && isTerminal(task.status.state);
}
