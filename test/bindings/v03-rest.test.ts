/**
 * A2A v0.3 over HTTP+JSON (`/v1/…`): the official @a2a-js/sdk client's v0.3 REST transport, which
 * finds the interface on the v0.3 card, plays a conversation over it; the wire itself (ProtoJSON of
 * the v0.3 proto, the bare error object, SSE ids and the `Last-Event-ID` cursor) read with fetch
 * and a real SSE parser; and the call records the control plane keeps. The conformance suite runs
 * the rest through the same client (conformance.test.ts).
 */
import { SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getSse, postSse } from '../helpers/sse.js';
import { admin, callJson, chaosHeader, getJson, postJson, v1Send } from '../helpers/wire.js';
import { connectV03RestClient } from './sdk-drivers.js';

let t: TestSim;
let client: Client;
beforeAll(async () => {
  t = await startSim();
  client = await connectV03RestClient(t.url);
});
afterAll(() => t.close());

let counter = 0;
/** A v0.3 SendMessageRequest body as ProtoJSON. */
const protoSend = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: `r03-${++counter}`, role: 'ROLE_USER', content: [{ text }], ...extra },
});
const request = (text: string, extra: Record<string, unknown> = {}) =>
  SendMessageRequest.fromJSON(v1Send(text, { messageId: `sdk-r03-${++counter}`, ...extra }));
const collect = async (generator: AsyncGenerator<StreamResponse>) => {
  const frames: any[] = [];
  for await (const item of generator) frames.push(StreamResponse.toJSON(item));
  return frames;
};
const stateOf = (frame: any) => (frame.task ?? frame.statusUpdate)?.status.state;

