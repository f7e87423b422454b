/**
 * The A2A v0.3 JSON-RPC dialect on `POST /` (protocol digest §3, §4): its error objects, with the
 * same codes as v1.0 and `data` an object naming the reason, and version selection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postJson, rpc, rpcStream, v03Send } from '../helpers/wire.js';
import { expectV03Error } from './error-shapes.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim();
});
afterAll(() => t.close());

/** Sends and waits for the answer, running the virtual clock meanwhile. */
const send = async (params: unknown) => (await t.drive(rpc(t, 'message/send', params))).body.result;

describe('v0.3 errors: the same codes, data as an object with the reason', () => {
  let completedId: string;
  beforeAll(async () => {
    completedId = (await send(v03Send('What is the weather today?'))).id;
  });

  it('answers an unknown task with -32001 and the task id in data', async () => {
    const res = await rpc(t, 'tasks/get', { id: 'no-such-task' }, { id: 'get-1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expectV03Error(res.body, -32001, 'TASK_NOT_FOUND', 'get-1');
    expect(res.body.error.data).toEqual({ reason: 'TASK_NOT_FOUND', taskId: 'no-such-task' });
  });

  it('answers cancelling a completed task with -32002', async () => {
    expectV03Error((await rpc(t, 'tasks/cancel', { id: completedId })).body, -32002, 'TASK_NOT_CANCELABLE');
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
      v03Send('hi', {}, { configuration: { pushNotificationConfig: { url: 'http://127.0.0.1/hook' } } }),
    ],
  ])('answers %s with -32003 while push is turned off', async (method, params) => {
    const off = await startSim({ push: { enabled: false } });
    try {
      const res = await rpc(off, method, params);
      expectV03Error(res.body, -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
    } finally {
      await off.close();
    }
  });

  it('answers a message to a completed task with -32004', async () => {
    const res = await rpc(t, 'message/send', v03Send('and tomorrow?', { taskId: completedId }));
    expectV03Error(res.body, -32004, 'UNSUPPORTED_OPERATION');
  });

  it.each([
    ['without an A2A-Version header', {}],
    ['with A2A-Version: 0.3', { 'A2A-Version': '0.3' }],
  ])('answers tasks/list, which v0.3 does not have, with -32601 %s', async (_name, headers) => {
    const res = await rpc(t, 'tasks/list', {}, { headers });
    expectV03Error(res.body, -32601, 'METHOD_NOT_FOUND');
    expect(res.body.error.message).toMatch(/message\/send/);
  });

  it('answers a v1.0 method under A2A-Version: 0.3 with -32601 and a hint', async () => {
    const res = await rpc(t, 'SendMessage', {}, { headers: { 'A2A-Version': '0.3' } });
    expectV03Error(res.body, -32601, 'METHOD_NOT_FOUND');
    expect(res.body.error.message).toMatch(/send "A2A-Version: 1\.0"/);
  });

  it('lists every invalid field of a message at once with -32602', async () => {
    const res = await rpc(t, 'message/send', {
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
    expectV03Error(res.body, -32602, 'INVALID_PARAMS');
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
    const res = await rpc(t, 'message/send', v03Send('hi', { role: 'agent' }));
    expectV03Error(res.body, -32602, 'INVALID_PARAMS');
  });

  it('answers tasks/resubscribe errors as a 200 event stream holding one error frame', async () => {
    const unknown = await rpcStream(t, 'tasks/resubscribe', { id: 'no-such-task' }, { id: 'r-1' });
    const [frame, ...more] = await unknown.rest();
    expect(more).toEqual([]);
    expect(frame!.id).toBeUndefined();
    expectV03Error(frame!.json, -32001, 'TASK_NOT_FOUND', 'r-1');

    const terminal = await (await rpcStream(t, 'tasks/resubscribe', { id: completedId })).rest();
    expectV03Error(terminal[0]!.json, -32004, 'UNSUPPORTED_OPERATION');
    const negative = await (
      await rpcStream(t, 'tasks/resubscribe', { taskId: completedId, afterSeq: -1 })
    ).rest();
    expectV03Error(negative[0]!.json, -32602, 'INVALID_PARAMS');
    expect(negative[0]!.json.error.data.fieldViolations[0].field).toBe('afterSeq');
  });

  it.each([
    ['no task id', {}, 'id'],
    ['an id and a taskId that disagree', { id: 'a', taskId: 'b' }, 'taskId'],
    ['an afterSeq that is not a number', { taskId: 'a', afterSeq: 'soon' }, 'afterSeq'],
  ])('answers tasks/resubscribe with %s with -32602 naming the field', async (_name, params, field) => {
    const [frame] = await (await rpcStream(t, 'tasks/resubscribe', params)).rest();
    expectV03Error(frame!.json, -32602, 'INVALID_PARAMS');
    expect(frame!.json.error.data.fieldViolations.map((v: any) => v.field)).toEqual([field]);
  });

  it('serves agent/getAuthenticatedExtendedCard as a v0.3 card, and -32007 when there is none', async () => {
    const { body } = await rpc(t, 'agent/getAuthenticatedExtendedCard', undefined);
    expect(body.result).toMatchObject({
      protocolVersion: '0.3.0',
      url: t.url,
      preferredTransport: 'JSONRPC',
    });
    const plain = await startSim({ agent: { extendedCard: false } });
    try {
      const res = await rpc(plain, 'agent/getAuthenticatedExtendedCard', undefined);
      expectV03Error(res.body, -32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    } finally {
      await plain.close();
    }
  });
});

describe('version selection', () => {
  it('serves v0.3 to header-less calls in strict mode, and to A2A-Version: 0.3', async () => {
    const strict = await startSim({ strictVersion: true, speed: 0 });
    try {
      for (const headers of [{}, { 'A2A-Version': '0.3' }] as Record<string, string>[]) {
        const res = await rpc(strict, 'message/send', v03Send('What is the weather today?'), {
          headers,
        });
        expect(res.body.result).toMatchObject({
          kind: 'task',
          status: { state: 'completed' },
        });
      }
    } finally {
      await strict.close();
    }
  });

  it('answers envelope errors of an A2A-Version: 0.3 request in the v0.3 shape', async () => {
    const res = await postJson(t, '/', '{"jsonrpc": "2.0", "id": 1, "method": ', { 'A2A-Version': '0.3' });
    expectV03Error(res.body, -32700, 'PARSE_ERROR', null);
  });
});
