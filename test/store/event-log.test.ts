/**
 * One task's append-only event log: per-task seq numbers, replay, live following without gap or
 * duplicate at the seam, a bounded window of retained events, and close.
 */
import { describe, expect, it } from 'vitest';
import type { LoggedEvent, TaskState } from '../../src/domain/types.js';
import { EventLog, type Follower } from '../../src/store/event-log.js';

/** A status event whose state is irrelevant; `atMs` tags it so tests can tell events apart. */
function event(atMs: number, state: TaskState = 'working'): Omit<LoggedEvent, 'seq'> {
  return {
    taskId: 'task-1',
    contextId: 'ctx-1',
    atMs,
    event: { kind: 'status', status: { state, timestamp: new Date(atMs).toISOString() } },
  };
}

function logWith(count: number, maxEvents = 1000): EventLog {
  const log = new EventLog(maxEvents);
  for (let i = 1; i <= count; i++) log.append(event(i));
  return log;
}

const seqs = (events: readonly LoggedEvent[]) => events.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A follower that records every seq it is given and whether it was closed. */
function recorder(onEvent?: (event: LoggedEvent) => void) {
  const seen: number[] = [];
  let closed = 0;
  const follower: Follower = {
    onEvent: (e) => {
      seen.push(e.seq);
      onEvent?.(e);
    },
    onClose: () => closed++,
  };
  return { follower, seen, closed: () => closed };
}

describe('EventLog: sequence numbers', () => {
  it('starts empty: latestSeq 0, oldestSeq 1, nothing to read', () => {
    const log = new EventLog(10);
    expect(log.latestSeq).toBe(0);
    expect(log.oldestSeq).toBe(1);
    expect(log.readAfter(0)).toEqual([]);
  });

  it('numbers events 1, 2, 3, ... and returns the logged event with its seq and payload', () => {
    const log = new EventLog(10);
    const first = log.append(event(100));
    const second = log.append(event(200, 'completed'));
    expect(first).toEqual({ ...event(100), seq: 1 });
    expect(second).toEqual({ ...event(200, 'completed'), seq: 2 });
    expect(seqs(log.readAfter(0))).toEqual([1, 2]);
    expect(log.latestSeq).toBe(2);
  });

  it("does not mutate the caller's event: the seq lives on the logged copy only", () => {
    const log = new EventLog(10);
    const input = event(1);
    log.append(input);
    expect('seq' in input).toBe(false);
  });
});

describe('EventLog: readAfter', () => {
  it('returns the events strictly after the given seq, oldest first', () => {
    const log = logWith(5);
    expect(seqs(log.readAfter(0))).toEqual([1, 2, 3, 4, 5]);
    expect(seqs(log.readAfter(2))).toEqual([3, 4, 5]);
    expect(seqs(log.readAfter(4))).toEqual([5]);
  });

  it('returns nothing after the latest seq or beyond it', () => {
    const log = logWith(3);
    expect(log.readAfter(3)).toEqual([]);
    expect(log.readAfter(99)).toEqual([]);
  });
});

describe('EventLog: follow', () => {
  it('replays the events after afterSeq, then delivers new ones live, each exactly once', () => {
    const log = logWith(3);
    const r = recorder();
    log.follow(1, r.follower);
    expect(r.seen).toEqual([2, 3]);
    log.append(event(4));
    log.append(event(5));
    expect(r.seen).toEqual([2, 3, 4, 5]);
  });

  it('following from the latest seq delivers only live events', () => {
    const log = logWith(3);
    const r = recorder();
    log.follow(log.latestSeq, r.follower);
    expect(r.seen).toEqual([]);
    log.append(event(4));
    expect(r.seen).toEqual([4]);
  });

  it('the returned function stops delivery', () => {
    const log = logWith(1);
    const r = recorder();
    const stop = log.follow(0, r.follower);
    expect(log.followerCount).toBe(1);
    stop();
    expect(log.followerCount).toBe(0);
    log.append(event(2));
    expect(r.seen).toEqual([1]);
  });

  it('concurrent followers from different points each see a gap-free sequence', () => {
    const log = logWith(4);
    const a = recorder();
    const b = recorder();
    log.follow(0, a.follower);
    log.follow(3, b.follower);
    log.append(event(5));
    expect(a.seen).toEqual([1, 2, 3, 4, 5]);
    expect(b.seen).toEqual([4, 5]);
  });

  it('an event appended by the follower on the last replayed event is delivered once, after the replay', () => {
    const log = logWith(3);
    let appended = false;
    const r = recorder((e) => {
      if (e.seq === 3 && !appended) {
        appended = true;
        log.append(event(4));
      }
    });
    log.follow(0, r.follower);
    expect(r.seen).toEqual([1, 2, 3, 4]);
    log.append(event(5));
    expect(r.seen).toEqual([1, 2, 3, 4, 5]);
  });

  // BUG (src/store/event-log.ts, EventLog.follow): the doc promises that "an append made by a
  // follower's own callback during the replay is neither lost nor repeated". The appended event is
  // delivered at once (nested) and raises the seq guard, so the rest of the replay is dropped.
  it('an event appended by the follower early in the replay loses none of the replay', () => {
    const log = logWith(3);
    let appended = false;
    const r = recorder((e) => {
      if (e.seq === 1 && !appended) {
        appended = true;
        log.append(event(4));
      }
    });
    log.follow(0, r.follower);
    log.append(event(5));
    // Actual (bug): [1, 4, 5]: events 2 and 3 are skipped.
    expect(r.seen).toEqual([1, 2, 3, 4, 5]);
  });

  // BUG (same method, live path): an append made from one follower's callback is delivered to the
  // followers after it before the event that triggered it, and their seq guard then drops that one.
  it('an append made from one follower callback does not make another follower miss the event', () => {
    const log = new EventLog(100);
    let appended = false;
    const appender = recorder((e) => {
      if (!appended) {
        appended = true;
        log.append(event(e.atMs + 1));
      }
    });
    const bystander = recorder();
    log.follow(0, appender.follower);
    log.follow(0, bystander.follower);
    log.append(event(1));
    expect(appender.seen).toEqual([1, 2]);
    // Actual (bug): [2]: event 1 is lost for the second follower.
    expect(bystander.seen).toEqual([1, 2]);
  });
});