describe('the @a2a-js/sdk client over v0.3 HTTP+JSON', () => {
  it('is on the SDK v0.3 REST transport, at the base URL the v0.3 card lists for HTTP+JSON', async () => {
    expect([client.transport.protocolName, client.transport.protocolVersion]).toEqual(['HTTP+JSON', '0.3']);
    const card = (await getJson(t, '/.well-known/agent-card.json', { 'A2A-Version': '0.3' })).body;
    expect(card.additionalInterfaces).toContainEqual({ url: t.url, transport: 'HTTP+JSON' });
  });

  it('books a flight: input-required, then "From Oslo to Rome" on the same task completes it', async () => {
    const first = await t.drive(collect(client.sendMessageStream(request('Book me a flight'))));
    expect(first.map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    const taskId = first[0].task.id;
    const done = Task.toJSON(
      (await t.drive(client.sendMessage(request('From Oslo to Rome', { taskId })))) as Task,
    ) as any;
    expect(done).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(done.artifacts[0].parts[1].data).toMatchObject({ from: 'Oslo', to: 'Rome' });
    const got = Task.toJSON(await client.getTask({ id: taskId, tenant: '', historyLength: 2 })) as any;
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.history).toHaveLength(2);
  });

  it('cancels a running task', async () => {
    const started = (await t.drive(
      client.sendMessage(
        SendMessageRequest.fromJSON({
          ...v1Send('Write a long report on climate change'),
          configuration: { returnImmediately: true },
        }),
      ),
    )) as Task;
    const canceled = await t.drive(client.cancelTask({ id: started.id, tenant: '', metadata: undefined }));
    expect(canceled.id).toBe(started.id);
    await t.drive(
      (async () => {
        for (;;) {
          const task = await client.getTask({ id: started.id, tenant: '' });
          if ((Task.toJSON(task) as any).status?.state === 'TASK_STATE_CANCELED') return;
          t.clock.advance(1_000);
        }
      })(),
    );
  });

  it('resubscribes after a chaos drop and receives the rest of the task', async () => {
    const frames: any[] = [];
    const dropped = client.sendMessageStream(request('Book me a flight'), {
      serviceParameters: chaosHeader('drop-after-events=2'),
    });
    // The cut ends the stream early, with or without an error, depending on where it falls.
    await t.drive(
      (async () => {
        for await (const item of dropped) frames.push(StreamResponse.toJSON(item));
      })().catch(() => undefined),
    );
    expect(frames.map(stateOf)).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);
    const rest = await t.drive(collect(client.resubscribeTask({ id: frames[0].task.id, tenant: '' })));
    expect(stateOf(rest.at(-1))).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('reads the authenticated extended card', async () => {
    // The client asks its transport for it when the card offers one: GET /v1/card.
    const card = await client.getAgentCard();
    expect(card.name).toBe('A2A Simulator');
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toContain('HTTP+JSON');
    const { body } = await admin(t, 'GET', '/requests?binding=REST%200.3');
    expect(body.requests.map((r: any) => r.operation)).toContain('GET /v1/card');
  });

  it('reports an unknown task as TaskNotFoundError', async () => {
    await expect(client.getTask({ id: 'no-such-task', tenant: '' })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
    await expect(collect(client.resubscribeTask({ id: 'no-such-task', tenant: '' }))).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
  });
});

describe('the v0.3 HTTP+JSON wire', () => {
  it('answers a send as {"task"} in ProtoJSON: TASK_STATE_* states, ROLE_* roles, parts under content', async () => {
    const { status, headers, body } = await t.drive(
      postJson(t, '/v1/message:send', protoSend('What is the weather today?')),
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.task.history[0]).toMatchObject({
      role: 'ROLE_USER',
      content: [{ text: 'What is the weather today?' }],
    });
    expect(body.task.artifacts[0].parts[0].text).toMatch(/./);
    expect(body.task.kind).toBeUndefined();
  });

  it('also reads a send body in the v0.3 JSON-RPC shape (parts with kind)', async () => {
    const { body } = await t.drive(
      postJson(t, '/v1/message:send', {
        message: {
          kind: 'message',
          messageId: 'r03-rpc',
          role: 'user',
          parts: [{ kind: 'text', text: 'Hello' }],
        },
      }),
    );
    expect(body.message).toMatchObject({ role: 'ROLE_AGENT', content: [{ text: expect.any(String) }] });
  });

  it('streams StreamResponse frames with ids; a drop-after-events=2 stream resumes from Last-Event-ID', async () => {
    const stream = await t.drive(
      postSse(
        `${t.url}/v1/message:stream`,
        protoSend('Book me a flight'),
        chaosHeader('drop-after-events=2'),
      ),
    );
    const seen = await t.drive(stream.rest());
    expect(seen.map((e) => e.id)).toEqual(['1', '2']);
    const taskId = seen[0]!.json.task.id;
    const resumed = await t.drive(getSse(`${t.url}/v1/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '2' }));
    const rest = await t.drive(resumed.rest());
    expect(rest.map((e) => e.id)).toEqual(['3']);
    expect(rest[0]!.json.statusUpdate).toMatchObject({
      taskId,
      status: { state: 'TASK_STATE_INPUT_REQUIRED' },
      final: true,
    });
    // The records name the binding and its version: the client verdicts hold v0.3 to the cursor rule.
    const { body } = await admin(t, 'GET', '/requests?binding=REST%200.3');
    expect(body.requests.map((r: any) => r.operation)).toEqual(
      expect.arrayContaining(['POST /v1/message:stream', 'GET /v1/tasks/{id}:subscribe']),
    );
  });

  it('answers errors as the bare v0.3 error object with the HTTP status of the error', async () => {
    const missing = await getJson(t, '/v1/tasks/no-such-task');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: -32001,
      message: expect.stringContaining('no-such-task'),
      data: { reason: 'TASK_NOT_FOUND', taskId: 'no-such-task' },
    });
    const bad = await postJson(t, '/v1/message:send', { message: { role: 'ROLE_USER' } });
    expect([bad.status, bad.body.code, bad.body.data.reason]).toEqual([400, -32602, 'INVALID_PARAMS']);
    const wrongMethod = await callJson(t, 'DELETE', '/v1/message:send');
    expect([wrongMethod.status, wrongMethod.headers.get('allow'), wrongMethod.body.code]).toEqual([
      405,
      'POST',
      -32601,
    ]);
  });

  it('leaves /v1/… to the v1.0 binding, as the tenant "v1", when the request declares A2A-Version 1.0', async () => {
    const { body } = await t.drive(
      postJson(t, '/v1/message:send', v1Send('What is the weather today?'), { 'A2A-Version': '1.0' }),
    );
    expect(body.task.history[0].parts).toBeDefined();
  });

  it('serves the defined agents under /agents/{id}/v1/…', async () => {
    const { status, body } = await t.drive(
      postJson(t, '/agents/explore/v1/message:send', protoSend('What is the weather today?')),
    );
    expect(status).toBe(200);
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await getJson(t, `/agents/explore/v1/tasks/${body.task.id}`)).status).toBe(200);
    expect((await getJson(t, `/v1/tasks/${body.task.id}`)).status).toBe(404);
  });
});
