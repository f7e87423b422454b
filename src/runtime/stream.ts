/**
 * What a streaming call hands its binding: items to encode, and the moment to close. Every stream
 * of a task follows the task's event log, so concurrent streams see identical, identically ordered
 * events, and a stream that starts late loses nothing.
 */
import type { A2AError } from '../domain/errors.js';
import { isInterrupted, isPaused, isTerminal } from '../domain/lifecycle.js';
import type { LoggedEvent, Message, Task } from '../domain/types.js';
import type { KeptEvent } from '../store/kept-event.js';
import type { TaskRecord } from '../store/task-store.js';

export type StreamItem =
  /** A direct reply; the stream ends after it. */
  | { kind: 'message'; message: Message }
  /** The task as of subscribing: a view, not a logged event, so it carries no seq. */
  | { kind: 'snapshot'; task: Task }
  /**
   * `last`: the status that ends this stream (v0.3 marks it `final`). `kept`: the event as the log
   * keeps it, what a copy of the stream keeps in its place.
   */
  | { kind: 'event'; event: LoggedEvent; kept?: KeptEvent; last?: true };

export interface StreamSink {
  item(item: StreamItem): void;
  /**
   * No more items: the task ended or paused, or was evicted, and the connection closes cleanly; or,
   * with an error, the task could no longer be followed (a proxied agent went away), and the
   * stream's last frame says so.
   */
  end(error?: A2AError): void;
}

export interface TaskStream {
  /** Starts delivery. Items may arrive before this returns. */
  start(sink: StreamSink): void;
  /** The client went away: stop delivering. */
  stop(): void;
  /** The task it follows; none for a direct Message reply. */
  readonly taskId?: string;
}

export function messageStream(message: Promise<Message>): TaskStream {
  let stopped = false;
  return {
    start(sink) {
      void message.then((m) => {
        if (stopped) return;
        sink.item({ kind: 'message', message: m });
        sink.end();
      });
    },
    stop() {
      stopped = true;
    },
  };
}

export interface FollowOptions {
  /** Deliver the logged events after this seq (replayed first if already logged), then live ones. */
  afterSeq: number;
  closeOnAuthRequired: boolean;
  /** Sent first, before any event. */
  snapshot?: Task;
}

/**
 * Follows a task's log and ends after the first status that ends or pauses the task (§3.1.2, §11.7).
 * A replay runs through to the task's present: an input-required turn that was answered since is
 * history, not the end of this stream.
 */
export function followTask(record: TaskRecord, options: FollowOptions): TaskStream {
  let unfollow: (() => void) | undefined;
  let ended = false;
  let present = 0;
  const endsStream = (logged: LoggedEvent): boolean => {
    if (logged.event.kind !== 'status' || logged.seq < present) return false;
    const state = logged.event.status.state;
    if (isTerminal(state) || state === 'input-required') return true;
    return isInterrupted(state) && options.closeOnAuthRequired;
  };
  return {
    taskId: record.id,
    start(sink) {
      const finish = () => {
        if (ended) return;
        ended = true;
        unfollow?.();
        sink.end();
      };
      if (options.snapshot) sink.item({ kind: 'snapshot', task: options.snapshot });
      present = record.log.latestSeq;
      unfollow = record.log.follow(options.afterSeq, {
        onEvent: (logged, kept) => {
          if (ended) return;
          const last = endsStream(logged);
          // Two literal shapes, not a spread: a spread gives every item its own hidden class.
          sink.item(
            last ? { kind: 'event', event: logged, kept, last } : { kind: 'event', event: logged, kept },
          );
          if (last) finish();
        },
        onClose: finish,
      });
      // The replay inside follow() may have ended the stream before `unfollow` was assigned.
      if (ended) unfollow();
    },
    stop() {
      ended = true;
      unfollow?.();
    },
  };
}

/** Resolves once the turn that began after `fromSeq` ends: a terminal or interrupted status. */
export function untilTurnEnds(record: TaskRecord, fromSeq: number): Promise<void> {
  return new Promise((resolve) => {
    let ended = false;
    const end = () => {
      ended = true;
      stop?.();
      resolve();
    };
    // The replay inside follow() may end the turn before follow() returns: stop is then unset.
    let stop: (() => void) | undefined;
    stop = record.log.follow(fromSeq, {
      onEvent: (logged: LoggedEvent) => {
        if (!ended && logged.event.kind === 'status' && isPaused(logged.event.status.state)) end();
      },
      onClose: end,
    });
    if (ended) stop();
  });
}