describe('EventLog: bounded window', () => {
  it('retains at least maxEvents and at most maxEvents + 25% of the newest events', () => {
    const maxEvents = 8;
    const log = new EventLog(maxEvents);
    for (let i = 1; i <= 100; i++) {
      log.append(event(i));
      const retained = log.readAfter(0);
      expect(retained.length).toBeLessThanOrEqual(maxEvents + Math.ceil(maxEvents / 4));
      if (i <= maxEvents) expect(retained.length).toBe(i);
      else expect(retained.length).toBeGreaterThanOrEqual(maxEvents);
      // Always the newest, contiguous, ending at latestSeq.
      expect(seqs(retained)).toEqual(range(log.oldestSeq, i));
    }
    expect(log.latestSeq).toBe(100);
    expect(log.oldestSeq).toBeGreaterThan(1);
  });

  it('trims in a batch once the window overflows by a quarter, back to maxEvents', () => {
    const log = logWith(5, 4);
    // 5 = 4 + ceil(4 / 4): not over yet.
    expect(log.oldestSeq).toBe(1);
    log.append(event(6));
    expect(log.oldestSeq).toBe(3);
    expect(seqs(log.readAfter(0))).toEqual([3, 4, 5, 6]);
  });

  it('seq numbers keep counting after trimming', () => {
    const log = logWith(20, 4);
    expect(log.append(event(21)).seq).toBe(21);
  });

  it('reading after an evicted seq returns the retained window, which starts later than asked (detectable via oldestSeq)', () => {
    const log = logWith(6, 4);
    expect(log.oldestSeq).toBe(3);
    // The documented behaviour: "retained events with seq > afterSeq". Event 2 is gone, so the
    // result starts at oldestSeq and the caller can tell it missed some: oldestSeq > afterSeq + 1.
    expect(seqs(log.readAfter(1))).toEqual([3, 4, 5, 6]);
    expect(seqs(log.readAfter(0))).toEqual([3, 4, 5, 6]);
    expect(log.oldestSeq).toBeGreaterThan(1 + 1);
    // Reading from inside the window is unaffected.
    expect(seqs(log.readAfter(4))).toEqual([5, 6]);
  });

  it('following after an evicted seq replays the retained window, then continues live', () => {
    const log = logWith(6, 4);
    const r = recorder();
    log.follow(0, r.follower);
    log.append(event(7));
    expect(r.seen).toEqual([3, 4, 5, 6, 7]);
  });
});

describe('EventLog: close', () => {
  it('ends every follower once and drops them, so later appends reach nobody', () => {
    const log = logWith(2);
    const a = recorder();
    const b = recorder();
    log.follow(0, a.follower);
    log.follow(2, b.follower);
    log.close();
    expect(a.closed()).toBe(1);
    expect(b.closed()).toBe(1);
    expect(log.followerCount).toBe(0);
    log.append(event(3));
    expect(a.seen).toEqual([1, 2]);
    expect(b.seen).toEqual([]);
    log.close();
    expect(a.closed()).toBe(1);
  });

  it('works with followers that have no onClose', () => {
    const log = logWith(1);
    const seen: number[] = [];
    log.follow(0, { onEvent: (e) => seen.push(e.seq) });
    expect(() => log.close()).not.toThrow();
    expect(log.followerCount).toBe(0);
  });

  it('closing the log from a follower callback during the replay stops the replay', () => {
    const log = logWith(5);
    const r = recorder((e) => {
      if (e.seq === 2) log.close();
    });
    log.follow(0, r.follower);
    expect(r.seen).toEqual([1, 2]);
    expect(r.closed()).toBe(1);
  });

  it('an unfollowed follower is not closed', () => {
    const log = logWith(1);
    const r = recorder();
    log.follow(0, r.follower)();
    log.close();
    expect(r.closed()).toBe(0);
  });
});
