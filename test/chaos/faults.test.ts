/**
 * Stream faults on the wire, provoked with `X-Sim-Chaos` against a real server: cut streams (a
 * clean close, a TCP reset, silence on an open socket), duplicated events, first-byte latency,
 * jitter and protocol quirks, each checked as a client sees it and against `GET /_sim/faults`.
 */
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { getSse, postSse, SseReader } from '../helpers/sse.js';
import {
  chaos,
  dataFrames,
  faultsOf,
  framesOf,
  ids,
  rawRequest,
  REPORT_TEXT,
  rpcBody,
  runUntil,
  settle,
  STREAMS,
  TimedReader,
  v03Send,
  v1Send,
  waitUntil,
  type StreamBinding,
} from './helpers.js';

const [REST, RPC] = STREAMS as [StreamBinding, StreamBinding, StreamBinding];

let t: TestSim;
beforeEach(async () => {
  t = await startSim({ keepAliveMs: 0 });
});
afterEach(() => t.close());

const startStream = (b: StreamBinding, id: string, profile: string) =>
  postSse(`${t.url}${b.path}`, b.body(id), { ...b.headers, ...chaos(profile) });
/** The id of the only task of this test's simulator, read without chaos and without moving the clock. */
const onlyTaskId = async () =>
  ((await (await fetch(`${t.url}/tasks`, { headers: chaos('off') })).json()) as any).tasks[0].id as string;
/** Every event of a finished task, read cleanly from seq 0. */
const cleanReplay = async (taskId: string) =>
  (await getSse(`${t.url}/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '0', ...chaos('off') })).rest();
const seqsTo = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
const reportTaskId = (b: StreamBinding, json: any) => {
  const p = b.payload(json);
  return (p.task?.id ?? p.id) as string;
};

describe('drop', () => {
  it.each(STREAMS)(
    '$name, drop-mode=fin: the stream ends cleanly after exactly N events, none terminal',
    async (b) => {
      const reader = await startStream(b, 'fin-1', 'drop-after-events=4, drop-mode=fin');
      const events = await settle(t, reader.rest()); // rest() throws if the read failed
      expect(reader.closed).toBe(true);
      expect(events.map((e) => e.id)).toEqual(seqsTo(4));
      expect(events.map((e) => b.payload(e.json)).filter(b.isTerminal)).toEqual([]);

      const taskId = reportTaskId(b, events[0]!.json);
      expect(await faultsOf(t, { taskId })).toMatchObject([
        {
          kind: 'drop',
          seq: 4,
          detail: { mode: 'fin', reason: 'after-events' },
          request: { binding: b.name, operation: b.operation },
        },
      ]);
      // The task went on without the client: a clean replay has more, up to its terminal status.
      const all = await settle(t, cleanReplay(taskId));
      expect(all.length).toBeGreaterThan(4);
    },
  );

  it('drop-mode=reset: the fetch body read rejects with a connection reset, after a prefix of the events', async () => {
    const reader = await startStream(REST, 'rf-1', 'drop-after-events=3, drop-mode=reset');
    const read: string[] = [];
    const failure = await settle(
      t,
      (async () => {
        for (let e = await reader.next(); e; e = await reader.next()) read.push(e.id!);
      })().then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    expect(read).toEqual(seqsTo(read.length));
    expect(read.length).toBeLessThanOrEqual(3);
  });

  it.each([REST, RPC])(
    '$name, drop-mode=reset: N events arrive, then the read fails with ECONNRESET',
    async (b) => {
      const x = rawRequest(
        t,
        'POST',
        b.path,
        { ...b.headers, ...chaos('drop-after-events=3, drop-mode=reset') },
        b.body('r-1'),
      );
      await runUntil(t, () => x.closed, 'the connection to close');
      expect(x.status).toBe(200);
      expect(x.error).toBe('ECONNRESET');
      expect([x.fin, x.complete]).toEqual([false, false]);
      const [drop] = await faultsOf(t, { kind: 'drop' });
      expect(drop).toMatchObject({ seq: 3, detail: { mode: 'reset', reason: 'after-events' } });
      // What the record says was delivered is what the client got before the reset.
      expect(ids(x.frames())).toEqual(seqsTo(3));
    },
  );

  it('drop-after-events=0, drop-mode=reset: the connection is reset before any event, not closed cleanly', async () => {
    const x = rawRequest(
      t,
      'POST',
      REST.path,
      chaos('drop-after-events=0, drop-mode=reset'),
      REST.body('r-0'),
    );
    await runUntil(t, () => x.closed, 'the connection to close');
    expect(ids(x.frames())).toEqual([]);
    expect({ error: x.error, fin: x.fin }).toEqual({ error: 'ECONNRESET', fin: false });
  });

  it('drop-mode=hang: after N events nothing more comes, keep-alives included, on a socket left open until the client aborts', async () => {
    await t.close();
    t = await startSim({ keepAliveMs: 1_000 });
    const serverSockets: Socket[] = [];
    t.sim.server.on('connection', (socket: Socket) => serverSockets.push(socket));
    const x = rawRequest(
      t,
      'POST',
      REST.path,
      chaos('drop-after-events=2, drop-mode=hang'),
      REST.body('h-1'),
    );
    await runUntil(t, () => ids(x.frames()).length >= 2, 'two events');
    const silentFrom = { bytes: x.received, at: t.clock.now() };
    const taskId = reportTaskId(REST, x.frames()[0]!.json);

    // Another client's clean stream of the same task: it keeps getting keep-alives and events.
    const clean = await getSse(`${t.url}/tasks/${taskId}:subscribe`, {
      'Last-Event-ID': '0',
      ...chaos('off'),
    });
    const all = await settle(t, clean.rest());
    t.clock.advance(60_000);
    await flushIo(50);
    expect(t.clock.now() - silentFrom.at).toBeGreaterThan(60_000);
    expect(all.length).toBeGreaterThan(2);
    expect(clean.keepAlives).toBeGreaterThan(0);

    expect(ids(x.frames())).toEqual(seqsTo(2));
    expect(x.frames().filter((f) => f.comment !== undefined)).toEqual([]);
    expect(x.received).toBe(silentFrom.bytes);
    expect({ fin: x.fin, error: x.error, closed: x.closed, complete: x.complete }).toEqual({
      fin: false,
      error: undefined,
      closed: false,
      complete: false,
    });
    const serverSide = serverSockets.find((s) => s.remotePort === x.localPort)!;
    expect(serverSide.destroyed).toBe(false);
    expect(await faultsOf(t, { taskId })).toMatchObject([{ kind: 'drop', seq: 2, detail: { mode: 'hang' } }]);

    x.abort();
    await waitUntil(() => serverSide.destroyed, 'the server to see the client go');
  });

  it('drop-after-ms: the stream is cut that long after it opened, after the last event sent before then', async () => {
    const chaotic = new TimedReader(await startStream(REST, 'ms-1', 'drop-after-ms=5s'), t);
    const opened = t.clock.now();
    const taskId = await onlyTaskId();
    const clean = new TimedReader(
      await getSse(`${t.url}/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '0', ...chaos('off') }),
      t,
    );
    await runUntil(t, () => [chaotic.poll(), clean.poll()].every(Boolean), 'both streams to end');

    const expected = clean.events.filter((e) => e.at < opened + 5_000);
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(clean.events.length);
    expect(chaotic.events.map((e) => e.data)).toEqual(expected.map((e) => e.data));
    expect(await faultsOf(t, { taskId, kind: 'drop' })).toMatchObject([
      {
        seq: Number(expected.at(-1)!.id),
        at: new Date(opened + 5_000).toISOString(),
        detail: { mode: 'fin', reason: 'after-ms' },
      },
    ]);
  });

  it('drop-probability: a seeded draw cuts the stream before an event; the record names the last event delivered', async () => {
    const reader = await startStream(REST, 'rate-1', 'drop-probability=0.2');
    const events = await settle(t, reader.rest());
    const taskId = reportTaskId(REST, events[0]!.json);
    const all = await settle(t, cleanReplay(taskId));

    const drops = await faultsOf(t, { taskId, kind: 'drop' });
    expect(drops).toMatchObject([{ detail: { mode: 'fin', reason: 'probability' } }]);
    expect(drops[0]!.seq).toBe(Number(events.at(-1)!.id));
    expect(events.map((e) => e.id)).toEqual(seqsTo(events.length));
    expect(events.length).toBeLessThan(all.length);
    expect(events.map((e) => e.data)).toEqual(all.slice(0, events.length).map((e) => e.data));
  });
});

