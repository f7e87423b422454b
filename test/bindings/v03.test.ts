/**
 * The A2A v0.3 JSON-RPC dialect on `POST /` (protocol digest §1-4), checked on the raw frames:
 * v0.3 shapes, error objects, resuming with `tasks/resubscribe`, and version selection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse, type SseEvent } from '../helpers/sse.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim();
});
afterAll(() => t.close());

let counter = 0;
const message = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: `v03-${++counter}`,
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});

async function rpc(
  method: string,
  params: unknown,
  { id = 1, headers = {} }: { id?: string | number; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${t.url}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, body: JSON.parse(text) };
}

function stream(
  method: string,
  params: unknown,
  { id = 1, headers = {} }: { id?: string | number; headers?: Record<string, string> } = {},
) {
  return postSse(`${t.url}/`, { jsonrpc: '2.0', id, method, params }, headers);
}

/** Sends and waits for the answer, running the virtual clock meanwhile. */
const send = async (params: unknown) => (await t.drive(rpc('message/send', params))).body.result;

const results = (events: SseEvent[]) => events.map((e) => e.json.result);

/** Each status-update as its state and `final` flag, in order. */
const finals = (events: SseEvent[]) =>
  results(events)
    .filter((r) => r.kind === 'status-update')
    .map((r) => [r.status.state, r.final]);

function expectRpcError(body: any, code: number, reason: string, id: unknown = 1) {
  expect(body).toMatchObject({ jsonrpc: '2.0', id, error: { code, data: { reason } } });
  expect(body).not.toHaveProperty('result');
  expect(typeof body.error.message).toBe('string');
  expect(Array.isArray(body.error.data)).toBe(false);
}

describe('v0.3 shapes', () => {
  it('answers message/send with a bare Task: kind tags, lowercase states and roles, no v1.0 names', async () => {
    const res = await t.drive(rpc('message/send', { message: message('What is the weather today?') }));
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
    const reply = await send({ message: message('Hello') });
    expect(reply).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text' }] });
  });

  it('streams bare kind objects and marks final:true only on the completed status that ends the stream', async () => {
    const events = await t.drive(
      stream('message/stream', { message: message('What is the weather today?') }).then((s) => s.rest()),
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
      stream('message/stream', { message: message('Book me a flight') }).then((s) => s.rest()),
    );
    expect(finals(first)).toEqual([
      ['working', false],
      ['input-required', true],
    ]);
    const taskId = results(first)[0].id;
    const second = await t.drive(
      stream('message/stream', { message: message('From San Francisco to New York', { taskId }) }).then((s) =>
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
      stream('message/stream', { message: message('Check my calendar') }).then((s) => s.rest()),
    );
    expect(finals(events).at(-1)).toEqual(['auth-required', true]);
  });

  it('marks final only on the status that ends this stream: a replayed, answered input-required is not', async () => {
    const first = await t.drive(
      stream('message/stream', { message: message('Book me a flight') }).then((s) => s.rest()),
    );
    const taskId = results(first)[0].id;
    await send({ message: message('From San Francisco to New York', { taskId }) });
    const replay = await t.drive(stream('tasks/resubscribe', { taskId, afterSeq: 0 }).then((s) => s.rest()));
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
      const reader = await postSse(`${open.url}/`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: { message: message('Check my calendar') },
      });
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
      stream('message/stream', { message: message('What is the weather today?') }, { id }).then((s) =>
        s.rest(),
      ),
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
    const report = {
      message: message('Write a long report on climate change'),
      configuration: { blocking: false },
    };
    // No clock driving: the answer cannot wait for the task.
    const { body } = await rpc('message/send', report);
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    const waited = await send({ message: message('Please fail this task'), configuration: {} });
    expect(waited.status.state).toBe('failed');
  });

  it('unwraps a data_part_compat value on input and wraps non-object data again on output', async () => {
    const parts = [
      { kind: 'text', text: 'What is the weather today in these cities?' },
      { kind: 'data', data: { value: ['Paris', 'Rome'] }, metadata: { data_part_compat: true } },
      { kind: 'data', data: { city: 'Oslo' } },
    ];
    const task = await send({ message: message('', { parts }) });
    expect(task.history[0].parts).toEqual(parts);
    const v1 = await rpc('GetTask', { id: task.id }, { headers: { 'A2A-Version': '1.0' } });
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
    const task = await send({ message: message('', { parts }) });
    expect(task.history[0].parts).toEqual(parts);
    const v1 = await rpc('GetTask', { id: task.id }, { headers: { 'A2A-Version': '1.0' } });
    expect(v1.body.result.history[0].parts.slice(1)).toEqual([
      { raw: 'aGVsbG8=', filename: 'hello.txt', mediaType: 'text/plain' },
      { url: 'https://example.com/sky.png', mediaType: 'image/png' },
    ]);
  });

  it('answers tasks/get with the bare Task, history limited by historyLength', async () => {
    const { id } = await send({ message: message('Book me a flight') });
    const { body } = await rpc('tasks/get', { id, historyLength: 1 });
    expect(body.result).toMatchObject({ kind: 'task', id, status: { state: 'input-required' } });
    expect(body.result.history).toHaveLength(1);
    expect((await rpc('tasks/get', { id, historyLength: 0 })).body.result).not.toHaveProperty('history');
  });
});

