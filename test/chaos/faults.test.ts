/**
 * Stream faults on the wire, provoked with `X-Sim-Chaos` against a real server: duplicated events,
 * first-byte latency, jitter and protocol quirks, each checked as a client sees it and against
 * `GET /_sim/faults` (cut streams: drop.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { getSse, postSse, SseReader } from '../helpers/sse.js';
import {
  chaosHeader as chaos,
  getJson,
  postForStream,
  postJson,
  RETURN_IMMEDIATELY,
  rpcEnvelope,
  v03Send,
  v1Send,
} from '../helpers/wire.js';
import {
  dataFrames,
  faultsOf,
  framesOf,
  onlyTaskId,
  REPORT_TEXT,
  reportTaskId,
  runUntil,
  seqsTo,
  settle,
  startStream,
  REST_STREAM as REST,
  RPC_STREAM as RPC,
  STREAMS,
  TimedReader,
  waitUntil,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startSim({ keepAlive: 0 });
});
afterEach(() => t.close());

describe('duplicate', () => {
  const streamText = async (profile: string) => {
    const response = await postForStream(t, '/message:stream', REST.body('dup-1'), chaos(profile));
    return dataFrames(framesOf(await settle(t, response.text())));
  };

  it('duplicate-probability=1: every event is sent twice in a row, with the same id and byte-identical data', async () => {
    const frames = await streamText('duplicate-probability=1');
    const originals = frames.filter((_, i) => i % 2 === 0);
    expect(frames.length).toBe(originals.length * 2);
    originals.forEach((frame, i) => expect(frames[2 * i + 1]).toEqual(frame));
    expect(originals.map((f) => f.id)).toEqual(seqsTo(originals.length));
    expect(REST.state(originals.at(-1)!.json)).toBe('TASK_STATE_COMPLETED');
    const copies = await faultsOf(t, { kind: 'duplicate' });
    expect(copies.map((f) => [f.seq, f.detail.lateBy])).toEqual(originals.map((f) => [Number(f.id), 0]));
  });

  it('duplicate-late-by=3: each copy follows three newer events; copies still pending go out before the close', async () => {
    const lateBy = 3;
    const frames = await streamText(`duplicate-late-by=${lateBy}`);
    const n = new Set(frames.map((f) => f.id)).size;
    const expected: number[] = [];
    for (let seq = 1; seq <= n; seq++) expected.push(seq, ...(seq > lateBy ? [seq - lateBy] : []));
    for (let seq = n - lateBy + 1; seq <= n; seq++) expected.push(seq);
    expect(frames.map((f) => Number(f.id))).toEqual(expected);
    // A copy is byte for byte its original: one distinct data line per id.
    const dataOf = new Map<string | undefined, Set<string | undefined>>();
    for (const f of frames) dataOf.set(f.id, new Set([...(dataOf.get(f.id) ?? []), f.data]));
    expect([...dataOf.values()].map((d) => d.size)).toEqual(Array.from({ length: n }, () => 1));
    expect(n).toBeGreaterThan(lateBy);
  });
});

describe('latency', () => {
  it("first-byte latency: a stream's headers arrive only once the clock passes the delay", async () => {
    const tasks = t.sim.store.size;
    let headersAt: number | undefined;
    const pending = postForStream(
      t,
      '/message:stream',
      REST.body('lat-1'),
      chaos('latency-first-byte=1500ms'),
    ).then((response) => ((headersAt = t.clock.now()), response));
    await waitUntil(() => t.sim.store.size > tasks, 'the task to start');
    const start = t.clock.now();
    await flushIo(20);
    t.clock.advance(1_499);
    await flushIo(50);
    expect(headersAt).toBeUndefined();
    t.clock.advance(1);
    const reader = new SseReader(await pending);
    expect(headersAt).toBe(start + 1_500);
    const events = await settle(t, reader.rest());
    expect(events.map((e) => e.id)).toEqual(seqsTo(events.length));
    expect((await faultsOf(t, { kind: 'delay' }))[0]).toMatchObject({
      detail: { where: 'first-byte', ms: 1_500 },
    });
  });

  it('first-byte latency on a non-streaming call: GetTask answers only after the delay', async () => {
    const sent = await postJson(
      t,
      '/message:send',
      v1Send('What is the weather today?', { messageId: 'w-1' }, RETURN_IMMEDIATELY),
    );
    const { task } = sent.body;
    const timers = t.clock.pending;
    let answeredAt: number | undefined;
    const pending = getJson(t, `/tasks/${task.id}`, chaos('latency-first-byte=800ms')).then(
      (answer) => ((answeredAt = t.clock.now()), answer),
    );
    await waitUntil(() => t.clock.pending > timers, 'the delay to be armed');
    const start = t.clock.now();
    t.clock.advance(799);
    await flushIo(50);
    expect(answeredAt).toBeUndefined();
    t.clock.advance(1);
    expect((await pending).body.id).toBe(task.id);
    expect(answeredAt).toBe(start + 800);
    expect(await faultsOf(t, { taskId: task.id })).toMatchObject([
      { kind: 'delay', detail: { where: 'response', ms: 800 }, request: { operation: 'GET /tasks/{id}' } },
    ]);
  });

  it('latency-per-event: each event is held back by its own delay and never overtakes the one before it', async () => {
    const chaotic = new TimedReader(await startStream(t, REST, 'jit-1', 'latency-per-event=0..1500ms'), t);
    const taskId = await onlyTaskId(t);
    const clean = new TimedReader(
      await getSse(`${t.url}/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '0', ...chaos('off') }),
      t,
    );
    await runUntil(t, () => [chaotic.poll(), clean.poll()].every(Boolean), 'both streams to end');

    expect(chaotic.events.map((e) => e.data)).toEqual(clean.events.map((e) => e.data));
    expect(chaotic.events.map((e) => e.id)).toEqual(seqsTo(clean.events.length));
    const jitter = new Map(
      (await faultsOf(t, { taskId, kind: 'delay' })).map((f) => [f.seq, Number(f.detail.ms)]),
    );
    expect(jitter.size).toBeGreaterThan(0);
    expect([...jitter.values()].every((ms) => ms > 0 && ms <= 1_500)).toBe(true);
    let previous = -Infinity;
    for (const event of clean.events) {
      const due = Math.max(previous, event.at + (jitter.get(Number(event.id)) ?? 0));
      expect(chaotic.at(event.id!), `seq ${event.id}`).toBe(due);
      previous = due;
    }
  });
});

describe('quirks (the quirky-agent profile)', () => {
  it.each(STREAMS)(
    '$name: an id-less unknown state, a late status after the end, a final Task snapshot, keep-alives before every event',
    async (b) => {
      const response = await postForStream(t, b.path, b.body('q-1'), {
        ...b.headers,
        ...chaos('quirky-agent'),
      });
      const frames = framesOf(await settle(t, response.text()));
      const data = dataFrames(frames);
      // Every data frame comes right after a keep-alive comment (the server's own keep-alives are off).
      expect(frames.map((f) => (f.comment === undefined ? 'data' : f.comment))).toEqual(
        data.flatMap(() => ['keep-alive', 'data']),
      );
      const logged = data.filter((f) => f.id !== undefined);
      expect(logged.map((f) => f.id)).toEqual(seqsTo(logged.length));
      const payloads = data.map((f) => b.payload(f.json));
      expect(data.map((f) => f.id === undefined)).toEqual(
        data.map((_, i) => i === 1 || i >= data.length - 2),
      );
      expect(b.state(payloads[1])).toBe(b.states.unknown);
      expect(b.state(payloads.at(-3))).toBe(b.states.completed);
      expect(b.state(payloads.at(-2))).toBe(b.states.working);
      expect(b.taskState(payloads.at(-1))).toBe(b.states.completed);

      const taskId = reportTaskId(b, data[0]!.json);
      const quirks = await faultsOf(t, { taskId, kind: 'quirk' });
      const count = (q: string) => quirks.filter((f) => f.detail.quirk === q).length;
      expect(['unknown-state', 'late-status', 'final-snapshot'].map(count)).toEqual([1, 1, 1]);
      expect(count('keep-alive-flood')).toBe(data.length);
      expect(quirks.every((f) => f.request?.binding === b.name)).toBe(true);

      // GetTask afterwards, under the same profile, sees the task as it is: completed.
      const get = async (profile: string) => (await getJson(t, `/tasks/${taskId}`, chaos(profile))).body;
      const task = await get('quirky-agent');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task).toEqual(await get('off'));
    },
  );
});

describe('GET /_sim/faults', () => {
  it('lists each fault with its kind, seq and request, and filters by taskId, kind and after', async () => {
    const a = await startStream(t, REST, 'log-a', 'drop-after-events=3, duplicate-probability=1');
    const aEvents = await settle(t, a.rest());
    const b = await startStream(t, RPC, 'log-b', 'drop-after-events=2');
    const bEvents = await settle(t, b.rest());
    const gw = await postSse(
      `${t.url}/agents/a2a`,
      rpcEnvelope('message/stream', v03Send(REPORT_TEXT, { messageId: 'log-c' }), {
        id: 'log-c',
        agent_code: 'explore',
      }),
      chaos('drop-after-events=1'),
    );
    const gwEvents = await settle(t, gw.rest());
    const [taskA, taskB, taskC] = [
      reportTaskId(REST, aEvents[0]!.json),
      reportTaskId(RPC, bEvents[0]!.json),
      gwEvents[0]!.json.result.id as string,
    ];

    expect(aEvents.map((e) => e.id)).toEqual(['1', '1', '2', '2', '3', '3']);
    const ofA = await faultsOf(t, { taskId: taskA });
    expect(ofA.map((f) => [f.kind, f.seq])).toEqual([
      ['duplicate', 1],
      ['duplicate', 2],
      ['duplicate', 3],
      ['drop', 3],
    ]);
    for (const f of ofA) {
      expect(f.request).toMatchObject({
        binding: 'REST',
        operation: 'POST /message:stream',
        chaos: 'drop-after-events=3, duplicate-probability=1',
      });
    }
    expect(await faultsOf(t, { taskId: taskB })).toMatchObject([
      {
        kind: 'drop',
        seq: 2,
        request: { binding: 'JSON-RPC 1.0', operation: 'SendStreamingMessage', id: 'log-b' },
      },
    ]);
    expect(await faultsOf(t, { taskId: taskC })).toMatchObject([
      { kind: 'drop', seq: 1, request: { binding: 'gateway', operation: 'message/stream', id: 'log-c' } },
    ]);

    const all = await faultsOf(t);
    expect(all.map((f) => f.n)).toEqual(seqsTo(all.length).map(Number));
    expect((await faultsOf(t, { kind: 'drop' })).map((f) => f.taskId)).toEqual([taskA, taskB, taskC]);
    const lastOfA = ofA.at(-1)!.n;
    expect((await faultsOf(t, { after: lastOfA })).map((f) => f.taskId)).toEqual([taskB, taskC]);
  });
});