describe('duplicate', () => {
  const streamText = async (profile: string) => {
    const response = await fetch(`${t.url}/message:stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...chaos(profile) },
      body: JSON.stringify(REST.body('dup-1')),
    });
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
    const pending = fetch(`${t.url}/message:stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...chaos('latency-first-byte=1500ms') },
      body: JSON.stringify(REST.body('lat-1')),
    }).then((response) => ((headersAt = t.clock.now()), response));
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
    const sent = await fetch(`${t.url}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(
        v1Send('What is the weather today?', 'w-1', { configuration: { returnImmediately: true } }),
      ),
    });
    const { task } = (await sent.json()) as any;
    const timers = t.clock.pending;
    let answeredAt: number | undefined;
    const pending = fetch(`${t.url}/tasks/${task.id}`, { headers: chaos('latency-first-byte=800ms') }).then(
      (response) => ((answeredAt = t.clock.now()), response),
    );
    await waitUntil(() => t.clock.pending > timers, 'the delay to be armed');
    const start = t.clock.now();
    t.clock.advance(799);
    await flushIo(50);
    expect(answeredAt).toBeUndefined();
    t.clock.advance(1);
    expect(((await (await pending).json()) as any).id).toBe(task.id);
    expect(answeredAt).toBe(start + 800);
    expect(await faultsOf(t, { taskId: task.id })).toMatchObject([
      { kind: 'delay', detail: { where: 'response', ms: 800 }, request: { operation: 'GET /tasks/{id}' } },
    ]);
  });

  it('latency-per-event: each event is held back by its own delay and never overtakes the one before it', async () => {
    const chaotic = new TimedReader(await startStream(REST, 'jit-1', 'latency-per-event=0..1500ms'), t);
    const taskId = await onlyTaskId();
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
      const response = await fetch(`${t.url}${b.path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...b.headers, ...chaos('quirky-agent') },
        body: JSON.stringify(b.body('q-1')),
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
      const get = async (profile: string) =>
        (await fetch(`${t.url}/tasks/${taskId}`, { headers: chaos(profile) })).json() as Promise<any>;
      const task = await get('quirky-agent');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task).toEqual(await get('off'));
    },
  );
});

describe('GET /_sim/faults', () => {
  it('lists each fault with its kind, seq and request, and filters by taskId, kind and after', async () => {
    const a = await startStream(REST, 'log-a', 'drop-after-events=3, duplicate-probability=1');
    const aEvents = await settle(t, a.rest());
    const b = await startStream(RPC, 'log-b', 'drop-after-events=2');
    const bEvents = await settle(t, b.rest());
    const gw = await postSse(
      `${t.url}/agents/a2a`,
      rpcBody('message/stream', v03Send(REPORT_TEXT, 'log-c'), 'log-c', { agent_code: 'explore' }),
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
