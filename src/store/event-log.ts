/**
 * One task's append-only event log: the truth every stream, resume and GetTask is built from.
 * Each event gets the next per-task `seq` (1, 2, ...), kept across turns and stable on replay.
 * A bounded window of the most recent events is retained: at most `maxEvents`, none older than
 * `maxAgeMs`. What was dropped shows in `oldestSeq`, so a resume can tell a gap from an empty log.
 * Followers are handed each event as it was appended; reads get it rebuilt from how the log keeps
 * it (kept-event.ts), equal to it in every field.
 */
import { isTerminal } from '../domain/lifecycle.js';
import type { LoggedEvent } from '../domain/types.js';
import { EventKeeper, Logged, type KeptEvent, type LogIds } from './kept-event.js';

export interface Follower {
  /** `kept`: the event as the log keeps it, for a follower that keeps it longer than its call. */
  onEvent(event: LoggedEvent, kept: KeptEvent): void;
  /** The log was discarded (its task was evicted); no more events will come. */
  onClose?(): void;
}

export class EventLog {
  private events: KeptEvent[] = [];
  private readonly keeper = new EventKeeper();
  /** Taken from the first event. */
  private ids: LogIds | undefined;
  private lastSeq = 0;
  /** Made by the first follower: most tasks are never followed once they have ended. */
  private followers: Set<Follower> | undefined;
  private delivering = false;
  /** While delivering: the events appended and not yet handed to every follower; see {@link add}. */
  private undelivered: [LoggedEvent, KeptEvent][] | undefined;

  /**
   * `onAppend` sees each event as it is logged, before any follower does, with the form the log
   * keeps it in and the log it went to.
   */
  constructor(
    private readonly maxEvents: number,
    private readonly maxAgeMs = Infinity,
    private readonly onAppend?: (event: LoggedEvent, kept: KeptEvent, log: EventLog) => void,
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
    const { taskId, contextId, atMs, generation } = event;
    return this.add(new Logged(++this.lastSeq, taskId, contextId, atMs, event.event, generation));
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
    const { taskId, contextId, atMs } = logged;
    this.ids ??= { taskId, contextId, sinceMs: atMs };
    const kept = this.keeper.keep(logged, this.ids);
    this.events.push(kept);
    // Trim in batches so a long-running task costs amortised O(1) per append.
    if (this.events.length > this.maxEvents + Math.ceil(this.maxEvents / 4)) {
      this.events = this.events.slice(this.events.length - this.maxEvents);
    } else if (isLast(logged)) {
      // Nothing follows the task's end: the list keeps no room (appends left it room for 17).
      this.events = this.events.slice();
    }
    this.expire(logged.atMs);
    this.onAppend?.(logged, kept, this);
    // An append made from inside a follower's callback is queued, not delivered in the middle of
    // the current event: every follower then sees every event, in seq order.
    if (this.delivering) (this.undelivered ??= []).push([logged, kept]);
    else if (this.followers?.size) this.deliver(this.followers, logged, kept);
    return logged;
  }

  private deliver(followers: Set<Follower>, logged: LoggedEvent, kept: KeptEvent): void {
    this.delivering = true;
    try {
      for (const follower of followers) follower.onEvent(logged, kept);
      for (let next = this.undelivered?.shift(); next; next = this.undelivered?.shift()) {
        for (const follower of followers) follower.onEvent(next[0], next[1]);
      }
    } finally {
      this.delivering = false;
      this.undelivered = undefined;
    }
  }

  /** Drops the events older than `maxAgeMs` at `nowMs`. */
  expire(nowMs: number): void {
    const first = this.events[0];
    if (!first) return;
    const cutoff = nowMs - this.maxAgeMs - this.ids!.sinceMs;
    if (first.afterMs >= cutoff) return;
    const keep = this.events.findIndex((e) => e.afterMs >= cutoff);
    this.events = keep < 0 ? [] : this.events.slice(keep);
  }

  /** Retained events with `seq > afterSeq`, oldest first. */
  readAfter(afterSeq: number): LoggedEvent[] {
    const first = this.events[0];
    if (!first) return [];
    const start = Math.max(0, afterSeq - first.seq + 1);
    return this.events.slice(start).map((kept) => kept.logged());
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
      onEvent: (event, kept) => {
        if (replaying || event.seq <= delivered) return;
        delivered = event.seq;
        follower.onEvent(event, kept);
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
      follower.onEvent(next.logged(), next);
    }
    replaying = false;
    return () => {
      followers.delete(guarded);
      // A blocking send follows every task it starts: the ended ones should not keep an empty set.
      if (followers.size === 0 && this.followers === followers && !this.delivering)
        this.followers = undefined;
    };
  }

  /** The oldest retained event with `seq > afterSeq`. */
  private firstAfter(afterSeq: number): KeptEvent | undefined {
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