describe('v0.3 errors: the same codes, data as an object with the reason', () => {
  let completedId: string;
  beforeAll(async () => {
    completedId = (await send({ message: message('What is the weather today?') })).id;
  });

  it('answers an unknown task with -32001 and the task id in data', async () => {
    const res = await rpc('tasks/get', { id: 'no-such-task' }, { id: 'get-1' });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expectRpcError(res.body, -32001, 'TASK_NOT_FOUND', 'get-1');
    expect(res.body.error.data).toEqual({ reason: 'TASK_NOT_FOUND', taskId: 'no-such-task' });
  });

  it('answers cancelling a completed task with -32002', async () => {
    expectRpcError((await rpc('tasks/cancel', { id: completedId })).body, -32002, 'TASK_NOT_CANCELABLE');
  });

  it.each([
    [
      'tasks/pushNotificationConfig/set',
      { taskId: 't', pushNotificationConfig: { url: 'http://127.0.0.1/hook' } },
    ],
    ['tasks/pushNotificationConfig/get', { id: 't' }],
    ['tasks/pushNotificationConfig/list', { id: 't' }],
    ['tasks/pushNotificationConfig/delete', { id: 't', pushNotificationConfigId: 'c' }],
    [
      'message/send',
      { message: message('hi'), configuration: { pushNotificationConfig: { url: 'http://127.0.0.1/hook' } } },
    ],
  ])('answers %s with -32003 while push is turned off', async (method, params) => {
    const off = await startSim({ push: { enabled: false } });
    try {
      const res = await fetch(`${off.url}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      expectRpcError(await res.json(), -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
    } finally {
      await off.close();
    }
  });

  it('answers a message to a completed task with -32004', async () => {
    const res = await rpc('message/send', { message: message('and tomorrow?', { taskId: completedId }) });
    expectRpcError(res.body, -32004, 'UNSUPPORTED_OPERATION');
  });

  it.each([
    ['without an A2A-Version header', {}],
    ['with A2A-Version: 0.3', { 'A2A-Version': '0.3' }],
  ])('answers tasks/list, which v0.3 does not have, with -32601 %s', async (_name, headers) => {
    const res = await rpc('tasks/list', {}, { headers });
    expectRpcError(res.body, -32601, 'METHOD_NOT_FOUND');
    expect(res.body.error.message).toMatch(/message\/send/);
  });

  it('answers a v1.0 method under A2A-Version: 0.3 with -32601 and a hint', async () => {
    const res = await rpc('SendMessage', {}, { headers: { 'A2A-Version': '0.3' } });
    expectRpcError(res.body, -32601, 'METHOD_NOT_FOUND');
    expect(res.body.error.message).toMatch(/send "A2A-Version: 1\.0"/);
  });

  it('lists every invalid field of a message at once with -32602', async () => {
    const res = await rpc('message/send', {
      message: {
        kind: 'note',
        role: 'bot',
        parts: [
          { kind: 'file', file: { name: 'x' } },
          { kind: 'data', data: 7 },
          { kind: 'image', text: 'x' },
          { kind: 'file', file: { bytes: 'not base64!' } },
        ],
      },
    });
    expectRpcError(res.body, -32602, 'INVALID_PARAMS');
    expect(res.body.error.data.fieldViolations.map((v: any) => v.field)).toEqual([
      'message.kind',
      'message.messageId',
      'message.role',
      'message.parts[0].file',
      'message.parts[1].data',
      'message.parts[2].kind',
      'message.parts[3].file.bytes',
    ]);
  });

  it('answers a message from the agent role with -32602', async () => {
    const res = await rpc('message/send', { message: message('hi', { role: 'agent' }) });
    expectRpcError(res.body, -32602, 'INVALID_PARAMS');
  });

  it('answers tasks/resubscribe errors as a 200 event stream holding one error frame', async () => {
    const unknown = await stream('tasks/resubscribe', { id: 'no-such-task' }, { id: 'r-1' });
    const [frame, ...more] = await unknown.rest();
    expect(more).toEqual([]);
    expect(frame!.id).toBeUndefined();
    expectRpcError(frame!.json, -32001, 'TASK_NOT_FOUND', 'r-1');

    const terminal = await (await stream('tasks/resubscribe', { id: completedId })).rest();
    expectRpcError(terminal[0]!.json, -32004, 'UNSUPPORTED_OPERATION');
    const negative = await (await stream('tasks/resubscribe', { taskId: completedId, afterSeq: -1 })).rest();
    expectRpcError(negative[0]!.json, -32602, 'INVALID_PARAMS');
    expect(negative[0]!.json.error.data.fieldViolations[0].field).toBe('afterSeq');
  });

  it.each([
    ['no task id', {}, 'id'],
    ['an id and a taskId that disagree', { id: 'a', taskId: 'b' }, 'taskId'],
    ['an afterSeq that is not a number', { taskId: 'a', afterSeq: 'soon' }, 'afterSeq'],
  ])('answers tasks/resubscribe with %s with -32602 naming the field', async (_name, params, field) => {
    const [frame] = await (await stream('tasks/resubscribe', params)).rest();
    expectRpcError(frame!.json, -32602, 'INVALID_PARAMS');
    expect(frame!.json.error.data.fieldViolations.map((v: any) => v.field)).toEqual([field]);
  });

  it('serves agent/getAuthenticatedExtendedCard as a v0.3 card, and -32007 when there is none', async () => {
    const { body } = await rpc('agent/getAuthenticatedExtendedCard', undefined);
    expect(body.result).toMatchObject({
      protocolVersion: '0.3.0',
      url: t.url,
      preferredTransport: 'JSONRPC',
    });
    const plain = await startSim({ agent: { extendedCard: false } });
    try {
      const res = await fetch(`${plain.url}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent/getAuthenticatedExtendedCard' }),
      });
      expectRpcError(await res.json(), -32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    } finally {
      await plain.close();
    }
  });
});

