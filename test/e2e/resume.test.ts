/**
 * Resuming a broken stream: on every streaming binding, a client that reads some events, drops
 * the connection and comes back with its cursor (the last SSE `id`, a per-task seq) gets exactly
 * the events it missed, so what it saw before and after is the task's whole event sequence.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { SseReader, type SseEvent } from '../helpers/sse.js';
import { cursorHeader, postForStream, rpcEnvelope, v03Send, v1Send } from '../helpers/wire.js';

interface ResumeBinding {
  name: string;
  /** Starts the long report as a stream in this binding's own dialect. */
  start(sim: TestSim): Promise<Response>;
  /** Subscribes to `taskId`, resuming after `afterSeq` when given. */
  subscribe(sim: TestSim, taskId: string, afterSeq?: number): Promise<Response>;
  /** The A2A payload of a frame, without the binding's envelope. */
  payload(event: SseEvent): any;
  /** The id of the task a stream's first frame opens. */
  taskIdOf(payload: any): string;
  /** What a payload is, in v1.0 terms: an artifact chunk's flags, or a status's state. */
  summary(payload: any): { chunk?: { append?: boolean; lastChunk?: boolean }; state?: string };
  /** The error of a refused subscribe: its reason and what it is about. */
  refusal(response: Response): Promise<{ reason: string; metadata: Record<string, unknown> }>;
}

const REPORT_TEXT = 'Write a long report on climate change';
const V1_REPORT = v1Send(REPORT_TEXT, { messageId: 'resume-1' });
const V03_REPORT = v03Send(REPORT_TEXT, { messageId: 'resume-1' });

/** A streaming JSON-RPC call (id 7) on `path`, with `selector` beside the envelope; the Response unread. */
const streamCall = (
  sim: TestSim,
  path: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
  selector = {},
) => postForStream(sim, path, rpcEnvelope(method, params, { id: 7, ...selector }), headers);

/** The body of an error answer: plain JSON, or the one frame of an event stream that failed. */
async function errorBody(response: Response): Promise<any> {
  const text = await response.text();
  return JSON.parse(
    response.headers.get('content-type')?.startsWith('text/event-stream')
      ? /^data: (.*)$/m.exec(text)![1]!
      : text,
  );
}

const restRefusal = async (response: Response) => {
  const { reason, metadata } = (await errorBody(response)).error.details[0];
  return { reason, metadata };
};
const v1RpcRefusal = async (response: Response) => {
  const { reason, metadata } = (await errorBody(response)).error.data[0];
  return { reason, metadata };
};
/** v0.3 `data` is a plain object (§8): its seqs are numbers, compared here as ErrorInfo's strings. */
const v03Refusal = async (response: Response) => {
  const { reason, ...metadata } = (await errorBody(response)).error.data;
  for (const key of ['afterSeq', 'oldestSeq', 'latestSeq']) {
    if (key in metadata) {
      expect(typeof metadata[key]).toBe('number');
      metadata[key] = String(metadata[key]);
    }
  }
  return { reason, metadata };
};
const rpcPayload = (event: SseEvent) => {
  expect(event.json).toMatchObject({ jsonrpc: '2.0', id: 7 });
  return event.json.result;
};

const v1Summary = (payload: any) => ({
  ...(payload.artifactUpdate && {
    chunk: { append: payload.artifactUpdate.append, lastChunk: payload.artifactUpdate.lastChunk },
  }),
  ...(payload.statusUpdate && { state: payload.statusUpdate.status.state }),
});
const V03_STATES: Record<string, string> = {
  completed: 'TASK_STATE_COMPLETED',
  working: 'TASK_STATE_WORKING',
};
const v03Summary = (payload: any) => ({
  ...(payload.kind === 'artifact-update' && {
    chunk: { append: payload.append, lastChunk: payload.lastChunk },
  }),
  ...(payload.kind === 'status-update' && {
    state: V03_STATES[payload.status.state] ?? payload.status.state,
  }),
});

const restStart = (sim: TestSim) => postForStream(sim, '/message:stream', V1_REPORT);

const GATEWAY_HEADERS = { 'X-API-Key': 'resume-key', 'X-Workspace-ID': 'ws-resume' };
const GATEWAY_SELECTOR = { agent_code: 'explore' };

