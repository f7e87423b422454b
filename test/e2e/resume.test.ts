/**
 * Resuming a broken stream: on every streaming binding, a client that reads some events, drops
 * the connection and comes back with its cursor (the last SSE `id`, a per-task seq) gets exactly
 * the events it missed, so what it saw before and after is the task's whole event sequence.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { postSse, SseReader, type SseEvent } from '../helpers/sse.js';

interface ResumeBinding {
  name: string;
  /** Subscribes to `taskId`, resuming after `afterSeq` when given. */
  subscribe(sim: TestSim, taskId: string, afterSeq?: number): Promise<Response>;
  /** The A2A payload of a frame, without the binding's envelope. */
  payload(event: SseEvent): any;
  /** The error of a refused subscribe: its A2A reason and metadata. */
  refusal(response: Response): Promise<{ reason: string; metadata: Record<string, string> }>;
}

const cursor = (afterSeq?: number): Record<string, string> =>
  afterSeq === undefined ? {} : { 'Last-Event-ID': String(afterSeq) };

const restRefusal = async (response: Response) => {
  const body = (await response.json()) as { error: { details: { reason: string; metadata: any }[] } };
  return body.error.details[0]!;
};

const jsonRpcRefusal = async (response: Response) => {
  const body = (await response.json()) as { error: { data: { reason: string; metadata: any }[] } };
  return body.error.data[0]!;
};

