/**
 * One task's append-only event log: the truth every stream, resume and GetTask is built from.
 * Each event gets the next per-task `seq` (1, 2, ...), kept across turns and stable on replay.
 * A bounded window of the most recent events is retained: at most `maxEvents`, none older than
 * `maxAgeMs`. What was dropped shows in `oldestSeq`, so a resume can tell a gap from an empty log.
 */
import { isTerminal } from '../domain/lifecycle.js';
import type { LoggedEvent } from '../domain/types.js';

export interface Follower {
  onEvent(event: LoggedEvent): void;
  /** The log was discarded (its task was evicted); no more events will come. */
  onClose?(): void;
}

export class EventLog {
  private events: LoggedEvent[] = [];
  private lastSeq = 0;
  /** Made by the first follower: most tasks are never followed once they have ended. */
  private followers: Set<Follower> | undefined;
  /** While delivering: the events appended and not yet handed to every follower; see {@link append}. */
  private undelivered: LoggedEvent[] | undefined;

  /** `onAppend` sees each event as it is logged, before any follower does, with the log it went to. */
  constructor(
    private readonly maxEvents: number,
    private readonly maxAgeMs = Infinity,
    private readonly onAppend?: (event: LoggedEvent, log: EventLog) => void,
  ) {}

  /** Seq of the newest event, 0 when empty. */
  get latestSeq(): number {
    return this.lastSeq;
  }

  /** Seq of the oldest retained event; `latestSeq + 1` when nothing is retained. */
  get oldestSeq(): number {
    return this.events[0]?.seq ?? this.lastSeq + 1;
  }

  append(event: Omit<LoggedEvent, 'seq'>): LoggedEvent {
    // A literal, not `{ ...event, seq }`: the spread gave each logged event its own hidden class.
    const logged: LoggedEvent = {
      seq: ++this.lastSeq,
      taskId: event.taskId,
      contextId: event.contextId,
      atMs: event.atMs,
      event: event.event,
      generation: event.generation,
    };
    return this.add(logged);
  }

  /**
   * Logs an event another process logged first, with its seq: how a replica mirrors a task played
   * elsewhere (src/replica/). The seq must be the next one: the log holds no gaps.
   */
  adopt(logged: LoggedEvent): LoggedEvent {
    this.lastSeq = logged.seq;
    return this.add(logged);
  }

  private add(logged: LoggedEvent): LoggedEvent {
    this.events.push(logged);
    // Trim in batches so a long-running task costs amortised O(1) per append.
    if (this.events.length > this.maxEvents + Math.ceil(this.maxEvents / 4)) {
      this.events = this.events.slice(this.events.length - this.maxEvents);
    } else if (isLast(logged)) {
      // Nothing follows the task's end: the list keeps no room (appends left it room for 17).
      this.events = this.events.slice();
    }
    this.expire(logged.atMs);
    this.onAppend?.(logged, this);
    // An append made from inside a follower's callback is queued, not delivered in the middle of
    // the current event: every follower then sees every event, in seq order.
    if (this.undelivered) this.undelivered.push(logged);
    else if (this.followers?.size) this.deliver(this.followers, logged);
    return logged;
  }

  private deliver(followers: Set<Follower>, first: LoggedEvent): void {
    const queue = (this.undelivered = [first]);
    try {
      for (let i = 0; i < queue.length; i++) {
        for (const follower of followers) follower.onEvent(queue[i]!);
      }
    } finally {
      this.undelivered = undefined;
    }
  }

  /** Drops the events older than `maxAgeMs` at `nowMs`. */
  expire(nowMs: number): void {
    const cutoff = nowMs - this.maxAgeMs;
    const first = this.events[0];
    if (!first || first.atMs >= cutoff) return;
    const keep = this.events.findIndex((e) => e.atMs >= cutoff);
    this.events = keep < 0 ? [] : this.events.slice(keep);
  }

  /** Retained events with `seq > afterSeq`, oldest first. */
  readAfter(afterSeq: number): LoggedEvent[] {
    const first = this.events[0];
    if (!first) return [];
    const start = Math.max(0, afterSeq - first.seq + 1);
    return this.events.slice(start);
  }

  /**
   * Replays retained events after `afterSeq`, then delivers each new one as it is appended, with no
   * gap and no duplicate at the seam. Returns the function that stops following.
   *
   * @note Attach before read: the follower is registered first and ignores live deliveries until the
   * replay, which reads the log until it has caught up, is done; a guard on `seq` drops what it has
   * already seen. An append made by the follower's own callback during the replay is neither lost
   * nor repeated.
   */
  follow(afterSeq: number, follower: Follower): () => void {
    let delivered = afterSeq;
    let replaying = true;
    const guarded: Follower = {
      onEvent: (event) => {
        if (replaying || event.seq <= delivered) return;
        delivered = event.seq;
        follower.onEvent(event);
      },
      ...(follower.onClose && { onClose: () => follower.onClose!() }),
    };
    const followers = (this.followers ??= new Set());
    followers.add(guarded);
    for (
      let next = this.firstAfter(delivered);
      next && followers.has(guarded);
      next = this.firstAfter(delivered)
    ) {
      delivered = next.seq;
      follower.onEvent(next);
    }
    replaying = false;
    return () => {
      followers.delete(guarded);
      // A blocking send follows every task it starts: the ended ones should not keep an empty set.
      if (followers.size === 0 && this.followers === followers && !this.undelivered)
        this.followers = undefined;
    };
  }

  /** The oldest retained event with `seq > afterSeq`. */
  private firstAfter(afterSeq: number): LoggedEvent | undefined {
    const first = this.events[0];
    return first && this.events[Math.max(0, afterSeq - first.seq + 1)];
  }

  get followerCount(): number {
    return this.followers?.size ?? 0;
  }

  /** Ends every follower; used when the task is evicted. */
  close(): void {
    const followers = [...(this.followers ?? [])];
    this.followers?.clear();
    for (const follower of followers) follower.onClose?.();
  }
}

const isLast = ({ event }: LoggedEvent): boolean => event.kind === 'status' && isTerminal(event.status.state);
