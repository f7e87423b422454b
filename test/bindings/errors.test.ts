/**
 * Every error the v1.0 JSON-RPC binding can produce, checked for code and shape (protocol digest
 * §3), and the server still serving afterwards. Requests go over HTTP to a real server with
 * supertest. REST, versions, tenants and push turned off: errors-rest.test.ts.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rpcEnvelope, v1Send } from '../helpers/wire.js';
import { BAD_REQUEST, expectRpcError, postRpc, startWithCompletedTask } from './error-shapes.js';

let t: TestSim;
let completedTaskId: string;
beforeAll(async () => ({ t, completedTaskId } = await startWithCompletedTask()));
afterAll(() => t.close());

const rpc = (body: unknown, headers: Record<string, string> = {}) => postRpc(t.url, body, headers);

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
    const res = await rpc(rpcEnvelope('DoSomething', {}, { id: 'req-7' }));
    expectRpcError(res, -32601, 'METHOD_NOT_FOUND', 'req-7');
    expect(res.body.error.message).toMatch(/SendMessage/);
  });

  it('answers positional params with -32602', async () => {
    expectRpcError(await rpc(rpcEnvelope('GetTask', ['x'])), -32602, 'INVALID_PARAMS');
  });

  it('answers a wrong Content-Type with -32005', async () => {
    const res = await request(t.url)
      .post('/')
      .set('Content-Type', 'text/plain')
      .send('{"jsonrpc":"2.0","id":1,"method":"GetTask"}');
    expectRpcError(res, -32005, 'CONTENT_TYPE_NOT_SUPPORTED', null);
  });

  it('answers an undeclared A2A-Version with -32009', async () => {
    const res = await rpc(rpcEnvelope('GetTask', { id: 'x' }), { 'A2A-Version': '2.0' });
    expectRpcError(res, -32009, 'VERSION_NOT_SUPPORTED', null);
  });

  it('answers a body over the size limit with -32600', async () => {
    const small = await startSim({ maxBodyBytes: 1024 });
    try {
      const res = await request(small.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .send(rpcEnvelope('SendMessage', v1Send('x'.repeat(4096))));
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.message).toMatch(/too large/);
    } finally {
      await small.close();
    }
  });
});

describe('JSON-RPC A2A errors', () => {
  const call = (method: string, params: unknown, id: string | number = 1) =>
    rpc(rpcEnvelope(method, params, { id }));

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
    ['an unknown scenario in metadata', 'SendMessage', v1Send('hi', { metadata: { scenario: 'nope' } })],
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
      await call('SendMessage', v1Send('again', { taskId: completedTaskId })),
      -32004,
      'UNSUPPORTED_OPERATION',
    );
    expectRpcError(await call('SubscribeToTask', { id: completedTaskId }), -32004, 'UNSUPPORTED_OPERATION');
  });

  it('answers a part with an unaccepted media type with -32005', async () => {
    const params = v1Send('', {
      messageId: 'm',
      parts: [{ url: 'https://example.com/a.mp4', mediaType: 'video/mp4' }],
    });
    expectRpcError(await call('SendMessage', params), -32005, 'CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('answers GetExtendedAgentCard with -32004 when the extended card is turned off', async () => {
    const plain = await startSim({ agent: { extendedCard: false } });
    try {
      const res = await request(plain.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .send(rpcEnvelope('GetExtendedAgentCard', {}));
      expectRpcError(res, -32004, 'UNSUPPORTED_OPERATION');
    } finally {
      await plain.close();
    }
  });

  it('answers an early streaming error as a plain JSON-RPC error, not a 200 event stream', async () => {
    const res = await call('SendStreamingMessage', v1Send('x', { taskId: 'task-404' }));
    expectRpcError(res, -32001, 'TASK_NOT_FOUND');
  });
});

it('keeps serving after all of the above', async () => {
  const res = await request(t.url).get(`/tasks/${completedTaskId}`);
  expect(res.status).toBe(200);
  expect(res.body.status.state).toBe('TASK_STATE_COMPLETED');
});
