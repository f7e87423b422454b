/**
 * Every error the v1.0 bindings can produce, checked for code and shape (protocol digest §3), and
 * the server still serving afterwards. Requests go over HTTP to a real server with supertest.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

let t: TestSim;
let completedTaskId: string;

beforeAll(async () => {
  t = await startSim({ speed: 0 });
  const res = await request(t.url)
    .post('/message:send')
    .set('Content-Type', 'application/json')
    .send({
      message: { messageId: 'm-done', role: 'ROLE_USER', parts: [{ text: 'What is the weather today?' }] },
    });
  completedTaskId = res.body.task.id;
  expect(res.body.task.status.state).toBe('TASK_STATE_COMPLETED');
});
afterAll(() => t.close());

const send = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
});

function rpc(body: unknown, headers: Record<string, string> = {}) {
  const req = request(t.url).post('/').set('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return typeof body === 'string' ? req.send(body) : req.send(body as object);
}

function expectRpcError(res: request.Response, code: number, reason: string, id: unknown = 1) {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.jsonrpc).toBe('2.0');
  expect(res.body.id).toStrictEqual(id);
  expect(res.body).not.toHaveProperty('result');
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(Array.isArray(res.body.error.data)).toBe(true);
  expect(res.body.error.data[0]).toMatchObject({ '@type': ERROR_INFO, reason, domain: 'a2a-protocol.org' });
}

function expectRestError(res: request.Response, httpStatus: number, status: string, reason: string) {
  expect(res.status).toBe(httpStatus);
  // Answered in the JSON media type the request was sent in; application/json when it named none.
  const sent = String(
    (res as unknown as { req: { getHeader(name: string): unknown } }).req.getHeader('content-type') ?? '',
  );
  expect(res.headers['content-type']).toMatch(
    sent.startsWith('application/a2a+json') ? /^application\/a2a\+json;/ : /^application\/json;/,
  );
  expect(res.body.error).toMatchObject({ code: httpStatus, status });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.details[0]).toMatchObject({
    '@type': ERROR_INFO,
    reason,
    domain: 'a2a-protocol.org',
  });
}

describe('JSON-RPC envelope errors', () => {
  it('answers malformed JSON with -32700 and a null id', async () => {
    expectRpcError(await rpc('{"jsonrpc": "2.0", "id": 1, "method": '), -32700, 'PARSE_ERROR', null);
  });

  it('answers JSON nested too deeply with -32700 instead of storing it', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await rpc(deep);
    expectRpcError(res, -32700, 'PARSE_ERROR', null);
    expect(res.body.error.message).toMatch(/nested deeper than 64/);
  });

  it('answers a batch with -32600: batches are not supported', async () => {
    const res = await rpc([{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }]);
    expectRpcError(res, -32600, 'INVALID_REQUEST', null);
    expect(res.body.error.message).toMatch(/batch/);
  });

  it.each([
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'GetTask' }, 1],
    ['no jsonrpc member', { id: 1, method: 'GetTask' }, 1],
    ['no method', { jsonrpc: '2.0', id: 1 }, 1],
    ['a non-string method', { jsonrpc: '2.0', id: 1, method: 42 }, 1],
    ['an object id', { jsonrpc: '2.0', id: { x: 1 }, method: 'GetTask' }, null],
    ['no id', { jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } }, null],
    ['string params', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: 'x' }, 1],
    ['a JSON string body', 'hello', null],
  ])('answers %s with -32600', async (_name, body, id) => {
    expectRpcError(
      await rpc(typeof body === 'string' ? JSON.stringify(body) : body),
      -32600,
      'INVALID_REQUEST',
      id,
    );
  });

  it('answers an unknown method with -32601, echoing a string id as a string', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 'req-7', method: 'DoSomething', params: {} });
    expectRpcError(res, -32601, 'METHOD_NOT_FOUND', 'req-7');
    expect(res.body.error.message).toMatch(/SendMessage/);
  });

  it('answers positional params with -32602', async () => {
    expectRpcError(
      await rpc({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: ['x'] }),
      -32602,
      'INVALID_PARAMS',
    );
  });

  it('answers a wrong Content-Type with -32005', async () => {
    const res = await request(t.url)
      .post('/')
      .set('Content-Type', 'text/plain')
      .send('{"jsonrpc":"2.0","id":1,"method":"GetTask"}');
    expectRpcError(res, -32005, 'CONTENT_TYPE_NOT_SUPPORTED', null);
  });

  it('answers an undeclared A2A-Version with -32009', async () => {
    const res = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } },
      { 'A2A-Version': '2.0' },
    );
    expectRpcError(res, -32009, 'VERSION_NOT_SUPPORTED', null);
  });

  it('answers a body over the size limit with -32600', async () => {
    const small = await startSim({ maxBodyBytes: 1024 });
    try {
      const res = await request(small.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .send({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: send('x'.repeat(4096)) });
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.message).toMatch(/too large/);
    } finally {
      await small.close();
    }
  });
});

describe('JSON-RPC A2A errors', () => {
  const call = (method: string, params: unknown, id: unknown = 1) =>
    rpc({ jsonrpc: '2.0', id, method, params });

  it('lists every invalid field of a SendMessage at once (-32602 with google.rpc.BadRequest)', async () => {
    const res = await call('SendMessage', {
      message: { role: 'ROLE_BOT', parts: [{ text: 'a', url: 'b' }, 7] },
    });
    expectRpcError(res, -32602, 'INVALID_PARAMS');
    const violations = res.body.error.data.find((d: any) => d['@type'] === BAD_REQUEST).fieldViolations;
    expect(violations.map((v: any) => v.field)).toEqual([
      'message.messageId',
      'message.role',
      'message.parts[0]',
      'message.parts[1]',
    ]);
  });

  it.each([
    ['a SendMessage without message', 'SendMessage', {}],
    ['a message without parts', 'SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } }],
    [
      'a message from the agent role',
      'SendMessage',
      { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } },
    ],
    ['a GetTask without id', 'GetTask', {}],
    ['a negative historyLength', 'GetTask', { id: 'x', historyLength: -1 }],
    ['a pageSize of 0', 'ListTasks', { pageSize: 0 }],
    ['a pageSize over 100', 'ListTasks', { pageSize: 101 }],
    ['a pageToken the server never issued', 'ListTasks', { pageToken: 'bogus' }],
    ['a malformed statusTimestampAfter', 'ListTasks', { statusTimestampAfter: 'yesterday' }],
    ['an unknown status filter', 'ListTasks', { status: 'TASK_STATE_SLEEPING' }],
    ['an unknown scenario in metadata', 'SendMessage', send('hi', { metadata: { scenario: 'nope' } })],
  ])('answers %s with -32602', async (_name, method, params) => {
    expectRpcError(await call(method, params), -32602, 'INVALID_PARAMS');
  });

  it('answers an unknown task with -32001 and the task id in ErrorInfo.metadata', async () => {
    const res = await call('GetTask', { id: 'task-404' }, 9);
    expectRpcError(res, -32001, 'TASK_NOT_FOUND', 9);
    expect(res.body.error.data[0].metadata).toEqual({ taskId: 'task-404' });
  });

  it('answers cancelling a completed task with -32002', async () => {
    expectRpcError(await call('CancelTask', { id: completedTaskId }), -32002, 'TASK_NOT_CANCELABLE');
  });

  it('answers a message to a completed task, and subscribing to it, with -32004', async () => {
    expectRpcError(
      await call('SendMessage', send('again', { taskId: completedTaskId })),
      -32004,
      'UNSUPPORTED_OPERATION',
    );
    expectRpcError(await call('SubscribeToTask', { id: completedTaskId }), -32004, 'UNSUPPORTED_OPERATION');
  });

  it('answers a part with an unaccepted media type with -32005', async () => {
    const params = {
      message: {
        messageId: 'm',
        role: 'ROLE_USER',
        parts: [{ url: 'https://example.com/a.mp4', mediaType: 'video/mp4' }],
      },
    };
    expectRpcError(await call('SendMessage', params), -32005, 'CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('answers GetExtendedAgentCard with -32004 when the extended card is turned off', async () => {
    const plain = await startSim({ agent: { extendedCard: false } });
    try {
      const res = await request(plain.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .send({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} });
      expectRpcError(res, -32004, 'UNSUPPORTED_OPERATION');
    } finally {
      await plain.close();
    }
  });

  it('answers an early streaming error as a plain JSON-RPC error, not a 200 event stream', async () => {
    const res = await call('SendStreamingMessage', send('x', { taskId: 'task-404' }));
    expectRpcError(res, -32001, 'TASK_NOT_FOUND');
  });
});

describe('REST errors', () => {
  it('answers malformed JSON with 400 INVALID_ARGUMENT', async () => {
    const res = await request(t.url)
      .post('/message:send')
      .set('Content-Type', 'application/json')
      .send('{"message": ');
    expectRestError(res, 400, 'INVALID_ARGUMENT', 'PARSE_ERROR');
  });

  it('answers a wrong Content-Type with 400 CONTENT_TYPE_NOT_SUPPORTED', async () => {
    const res = await request(t.url)
      .post('/message:send')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('a=b');
    expectRestError(res, 400, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('answers invalid fields with 400 INVALID_ARGUMENT, INVALID_PARAMS and a BadRequest detail', async () => {
    const res = await request(t.url)
      .post('/message:send')
      .set('Content-Type', 'application/a2a+json')
      .send({ message: {} });
    expectRestError(res, 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    expect(res.body.error.details[1]['@type']).toBe(BAD_REQUEST);
  });

  it('answers an unknown task with 404 NOT_FOUND', async () => {
    expectRestError(await request(t.url).get('/tasks/task-404'), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
  });

  it('answers cancelling a completed task with 400 FAILED_PRECONDITION', async () => {
    const res = await request(t.url).post(`/tasks/${completedTaskId}:cancel`);
    expectRestError(res, 400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE');
  });

  it('answers subscribing to a completed task with 400 UNSUPPORTED_OPERATION, by GET and by POST', async () => {
    expectRestError(
      await request(t.url).get(`/tasks/${completedTaskId}:subscribe`),
      400,
      'FAILED_PRECONDITION',
      'UNSUPPORTED_OPERATION',
    );
    expectRestError(
      await request(t.url).post(`/tasks/${completedTaskId}:subscribe`),
      400,
      'FAILED_PRECONDITION',
      'UNSUPPORTED_OPERATION',
    );
  });

  it('answers an undeclared A2A-Version with 400 VERSION_NOT_SUPPORTED', async () => {
    const res = await request(t.url).get(`/tasks/${completedTaskId}`).set('A2A-Version', '9.9');
    expectRestError(res, 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
  });

  it.each([
    ['pageSize=abc', 'INVALID_PARAMS'],
    ['pageSize=500', 'INVALID_PARAMS'],
    ['includeArtifacts=yes', 'INVALID_PARAMS'],
    ['pageToken=bogus', 'INVALID_PARAMS'],
    ['historyLength=-2', 'INVALID_PARAMS'],
  ])('answers GET /tasks?%s with 400 %s', async (query, reason) => {
    expectRestError(await request(t.url).get(`/tasks?${query}`), 400, 'INVALID_ARGUMENT', reason);
  });

  it('answers a badly percent-encoded task id with 400', async () => {
    expectRestError(await request(t.url).get('/tasks/%E0%A4%A'), 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await request(t.url).delete('/message:send');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('answers an unknown path with 404 and a hint', async () => {
    const res = await request(t.url).get('/nope/nope/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/agent-card\.json/);
  });
});

describe('version negotiation', () => {
  it('serves header-less requests by their grammar by default (seed 000 sends no A2A-Version)', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: completedTaskId } });
    expect(res.body.result.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('reads header-less calls as A2A 0.3 in strict mode: v1.0 JSON-RPC methods are unknown there, REST is refused', async () => {
    const strict = await startSim({ strictVersion: true, speed: 0 });
    try {
      const rpcRes = await request(strict.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .send({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
      expect(rpcRes.body.error.code).toBe(-32601);
      expect(rpcRes.body.error.message).toMatch(/"GetTask" is an A2A 1\.0 method.*send "A2A-Version: 1\.0"/);
      const restRes = await request(strict.url).get('/tasks/x');
      expect(restRes.body.error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
      const ok = await request(strict.url).get('/tasks/x').set('A2A-Version', '1.0');
      expect(ok.body.error.details[0].reason).toBe('TASK_NOT_FOUND');
    } finally {
      await strict.close();
    }
  });
});

describe('tenants', () => {
  it('scopes tasks by the /{tenant} prefix and params.tenant', async () => {
    const created = await request(t.url)
      .post('/acme/message:send')
      .set('Content-Type', 'application/json')
      .send(send('What is the weather today?'));
    const id = created.body.task.id;
    expect((await request(t.url).get(`/acme/tasks/${id}`)).status).toBe(200);
    expect((await request(t.url).get(`/tasks/${id}`)).status).toBe(404);
    expect((await request(t.url).get(`/other/tasks/${id}`)).status).toBe(404);
    const viaRpc = await rpc({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id, tenant: 'acme' } });
    expect(viaRpc.body.result.id).toBe(id);
  });
});

it('keeps serving after all of the above', async () => {
  const res = await request(t.url).get(`/tasks/${completedTaskId}`);
  expect(res.status).toBe(200);
  expect(res.body.status.state).toBe('TASK_STATE_COMPLETED');
});

describe('push turned off (push.enabled false)', () => {
  let off: TestSim;
  let taskId: string;
  beforeAll(async () => {
    off = await startSim({ speed: 0, push: { enabled: false } });
    const res = await request(off.url).post('/message:send').send(send('What is the weather today?'));
    taskId = res.body.task.id;
  });
  afterAll(() => off.close());

  it('says so on the card', async () => {
    const v1 = await request(off.url).get('/.well-known/agent-card.json').set('A2A-Version', '1.0');
    expect(v1.body.capabilities.pushNotifications).toBe(false);
    const v03 = await request(off.url).get('/.well-known/agent-card.json');
    expect(v03.body.capabilities.pushNotifications).toBe(false);
  });

  it.each([
    ['CreateTaskPushNotificationConfig', { url: 'http://127.0.0.1/hook' }],
    ['GetTaskPushNotificationConfig', { id: 'c' }],
    ['ListTaskPushNotificationConfigs', {}],
    ['DeleteTaskPushNotificationConfig', { id: 'c' }],
  ])('answers %s with -32003', async (method, params) => {
    const res = await request(off.url)
      .post('/')
      .send({ jsonrpc: '2.0', id: 1, method, params: { taskId, ...params } });
    expectRpcError(res, -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
  });

  it('answers a SendMessage with an inline config with -32003, and creates no task', async () => {
    const before = (await request(off.url).get('/tasks')).body.totalSize;
    const res = await request(off.url)
      .post('/')
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          ...send('What is the weather today?'),
          configuration: { taskPushNotificationConfig: { url: 'http://127.0.0.1/hook' } },
        },
      });
    expectRpcError(res, -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
    expect((await request(off.url).get('/tasks')).body.totalSize).toBe(before);
  });

  it.each([
    ['POST', ''],
    ['GET', ''],
    ['GET', '/c'],
    ['DELETE', '/c'],
  ])(
    'answers %s /tasks/{id}/pushNotificationConfigs%s with 400 PUSH_NOTIFICATION_NOT_SUPPORTED',
    async (method, tail) => {
      const path = `/tasks/${taskId}/pushNotificationConfigs${tail}`;
      const req = request(off.url)[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
      const res = method === 'POST' ? await req.send({ url: 'http://127.0.0.1/hook' }) : await req;
      expectRestError(res, 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED');
    },
  );
});
