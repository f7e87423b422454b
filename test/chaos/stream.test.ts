/**
 * Stream chaos on one connection: first-byte latency, jitter, drops in every mode, duplicates,
 * quirks, and cancellation, against a hand-fed inner stream, a VirtualClock and a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import { chaoticStream, type StreamChaosDeps } from '../../src/chaos/stream.js';
import type { ChaosPlan } from '../../src/chaos/plan.js';
import type { Quirk } from '../../src/chaos/profile.js';
import type { Task, TaskState } from '../../src/domain/types.js';
import { VirtualClock } from '../../src/lib/clock.js';
import { Random } from '../../src/lib/random.js';
import type { WireItem, WireSink } from '../../src/calls/wire.js';
import type { StreamItem, StreamSink, TaskStream } from '../../src/runtime/stream.js';

type Fault = Parameters<StreamChaosDeps['record']>[0];

/** An inner stream fed by hand: `push` and `end` call the sink it was started with. */
class FakeInner implements TaskStream {
  sink: StreamSink | undefined;
  started = 0;
  stopped = 0;
  start(sink: StreamSink): void {
    this.sink = sink;
    this.started++;
  }
  stop(): void {
    this.stopped++;
  }
  push(...items: StreamItem[]): void {
    for (const item of items) this.sink!.item(item);
  }
  end(): void {
    this.sink!.end();
  }
}

const TASK: Task = {
  id: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'completed', timestamp: '2026-01-01T00:00:05.000Z' },
  artifacts: [],
  history: [],
};

function ev(seq: number, state: TaskState = 'working', last?: true): StreamItem {
  return {
    kind: 'event',
    event: {
      seq,
      taskId: 'task-1',
      contextId: 'ctx-1',
      atMs: seq,
      event: { kind: 'status', status: { state, timestamp: new Date(seq).toISOString() } },
    },
    ...(last && { last }),
  };
}

const events = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));

function planOf(over: Partial<Omit<ChaosPlan, 'quirks'>> & { quirks?: Quirk[] } = {}): ChaosPlan {
  const { quirks = [], ...rest } = over;
  return { name: 'test', ...rest, quirks: new Set(quirks) };
}

/** A short name per sink call: `e3`, `~unknown` (synthetic), `snapshot`, `ka`, `open`, `end`, `reset`. */
function label(item: WireItem): string {
  switch (item.kind) {
    case 'event':
      return item.synthetic
        ? `~${item.event.event.kind === 'status' ? item.event.event.status.state : '?'}`
        : `e${item.event.seq}`;
    case 'keep-alive':
      return 'ka';
    default:
      return item.kind;
  }
}

function setup(plan: ChaosPlan, options: { seed?: string; currentTask?: () => Task | undefined } = {}) {
  const clock = new VirtualClock();
  const t0 = clock.now();
  const inner = new FakeInner();
  const faults: Fault[] = [];
  const transcript: string[] = [];
  const items: WireItem[] = [];
  const times: number[] = [];
  const sink: WireSink = {
    item(item) {
      transcript.push(label(item));
      items.push(item);
      times.push(clock.now() - t0);
    },
    end: () => transcript.push('end'),
    open: () => transcript.push('open'),
    abort: (mode) => transcript.push(mode),
  };
  const stream = chaoticStream(inner, plan, {
    clock,
    random: new Random(options.seed ?? 'seed'),
    record: (fault) => faults.push(fault),
    ...(options.currentTask && { currentTask: options.currentTask }),
  });
  return { clock, inner, stream, sink, faults, transcript, items, times };
}