describe('tasks/resubscribe', () => {
  it('replays the events after {taskId, afterSeq} with their seq as the SSE id, then ends', async () => {
    const events = await t.drive(
      stream('message/stream', { message: message('What is the weather today?') }).then((s) => s.rest()),
    );
    const taskId = results(events)[0].id;
    const replay = await (await stream('tasks/resubscribe', { taskId, afterSeq: 2 }, { id: 'again' })).rest();
    expect(replay.map((e) => e.id)).toEqual(['3', '4']);
    expect(replay.map((e) => e.data)).toEqual(
      events.slice(2).map((e) => e.data.replace('"id":1', '"id":"again"')),
    );
    expect(finals(replay)).toEqual([['completed', true]]);
  });

  it('resumes a running task after the cursor, then follows it live to the end', async () => {
    const { body } = await rpc('message/send', {
      message: message('Write a long report on climate change'),
      configuration: { blocking: false },
    });
    const taskId = body.result.id;
    t.clock.advance(5_000);
    const resumed = await stream('tasks/resubscribe', { taskId, afterSeq: 1 });
    const events = await t.drive(resumed.rest());
    const seqs = events.map((e) => Number(e.id));
    expect(seqs).toEqual(seqs.map((_, i) => 2 + i));
    expect(finals(events).at(-1)).toEqual(['completed', true]);
  });

  it('takes Last-Event-ID as the cursor when the params carry none', async () => {
    const { id } = await send({ message: message('What is the weather today?') });
    const replay = await (
      await stream('tasks/resubscribe', { id }, { headers: { 'Last-Event-ID': '3' } })
    ).rest();
    expect(replay.map((e) => [e.id, e.json.result.kind])).toEqual([['4', 'status-update']]);
  });

  it('without a cursor, sends the current Task first (no id), then the live events', async () => {
    const { body } = await rpc('message/send', {
      message: message('Write a long report on climate change'),
      configuration: { blocking: false },
    });
    t.clock.advance(3_000);
    const events = await t.drive((await stream('tasks/resubscribe', { id: body.result.id })).rest());
    expect(events[0]!.id).toBeUndefined();
    expect(events[0]!.json.result).toMatchObject({ kind: 'task', status: { state: 'working' } });
    expect(finals(events).at(-1)).toEqual(['completed', true]);
  });
});

describe('version selection', () => {
  it('serves v0.3 to header-less calls in strict mode, and to A2A-Version: 0.3', async () => {
    const strict = await startSim({ strictVersion: true, speed: 0 });
    try {
      for (const headers of [{}, { 'A2A-Version': '0.3' }] as Record<string, string>[]) {
        const res = await fetch(`${strict.url}/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'message/send',
            params: { message: message('What is the weather today?') },
          }),
        });
        expect(((await res.json()) as any).result).toMatchObject({
          kind: 'task',
          status: { state: 'completed' },
        });
      }
    } finally {
      await strict.close();
    }
  });

  it('answers envelope errors of an A2A-Version: 0.3 request in the v0.3 shape', async () => {
    const res = await fetch(`${t.url}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '0.3' },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expectRpcError(await res.json(), -32700, 'PARSE_ERROR', null);
  });
});