const BINDINGS: ResumeBinding[] = [
  {
    name: 'REST GET /tasks/{id}:subscribe with Last-Event-ID',
    start: restStart,
    subscribe: (sim, id, afterSeq) =>
      fetch(`${sim.url}/tasks/${id}:subscribe`, {
        headers: { Accept: 'text/event-stream', ...cursorHeader(afterSeq) },
      }),
    payload: (event) => event.json,
    taskIdOf: (payload) => payload.task.id,
    summary: v1Summary,
    refusal: restRefusal,
  },
  {
    name: 'REST POST /tasks/{id}:subscribe with Last-Event-ID',
    start: restStart,
    subscribe: (sim, id, afterSeq) =>
      fetch(`${sim.url}/tasks/${id}:subscribe`, {
        method: 'POST',
        headers: { Accept: 'text/event-stream', ...cursorHeader(afterSeq) },
      }),
    payload: (event) => event.json,
    taskIdOf: (payload) => payload.task.id,
    summary: v1Summary,
    refusal: restRefusal,
  },
  {
    name: 'JSON-RPC 1.0 SubscribeToTask with Last-Event-ID',
    start: (sim) => streamCall(sim, '/', 'SendStreamingMessage', V1_REPORT, { 'A2A-Version': '1.0' }),
    subscribe: (sim, id, afterSeq) =>
      streamCall(sim, '/', 'SubscribeToTask', { id }, { 'A2A-Version': '1.0', ...cursorHeader(afterSeq) }),
    payload: rpcPayload,
    taskIdOf: (payload) => payload.task.id,
    summary: v1Summary,
    refusal: v1RpcRefusal,
  },
  {
    name: 'JSON-RPC 0.3 tasks/resubscribe with afterSeq',
    start: (sim) => streamCall(sim, '/', 'message/stream', V03_REPORT),
    subscribe: (sim, taskId, afterSeq) => streamCall(sim, '/', 'tasks/resubscribe', { taskId, afterSeq }),
    payload: rpcPayload,
    taskIdOf: (payload) => payload.id,
    summary: v03Summary,
    refusal: v03Refusal,
  },
  {
    name: 'gateway tasks/resubscribe with afterSeq',
    start: (sim) =>
      streamCall(sim, '/agents/a2a', 'message/stream', V03_REPORT, GATEWAY_HEADERS, GATEWAY_SELECTOR),
    subscribe: (sim, taskId, afterSeq) =>
      streamCall(
        sim,
        '/agents/a2a',
        'tasks/resubscribe',
        { taskId, afterSeq },
        GATEWAY_HEADERS,
        GATEWAY_SELECTOR,
      ),
    payload: rpcPayload,
    taskIdOf: (payload) => payload.id,
    summary: v03Summary,
    refusal: v03Refusal,
  },
];

const OPTIONS = { keepAlive: 0, apiKeys: { 'resume-key': ['ws-resume'] } };

let sim: TestSim;
beforeEach(async () => {
  sim = await startSim(OPTIONS);
});
afterEach(() => sim.close());

/** Starts the long report; its own stream is the reference: every event, in order. */
async function startReport(binding: ResumeBinding): Promise<{ taskId: string; reference: SseReader }> {
  const reference = await readerOf(await binding.start(sim));
  const first = await reference.next();
  return { taskId: binding.taskIdOf(binding.payload(first!)), reference: withFirst(reference, first!) };
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
    const { taskId, reference } = await startReport(binding);
    const before = await take(await readerOf(await binding.subscribe(sim, taskId, 0)), 5);
    const lastSeen = before.at(-1)!;
    // The cut falls between two chunks of the streamed artifact.
    expect(binding.summary(binding.payload(lastSeen)).chunk).toEqual({ append: true, lastChunk: undefined });

    sim.clock.advance(7_000); // events keep coming while the client is away
    const resumed = await readerOf(await binding.subscribe(sim, taskId, Number(lastSeen.id)));
    const after = await sim.drive(resumed.rest());
    const all = await sim.drive(reference.rest());

    expect([...seqs(before), ...seqs(after)]).toEqual(seqs(all));
    expect(seqs(all)).toEqual(all.map((_, i) => i + 1));
    expect([...before, ...after].map(binding.payload)).toEqual(all.map(binding.payload));
    expect(binding.summary(binding.payload(all.at(-1)!)).state).toBe('TASK_STATE_COMPLETED');
  });

  it('reconnecting after the task ended replays what was missed, then closes', async () => {
    const { taskId, reference } = await startReport(binding);
    const before = await take(await readerOf(await binding.subscribe(sim, taskId, 0)), 3);
    const all = await sim.drive(reference.rest()); // the task runs to completion meanwhile

    const resumed = await readerOf(await binding.subscribe(sim, taskId, Number(before.at(-1)!.id)));
    const after = await resumed.rest();
    expect(resumed.closed).toBe(true);
    expect([...seqs(before), ...seqs(after)]).toEqual(seqs(all));
  });

  it('refuses a cursor at the end of a finished task: there is nothing newer', async () => {
    const { taskId, reference } = await startReport(binding);
    const all = await sim.drive(reference.rest());
    const response = await binding.subscribe(sim, taskId, all.length);
    expect(await binding.refusal(response)).toMatchObject({ reason: 'UNSUPPORTED_OPERATION' });
  });

  it('refuses a cursor beyond the latest event as invalid params', async () => {
    const { taskId } = await startReport(binding);
    const response = await binding.subscribe(sim, taskId, 99);
    expect(await binding.refusal(response)).toMatchObject({ reason: 'INVALID_PARAMS' });
  });

  it('gives every concurrent subscriber the same events in the same order', async () => {
    const { taskId, reference } = await startReport(binding);
    const readers = await Promise.all(
      [0, 0, 1].map(async (afterSeq) => readerOf(await binding.subscribe(sim, taskId, afterSeq))),
    );
    const [all, ...streams] = await sim.drive(
      Promise.all([reference.rest(), ...readers.map((r) => r.rest())]),
    );
    expect(streams[0]!.map(binding.payload)).toEqual(all!.map(binding.payload));
    expect(streams[1]!.map(binding.payload)).toEqual(all!.map(binding.payload));
    expect(seqs(streams[2]!)).toEqual(seqs(all!).slice(1));
  });
});

describe('an expired cursor', () => {
  it.each(BINDINGS)('$name: gets EVENTS_EXPIRED with the oldest and latest retained seq', async (binding) => {
    await sim.close();
    sim = await startSim({ ...OPTIONS, retention: { eventTtl: 5_000 } });
    const { taskId, reference } = await startReport(binding);
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
      seen.filter((e) => Number(e.id) >= oldest).map(binding.payload),
    );
  });
});