const BINDINGS: ResumeBinding[] = [
  {
    name: 'REST GET /tasks/{id}:subscribe with Last-Event-ID',
    subscribe: (sim, id, afterSeq) =>
      fetch(`${sim.url}/tasks/${id}:subscribe`, {
        headers: { Accept: 'text/event-stream', ...cursor(afterSeq) },
      }),
    payload: (event) => event.json,
    refusal: restRefusal,
  },
  {
    name: 'REST POST /tasks/{id}:subscribe with Last-Event-ID',
    subscribe: (sim, id, afterSeq) =>
      fetch(`${sim.url}/tasks/${id}:subscribe`, {
        method: 'POST',
        headers: { Accept: 'text/event-stream', ...cursor(afterSeq) },
      }),
    payload: (event) => event.json,
    refusal: restRefusal,
  },
  {
    name: 'JSON-RPC SubscribeToTask with Last-Event-ID',
    subscribe: (sim, id, afterSeq) =>
      fetch(`${sim.url}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', ...cursor(afterSeq) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SubscribeToTask', params: { id } }),
      }),
    payload: (event) => {
      expect(event.json).toMatchObject({ jsonrpc: '2.0', id: 7 });
      return event.json.result;
    },
    refusal: jsonRpcRefusal,
  },
];

const REPORT = {
  message: {
    messageId: 'resume-1',
    role: 'ROLE_USER',
    parts: [{ text: 'Write a long report on climate change' }],
  },
};

let sim: TestSim;
beforeEach(async () => {
  sim = await startSim({ keepAliveMs: 0 });
});
afterEach(() => sim.close());

/** Starts the long report over REST streaming; that stream is the reference: every event, in order. */
async function startReport(): Promise<{ taskId: string; reference: SseReader }> {
  const reference = await postSse(`${sim.url}/message:stream`, REPORT);
  const first = await reference.next();
  return { taskId: first!.json.task.id, reference: withFirst(reference, first!) };
}

/** Puts an already-read event back in front of the reader. */
function withFirst(reader: SseReader, first: SseEvent): SseReader {
  const next = reader.next.bind(reader);
  let pending: SseEvent | undefined = first;
  reader.next = async () => {
    if (!pending) return next();
    const event = pending;
    pending = undefined;
    return event;
  };
  return reader;
}

async function readerOf(response: Response): Promise<SseReader> {
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return new SseReader(response);
}

/** Reads `count` events, moving virtual time from timer to timer while they have not come yet. */
async function take(reader: SseReader, count: number): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  while (events.length < count) {
    await flushIo();
    events.push(...reader.drain().slice(0, count - events.length));
    if (events.length >= count) break;
    const next = sim.clock.nextAt();
    if (next === undefined) throw new Error(`only ${events.length} of ${count} events came`);
    sim.clock.advance(next - sim.clock.now());
  }
  return events;
}

const seqs = (events: SseEvent[]) => events.map((e) => Number(e.id));

describe.each(BINDINGS)('$name', (binding) => {
  it('a client that drops mid-artifact resumes with its cursor and sees every event exactly once', async () => {
    const { taskId, reference } = await startReport();
    const before = await take(await readerOf(await binding.subscribe(sim, taskId, 0)), 5);
    const lastSeen = before.at(-1)!;
    // The cut falls between two chunks of the streamed artifact.
    expect(binding.payload(lastSeen).artifactUpdate).toMatchObject({ append: true });
    expect(binding.payload(lastSeen).artifactUpdate.lastChunk).toBeUndefined();

    sim.clock.advance(7_000); // events keep coming while the client is away
    const resumed = await readerOf(await binding.subscribe(sim, taskId, Number(lastSeen.id)));
    const after = await sim.drive(resumed.rest());
    const all = await sim.drive(reference.rest());

    expect([...seqs(before), ...seqs(after)]).toEqual(seqs(all));
    expect(seqs(all)).toEqual(all.map((_, i) => i + 1));
    expect([...before, ...after].map(binding.payload)).toEqual(all.map((e) => e.json));
    expect(all.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('reconnecting after the task ended replays what was missed, then closes', async () => {
    const { taskId, reference } = await startReport();
    const before = await take(await readerOf(await binding.subscribe(sim, taskId, 0)), 3);
    const all = await sim.drive(reference.rest()); // the task runs to completion meanwhile

    const resumed = await readerOf(await binding.subscribe(sim, taskId, Number(before.at(-1)!.id)));
    const after = await resumed.rest();
    expect(resumed.closed).toBe(true);
    expect([...seqs(before), ...seqs(after)]).toEqual(seqs(all));
  });

  it('refuses a cursor at the end of a finished task: there is nothing newer', async () => {
    const { taskId, reference } = await startReport();
    const all = await sim.drive(reference.rest());
    const response = await binding.subscribe(sim, taskId, all.length);
    expect(await binding.refusal(response)).toMatchObject({ reason: 'UNSUPPORTED_OPERATION' });
  });

  it('refuses a cursor beyond the latest event as invalid params', async () => {
    const { taskId } = await startReport();
    const response = await binding.subscribe(sim, taskId, 99);
    expect(await binding.refusal(response)).toMatchObject({ reason: 'INVALID_PARAMS' });
  });

  it('gives every concurrent subscriber the same events in the same order', async () => {
    const { taskId, reference } = await startReport();
    const readers = await Promise.all(
      [0, 0, 1].map(async (afterSeq) => readerOf(await binding.subscribe(sim, taskId, afterSeq))),
    );
    const [all, ...streams] = await sim.drive(
      Promise.all([reference.rest(), ...readers.map((r) => r.rest())]),
    );
    expect(streams[0]!.map(binding.payload)).toEqual(all!.map((e) => e.json));
    expect(streams[1]!.map(binding.payload)).toEqual(all!.map((e) => e.json));
    expect(seqs(streams[2]!)).toEqual(seqs(all!).slice(1));
  });
});

describe('an expired cursor', () => {
  it.each(BINDINGS)('$name: gets EVENTS_EXPIRED with the oldest and latest retained seq', async (binding) => {
    await sim.close();
    sim = await startSim({ keepAliveMs: 0, retention: { eventTtlMs: 5_000 } });
    const { taskId, reference } = await startReport();
    sim.clock.advance(12_000);
    await flushIo();
    const seen = reference.drain();
    const latest = Number(seen.at(-1)!.id);

    const response = await binding.subscribe(sim, taskId, 1);
    const refusal = await binding.refusal(response);
    expect(refusal).toMatchObject({
      reason: 'EVENTS_EXPIRED',
      metadata: { taskId, afterSeq: '1', latestSeq: String(latest) },
    });
    // Only the events of the last five seconds are still replayable.
    const oldest = Number(refusal.metadata.oldestSeq);
    expect(oldest).toBeGreaterThan(2);
    expect(oldest).toBeLessThanOrEqual(latest);

    const fromOldest = await readerOf(await binding.subscribe(sim, taskId, oldest - 1));
    const replayed = await take(fromOldest, latest - oldest + 1);
    expect(seqs(replayed)).toEqual(seqs(seen).filter((seq) => seq >= oldest));
    expect(replayed.map(binding.payload)).toEqual(
      seen.filter((e) => Number(e.id) >= oldest).map((e) => e.json),
    );
  });
});
