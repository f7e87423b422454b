/**
 * The A2A v0.3 JSON-RPC dialect on `POST /` (protocol digest §1-4), checked on the raw frames:
 * v0.3 shapes and resuming with `tasks/resubscribe` (errors and version selection: v03-errors.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { type SseEvent } from '../helpers/sse.js';
import { rpc, rpcStream, v03Send } from '../helpers/wire.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim();
});
afterAll(() => t.close());

/** Sends and waits for the answer, running the virtual clock meanwhile. */
const send = async (params: unknown) => (await t.drive(rpc(t, 'message/send', params))).body.result;

const results = (events: SseEvent[]) => events.map((e) => e.json.result);

/** Each status-update as its state and `final` flag, in order. */
const finals = (events: SseEvent[]) =>
  results(events)
    .filter((r) => r.kind === 'status-update')
    .map((r) => [r.status.state, r.final]);

describe('v0.3 shapes', () => {
  it('answers message/send with a bare Task: kind tags, lowercase states and roles, no v1.0 names', async () => {
    const res = await t.drive(rpc(t, 'message/send', v03Send('What is the weather today?')));
    expect(res.status).toBe(200);
    const task = res.body.result;
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/);
    expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(task.history.map((m: any) => [m.kind, m.role])).toEqual([['message', 'user']]);
    expect(task.artifacts[0]).toMatchObject({ name: 'Weather Report', parts: [{ kind: 'text' }] });
    expect(res.text).not.toMatch(/TASK_STATE_|ROLE_|"task":/);
  });

  it('answers a greeting with a bare Message', async () => {
    const reply = await send(v03Send('Hello'));
    expect(reply).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text' }] });
  });

  it('streams bare kind objects and marks final:true only on the completed status that ends the stream', async () => {
    const events = await t.drive(
      rpcStream(t, 'message/stream', v03Send('What is the weather today?')).then((s) => s.rest()),
    );
    expect(results(events).map((r) => r.kind)).toEqual([
      'task',
      'status-update',
      'artifact-update',
      'status-update',
    ]);
    expect(finals(events)).toEqual([
      ['working', false],
      ['completed', true],
    ]);
    expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
    expect(results(events)[2]).toMatchObject({ lastChunk: true, artifact: { name: 'Weather Report' } });
  });

  it('marks final:true on input-required, where the stream closes, and on completion of the follow-up', async () => {
    const first = await t.drive(
      rpcStream(t, 'message/stream', v03Send('Book me a flight')).then((s) => s.rest()),
    );
    expect(finals(first)).toEqual([
      ['working', false],
      ['input-required', true],
    ]);
    const taskId = results(first)[0].id;
    const second = await t.drive(
      rpcStream(t, 'message/stream', v03Send('From San Francisco to New York', { taskId })).then((s) =>
        s.rest(),
      ),
    );
    expect(finals(second)).toEqual([
      ['working', false],
      ['completed', true],
    ]);
  });

  it('marks final:true on auth-required, where streams close by default', async () => {
    const events = await t.drive(
      rpcStream(t, 'message/stream', v03Send('Check my calendar')).then((s) => s.rest()),
    );
    expect(finals(events).at(-1)).toEqual(['auth-required', true]);
  });

  it('marks final only on the status that ends this stream: a replayed, answered input-required is not', async () => {
    const first = await t.drive(
      rpcStream(t, 'message/stream', v03Send('Book me a flight')).then((s) => s.rest()),
    );
    const taskId = results(first)[0].id;
    await send(v03Send('From San Francisco to New York', { taskId }));
    const replay = await t.drive(
      rpcStream(t, 'tasks/resubscribe', { taskId, afterSeq: 0 }).then((s) => s.rest()),
    );
    expect(finals(replay)).toEqual([
      ['working', false],
      ['input-required', false],
      ['working', false],
      ['completed', true],
    ]);
  });

  it('does not mark auth-required final when streams are configured to stay open there', async () => {
    const open = await startSim({ closeStreamOnAuthRequired: false });
    try {
      const reader = await rpcStream(open, 'message/stream', v03Send('Check my calendar'));
      const events = [];
      for (let event = await open.drive(reader.next()); event; event = await open.drive(reader.next())) {
        events.push(event);
        if (event.json.result.status?.state === 'auth-required') break;
      }
      expect(finals(events).at(-1)).toEqual(['auth-required', false]);
    } finally {
      await open.close();
    }
  });

  it.each([42, '42'])('echoes the JSON-RPC id %j with its type unchanged in every frame', async (id) => {
    const events = await t.drive(
      rpcStream(t, 'message/stream', v03Send('What is the weather today?'), { id }).then((s) => s.rest()),
    );
    expect(events.length).toBe(4);
    for (const event of events) {
      expect(event.json.id).toStrictEqual(id);
      expect(event.data.startsWith(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"kind":`)).toBe(
        true,
      );
    }
  });

  it('answers blocking:false at once with the submitted task; absent blocking waits', async () => {
    const report = v03Send(
      'Write a long report on climate change',
      {},
      { configuration: { blocking: false } },
    );
    // No clock driving: the answer cannot wait for the task.
    const { body } = await rpc(t, 'message/send', report);
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    const waited = await send(v03Send('Please fail this task', {}, { configuration: {} }));
    expect(waited.status.state).toBe('failed');
  });

  it('unwraps a data_part_compat value on input and wraps non-object data again on output', async () => {
    const parts = [
      { kind: 'text', text: 'What is the weather today in these cities?' },
      { kind: 'data', data: { value: ['Paris', 'Rome'] }, metadata: { data_part_compat: true } },
      { kind: 'data', data: { city: 'Oslo' } },
    ];
    const task = await send(v03Send('', { parts }));
    expect(task.history[0].parts).toEqual(parts);
    const v1 = await rpc(t, 'GetTask', { id: task.id }, { headers: { 'A2A-Version': '1.0' } });
    expect(v1.body.result.history[0].parts.slice(1)).toEqual([
      { data: ['Paris', 'Rome'] },
      { data: { city: 'Oslo' } },
    ]);
  });

  it('keeps file parts by bytes and by uri, with name and mimeType, through the task history', async () => {
    const parts = [
      { kind: 'text', text: 'What is the weather on this picture?' },
      { kind: 'file', file: { bytes: 'aGVsbG8=', name: 'hello.txt', mimeType: 'text/plain' } },
      { kind: 'file', file: { uri: 'https://example.com/sky.png', mimeType: 'image/png' } },
    ];
    const task = await send(v03Send('', { parts }));
    expect(task.history[0].parts).toEqual(parts);
    const v1 = await rpc(t, 'GetTask', { id: task.id }, { headers: { 'A2A-Version': '1.0' } });
    expect(v1.body.result.history[0].parts.slice(1)).toEqual([
      { raw: 'aGVsbG8=', filename: 'hello.txt', mediaType: 'text/plain' },
      { url: 'https://example.com/sky.png', mediaType: 'image/png' },
    ]);
  });

  it('answers tasks/get with the bare Task, history limited by historyLength', async () => {
    const { id } = await send(v03Send('Book me a flight'));
    const { body } = await rpc(t, 'tasks/get', { id, historyLength: 1 });
    expect(body.result).toMatchObject({ kind: 'task', id, status: { state: 'input-required' } });
    expect(body.result.history).toHaveLength(1);
    expect((await rpc(t, 'tasks/get', { id, historyLength: 0 })).body.result).not.toHaveProperty('history');
  });
});

describe('tasks/resubscribe', () => {
  it('replays the events after {taskId, afterSeq} with their seq as the SSE id, then ends', async () => {
    const events = await t.drive(
      rpcStream(t, 'message/stream', v03Send('What is the weather today?')).then((s) => s.rest()),
    );
    const taskId = results(events)[0].id;
    const replay = await (
      await rpcStream(t, 'tasks/resubscribe', { taskId, afterSeq: 2 }, { id: 'again' })
    ).rest();
    expect(replay.map((e) => e.id)).toEqual(['3', '4']);
    expect(replay.map((e) => e.data)).toEqual(
      events.slice(2).map((e) => e.data.replace('"id":1', '"id":"again"')),
    );
    expect(finals(replay)).toEqual([['completed', true]]);
  });

  it('resumes a running task after the cursor, then follows it live to the end', async () => {
    const { body } = await rpc(
      t,
      'message/send',
      v03Send('Write a long report on climate change', {}, { configuration: { blocking: false } }),
    );
    const taskId = body.result.id;
    t.clock.advance(5_000);
    const resumed = await rpcStream(t, 'tasks/resubscribe', { taskId, afterSeq: 1 });
    const events = await t.drive(resumed.rest());
    const seqs = events.map((e) => Number(e.id));
    expect(seqs).toEqual(seqs.map((_, i) => 2 + i));
    expect(finals(events).at(-1)).toEqual(['completed', true]);
  });

  it('takes Last-Event-ID as the cursor when the params carry none', async () => {
    const { id } = await send(v03Send('What is the weather today?'));
    const replay = await (
      await rpcStream(t, 'tasks/resubscribe', { id }, { headers: { 'Last-Event-ID': '3' } })
    ).rest();
    expect(replay.map((e) => [e.id, e.json.result.kind])).toEqual([['4', 'status-update']]);
  });

  it('without a cursor, sends the current Task first (no id), then the live events', async () => {
    const { body } = await rpc(
      t,
      'message/send',
      v03Send('Write a long report on climate change', {}, { configuration: { blocking: false } }),
    );
    t.clock.advance(3_000);
    const events = await t.drive((await rpcStream(t, 'tasks/resubscribe', { id: body.result.id })).rest());
    expect(events[0]!.id).toBeUndefined();
    expect(events[0]!.json.result).toMatchObject({ kind: 'task', status: { state: 'working' } });
    expect(finals(events).at(-1)).toEqual(['completed', true]);
  });
});
