/**
 * Every error the v1.0 REST binding can produce, checked for code and shape (protocol digest §3);
 * version negotiation, tenants, and push turned off on both bindings; and the server still serving
 * afterwards. Requests go over HTTP to a real server with supertest.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rpcEnvelope, v1Send } from '../helpers/wire.js';
import {
  BAD_REQUEST,
  expectRestError,
  expectRpcError,
  postRpc,
  startWithCompletedTask,
} from './error-shapes.js';

let t: TestSim;
let completedTaskId: string;
beforeAll(async () => ({ t, completedTaskId } = await startWithCompletedTask()));
afterAll(() => t.close());

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
    const res = await postRpc(t.url, rpcEnvelope('GetTask', { id: completedTaskId }));
    expect(res.body.result.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('reads header-less calls as A2A 0.3 in strict mode: v1.0 JSON-RPC methods are unknown there, REST is refused', async () => {
    const strict = await startSim({ strictVersion: true, speed: 0 });
    try {
      const rpcRes = await request(strict.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .send(rpcEnvelope('GetTask', { id: 'x' }));
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
      .send(v1Send('What is the weather today?'));
    const id = created.body.task.id;
    expect((await request(t.url).get(`/acme/tasks/${id}`)).status).toBe(200);
    expect((await request(t.url).get(`/tasks/${id}`)).status).toBe(404);
    expect((await request(t.url).get(`/other/tasks/${id}`)).status).toBe(404);
    const viaRpc = await postRpc(t.url, rpcEnvelope('GetTask', { id, tenant: 'acme' }));
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
    const res = await request(off.url).post('/message:send').send(v1Send('What is the weather today?'));
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
      .send(rpcEnvelope(method, { taskId, ...params }));
    expectRpcError(res, -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
  });

  it('answers a SendMessage with an inline config with -32003, and creates no task', async () => {
    const before = (await request(off.url).get('/tasks')).body.totalSize;
    const res = await request(off.url)
      .post('/')
      .send(
        rpcEnvelope(
          'SendMessage',
          v1Send(
            'What is the weather today?',
            {},
            { configuration: { taskPushNotificationConfig: { url: 'http://127.0.0.1/hook' } } },
          ),
        ),
      );
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