describe('chaoticStream', () => {
  it('returns the inner stream itself when the plan has nothing for streams', () => {
    const inner = new FakeInner();
    const deps = { clock: new VirtualClock(), random: new Random('seed'), record: () => {} };
    expect(chaoticStream(inner, planOf(), deps)).toBe(inner);
    const callErrorsOnly = planOf({ errors: { kind: '503', rate: 1, retryAfterMs: 1000 } });
    expect(chaoticStream(inner, callErrorsOnly, deps)).toBe(inner);
    expect(chaoticStream(inner, planOf({ quirks: ['late-status'] }), deps)).not.toBe(inner);
  });

  describe('first-byte latency', () => {
    it('holds the headers, opens after the delay, then starts the inner stream', () => {
      const { clock, inner, stream, sink, faults, transcript } = setup(
        planOf({ firstByte: { kind: 'fixed', ms: 300 } }),
      );
      expect(stream.holdsHeaders).toBe(true);
      stream.start(sink);
      clock.advance(299);
      expect(inner.started).toBe(0);
      expect(transcript).toEqual([]);
      clock.advance(1);
      expect(inner.started).toBe(1);
      expect(transcript).toEqual(['open']);
      expect(faults).toEqual([{ kind: 'delay', detail: { where: 'first-byte', ms: 300 } }]);
      inner.push(ev(1));
      inner.end();
      expect(transcript).toEqual(['open', 'e1', 'end']);
    });

    it('starts the inner stream at once without first-byte latency', () => {
      const { inner, stream, sink } = setup(planOf({ quirks: ['late-status'] }));
      expect(stream.holdsHeaders).toBeFalsy();
      stream.start(sink);
      expect(inner.started).toBe(1);
    });
  });

  describe('per-event jitter', () => {
    it('delays each item by its jitter, after the one before it, and records each delay', () => {
      const { clock, inner, stream, sink, faults, transcript, times } = setup(
        planOf({ perEvent: { kind: 'fixed', ms: 50 } }),
      );
      stream.start(sink);
      inner.push(ev(1));
      clock.advance(10);
      inner.push(ev(2));
      inner.end();
      clock.advance(49);
      expect(transcript).toEqual(['e1']);
      clock.advance(100);
      expect(transcript).toEqual(['e1', 'e2', 'end']);
      expect(times).toEqual([50, 60]);
      expect(faults).toEqual([
        { kind: 'delay', detail: { where: 'event', ms: 50 }, taskId: 'task-1', seq: 1 },
        { kind: 'delay', detail: { where: 'event', ms: 50 }, taskId: 'task-1', seq: 2 },
      ]);
    });

    it('records no delay for an item whose jitter is 0', () => {
      const { inner, stream, sink, faults, transcript } = setup(
        planOf({ perEvent: { kind: 'fixed', ms: 0 } }),
      );
      stream.start(sink);
      inner.push(ev(1));
      inner.end();
      expect(transcript).toEqual(['e1', 'end']);
      expect(faults).toEqual([]);
    });

    it('never reorders items, whatever jitter each one draws', () => {
      const { clock, inner, stream, sink, faults, transcript, times } = setup(
        planOf({ perEvent: { kind: 'uniform', min: 0, max: 500 } }),
      );
      stream.start(sink);
      for (const item of events(1, 20)) {
        inner.push(item);
        clock.advance(20);
      }
      inner.end();
      clock.advance(1000);
      expect(transcript).toEqual([...events(1, 20).map(label), 'end']);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // Random jitter really varied, and each positive draw was recorded.
      expect(new Set(faults.map((f) => f.detail.ms)).size).toBeGreaterThan(5);
      expect(times.some((at, i) => at > i * 20)).toBe(true);
    });
  });

  describe('drops', () => {
    it.each([
      ['fin', 'end'],
      ['reset', 'reset'],
      ['hang', 'hang'],
    ] as const)('after 3 events in mode %s: exactly 3 events, then %s', (mode, closing) => {
      const { clock, inner, stream, sink, faults, transcript } = setup(
        planOf({ drop: { afterEvents: 3, probability: 0, mode } }),
      );
      stream.start(sink);
      inner.push(...events(1, 5));
      inner.end();
      expect(transcript).toEqual(['e1', 'e2', 'e3', closing]);
      expect(inner.stopped).toBe(1);
      expect(clock.pending).toBe(0);
      expect(faults).toEqual([
        { kind: 'drop', detail: { mode, reason: 'after-events' }, taskId: 'task-1', seq: 3 },
      ]);
    });

    it('drops before the first event when afterEvents is 0, opening first so it is not an eviction', () => {
      const { inner, stream, sink, faults, transcript } = setup(
        planOf({ drop: { afterEvents: 0, probability: 0, mode: 'fin' } }),
        { currentTask: () => TASK },
      );
      stream.start(sink);
      expect(transcript).toEqual(['open', 'end']);
      expect(inner.started).toBe(0);
      expect(faults).toEqual([
        { kind: 'drop', detail: { mode: 'fin', reason: 'after-events' }, taskId: 'task-1', seq: 0 },
      ]);
    });

    it('drops afterMs from the start, with the last delivered seq', () => {
      const { clock, inner, stream, sink, faults, transcript } = setup(
        planOf({ drop: { afterMs: 1000, probability: 0, mode: 'reset' } }),
      );
      stream.start(sink);
      inner.push(ev(1));
      clock.advance(500);
      inner.push(ev(2));
      clock.advance(499);
      expect(transcript).toEqual(['e1', 'e2']);
      clock.advance(1);
      expect(transcript).toEqual(['e1', 'e2', 'reset']);
      inner.push(ev(3));
      expect(transcript).toEqual(['e1', 'e2', 'reset']);
      expect(faults).toEqual([
        { kind: 'drop', detail: { mode: 'reset', reason: 'after-ms' }, taskId: 'task-1', seq: 2 },
      ]);
    });

    it('does not drop a stream that already ended', () => {
      const { clock, inner, stream, sink, faults, transcript } = setup(
        planOf({ drop: { afterMs: 1000, afterEvents: 5, probability: 0, mode: 'reset' } }),
      );
      stream.start(sink);
      inner.push(ev(1));
      inner.end();
      expect(clock.pending).toBe(0);
      clock.advance(2000);
      expect(transcript).toEqual(['e1', 'end']);
      expect(faults).toEqual([]);
    });

    /** Twenty events through a coin-flip drop; the sink's transcript and the records. */
    function probabilityRun(seed: string) {
      const { inner, stream, sink, faults, transcript } = setup(
        planOf({ drop: { probability: 0.2, mode: 'reset' } }),
        { seed },
      );
      stream.start(sink);
      inner.push(...events(1, 20));
      inner.end();
      return { transcript, faults };
    }

    it('drops by probability instead of delivering the event, the same way for the same seed', () => {
      const first = probabilityRun('seed');
      expect(first).toEqual(probabilityRun('seed'));
      const delivered = first.transcript.length - 1;
      expect(delivered).toBeLessThan(20);
      expect(first.transcript).toEqual([...events(1, delivered).map(label), 'reset']);
      expect(first.faults).toEqual([
        { kind: 'drop', detail: { mode: 'reset', reason: 'probability' }, taskId: 'task-1', seq: delivered },
      ]);
      const others = ['a', 'b', 'c', 'd', 'e', 'f'].map((seed) => probabilityRun(seed).transcript);
      expect(others.some((t) => t.length !== first.transcript.length)).toBe(true);
    });
  });

  describe('duplicates', () => {
    it('sends the same item again at once when lateBy is 0, but never a copy of a copy', () => {
      const snapshot: StreamItem = { kind: 'snapshot', task: TASK };
      const { inner, stream, sink, faults, transcript, items } = setup(
        planOf({ duplicate: { probability: 1, lateBy: 0 } }),
      );
      stream.start(sink);
      inner.push(snapshot, ev(1), ev(2));
      inner.end();
      expect(transcript).toEqual(['snapshot', 'e1', 'e1', 'e2', 'e2', 'end']);
      expect(items[2]).toBe(items[1]);
      expect(faults).toEqual([
        { kind: 'duplicate', detail: { lateBy: 0 }, taskId: 'task-1', seq: 1 },
        { kind: 'duplicate', detail: { lateBy: 0 }, taskId: 'task-1', seq: 2 },
      ]);
    });

    it('sends a late copy after lateBy further events, and pending copies before the end', () => {
      const { inner, stream, sink, faults, transcript, items } = setup(
        planOf({ duplicate: { probability: 1, lateBy: 2 } }),
      );
      stream.start(sink);
      inner.push(...events(1, 5));
      expect(transcript).toEqual(['e1', 'e2', 'e3', 'e1', 'e4', 'e2', 'e5', 'e3']);
      expect(items[3]).toBe(items[0]);
      inner.end();
      expect(transcript.slice(8)).toEqual(['e4', 'e5', 'end']);
      expect(faults.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(faults.every((f) => f.kind === 'duplicate' && f.detail.lateBy === 2)).toBe(true);
    });

    it('duplicates by probability, deterministically for a seed', () => {
      const run = () => {
        const { inner, stream, sink, transcript } = setup(
          planOf({ duplicate: { probability: 0.3, lateBy: 0 } }),
        );
        stream.start(sink);
        inner.push(...events(1, 30));
        return transcript;
      };
      const transcript = run();
      expect(transcript.length).toBeGreaterThan(30);
      expect(transcript.length).toBeLessThan(60);
      expect(run()).toEqual(transcript);
    });
  });

  describe('quirks', () => {
    const WORKING: Task = { ...TASK, status: { state: 'working', timestamp: '2026-01-01T00:00:01.000Z' } };

    it('unknown-state: one synthetic unknown status, the first state after the opening Task', () => {
      const { clock, inner, stream, sink, faults, transcript, items } = setup(
        planOf({ quirks: ['unknown-state'] }),
      );
      stream.start(sink);
      clock.advance(1234);
      inner.push({ kind: 'snapshot', task: WORKING }, ev(1), ev(2));
      expect(transcript).toEqual(['snapshot', '~unknown', 'e1', 'e2']);
      expect(items[1]).toEqual({
        kind: 'event',
        synthetic: true,
        event: {
          seq: 0,
          taskId: 'task-1',
          contextId: 'ctx-1',
          atMs: clock.now(),
          event: { kind: 'status', status: { state: 'unknown', timestamp: '2026-01-01T00:00:01.234Z' } },
        },
      });
      expect(faults).toEqual([{ kind: 'quirk', detail: { quirk: 'unknown-state' }, taskId: 'task-1' }]);
    });

    it('unknown-state: before the first event of a stream that opens with a replayed one', () => {
      const { inner, stream, sink, transcript } = setup(planOf({ quirks: ['unknown-state'] }));
      stream.start(sink);
      inner.push(ev(3), ev(4, 'completed', true));
      inner.end();
      expect(transcript).toEqual(['~unknown', 'e3', 'e4', 'end']);
    });

    it('unknown-state: never after a terminal state (§3.1.2: the stream ends there)', () => {
      // A subscription whose first live event ends the task: the made-up state comes before it.
      const live = setup(planOf({ quirks: ['unknown-state'] }));
      live.stream.start(live.sink);
      live.inner.push({ kind: 'snapshot', task: WORKING }, ev(5, 'completed', true));
      live.inner.end();
      expect(live.transcript).toEqual(['snapshot', '~unknown', 'e5', 'end']);
      // A stream that opens with an ended task gets none.
      const ended = setup(planOf({ quirks: ['unknown-state'] }));
      ended.stream.start(ended.sink);
      ended.inner.push({ kind: 'snapshot', task: TASK });
      ended.inner.end();
      expect(ended.transcript).toEqual(['snapshot', 'end']);
      expect(ended.faults).toEqual([]);
    });

    it('unknown-state: none when the stream is cut right after its opening Task', () => {
      const { inner, stream, sink, transcript } = setup(
        planOf({ quirks: ['unknown-state'], drop: { afterEvents: 1, probability: 0, mode: 'fin' } }),
      );
      stream.start(sink);
      inner.push({ kind: 'snapshot', task: WORKING }, ev(1));
      expect(transcript).toEqual(['snapshot', 'end']);
    });

    it('late-status: a synthetic working status after the terminal last event', () => {
      const { inner, stream, sink, faults, transcript } = setup(planOf({ quirks: ['late-status'] }));
      stream.start(sink);
      inner.push(ev(1), ev(2, 'input-required', true));
      expect(transcript).toEqual(['e1', 'e2']);
      inner.push(ev(3, 'completed', true));
      inner.end();
      expect(transcript).toEqual(['e1', 'e2', 'e3', '~working', 'end']);
      expect(faults).toEqual([{ kind: 'quirk', detail: { quirk: 'late-status' }, taskId: 'task-1' }]);
    });

    it('final-snapshot: the current task before the end, when there is one', () => {
      const { inner, stream, sink, faults, transcript, items } = setup(
        planOf({ quirks: ['final-snapshot'] }),
        { currentTask: () => TASK },
      );
      stream.start(sink);
      inner.push(ev(1));
      inner.end();
      expect(transcript).toEqual(['e1', 'snapshot', 'end']);
      expect(items[1]).toEqual({ kind: 'snapshot', task: TASK });
      expect(faults).toEqual([{ kind: 'quirk', detail: { quirk: 'final-snapshot' }, taskId: 'task-1' }]);

      const bare = setup(planOf({ quirks: ['final-snapshot'] }));
      bare.stream.start(bare.sink);
      bare.inner.end();
      expect(bare.transcript).toEqual(['end']);
      expect(bare.faults).toEqual([]);
    });

    it('keep-alive-flood: a keep-alive before every data item', () => {
      const { inner, stream, sink, faults, transcript } = setup(planOf({ quirks: ['keep-alive-flood'] }));
      stream.start(sink);
      inner.push({ kind: 'snapshot', task: TASK }, ev(1));
      inner.end();
      expect(transcript).toEqual(['ka', 'snapshot', 'ka', 'e1', 'end']);
      expect(faults).toHaveLength(2);
      expect(faults[0]).toEqual({ kind: 'quirk', detail: { quirk: 'keep-alive-flood' }, taskId: 'task-1' });
    });

    it('quirk items are neither counted for drops nor duplicated', () => {
      const { inner, stream, sink, transcript } = setup(
        planOf({
          quirks: ['unknown-state'],
          drop: { afterEvents: 2, probability: 0, mode: 'fin' },
          duplicate: { probability: 1, lateBy: 0 },
        }),
      );
      stream.start(sink);
      inner.push(...events(1, 3));
      expect(transcript).toEqual(['~unknown', 'e1', 'e1', 'e2', 'e2', 'end']);
    });
  });

  describe('stop', () => {
    it('cancels the first-byte wait: the inner stream never starts', () => {
      const { clock, inner, stream, sink, transcript } = setup(
        planOf({ firstByte: { kind: 'fixed', ms: 100 } }),
      );
      stream.start(sink);
      expect(clock.pending).toBe(1);
      stream.stop();
      expect(clock.pending).toBe(0);
      clock.advance(1000);
      expect(inner.started).toBe(0);
      expect(transcript).toEqual([]);
    });

    it('stops the inner stream and cancels the drop and delivery timers', () => {
      const { clock, inner, stream, sink, transcript } = setup(
        planOf({
          perEvent: { kind: 'fixed', ms: 100 },
          drop: { afterMs: 5000, probability: 0, mode: 'reset' },
        }),
      );
      stream.start(sink);
      inner.push(ev(1), ev(2));
      expect(clock.pending).toBe(2);
      stream.stop();
      expect(inner.stopped).toBe(1);
      expect(clock.pending).toBe(0);
      inner.push(ev(3));
      inner.end();
      clock.advance(10_000);
      expect(transcript).toEqual([]);
      expect(clock.pending).toBe(0);
    });
  });
});
