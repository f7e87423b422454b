/**
 * A2A v0.3 over gRPC (`a2a.v1.A2AService`), beside v1.0 on the same port, judged by the official
 * SDK's v0.3 gRPC client (`@a2a-js/sdk/compat/v0_3/client/grpc`), found from the v0.3 card like any
 * other transport: a conversation, cancel, resubscribe after a chaos drop, push configs, the card,
 * status codes, and a malformed request sent with grpc-js itself.
 */
import { SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import {
  credentials,
  loadPackageDefinition,
  Metadata,
  type GrpcObject,
  type ServiceError,
} from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aProtos } from '../../../src/bindings/grpc/protos.js';
import { startSim, type TestSim } from '../../helpers/sim.js';
import { admin, getJson, RETURN_IMMEDIATELY, v1Send } from '../../helpers/wire.js';
import { REPORT_TEXT, settle } from '../../chaos/helpers.js';
import { connectV03GrpcClient } from '../sdk-drivers.js';

let t: TestSim;
let client: Client;
beforeAll(async () => {
  t = await startSim({ grpcPort: 0 });
  client = await connectV03GrpcClient(t.url);
});
afterAll(() => t.close());

let counter = 0;
const send = (text: string, message: Record<string, unknown> = {}, request: Record<string, unknown> = {}) =>
  SendMessageRequest.fromJSON(v1Send(text, { messageId: `g03-${++counter}`, ...message }, request));
const as = (name: string, chaos?: string) => ({
  serviceParameters: { 'x-sim-client': name, ...(chaos !== undefined && { 'x-sim-chaos': chaos }) },
});

/** What a call rejected with, or undefined when it succeeded. */
const failure = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error as Error & { status: number; statusDetailsBin?: Buffer },
  );

async function collect(stream: AsyncGenerator<StreamResponse>) {
  const items: Record<string, any>[] = [];
  try {
    for await (const item of stream) items.push(StreamResponse.toJSON(item) as Record<string, any>);
    return { items };
  } catch (error) {
    return { items, error: error as Error & { status: number } };
  }
}

const stateOf = (item: Record<string, any>): string | undefined =>
  item['task']?.status.state ?? item['statusUpdate']?.status.state;

describe('the card', () => {
  it('lists the gRPC port among the v0.3 interfaces, and the SDK picks its v0.3 gRPC transport', async () => {
    const { body } = await getJson(t, '/.well-known/agent-card.json', { 'A2A-Version': '0.3' });
    expect(body.additionalInterfaces).toContainEqual({ url: t.sim.grpcUrl, transport: 'GRPC' });
    expect([client.transport.protocolName, client.transport.protocolVersion]).toEqual(['GRPC', '0.3']);
  });

  it('serves the authenticated extended card (GetAgentCard), with the HTTP base URL in it', async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe('A2A Simulator');
    expect(card.supportedInterfaces[0]).toMatchObject({ url: t.url, protocolBinding: 'JSONRPC' });
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toContainEqual([
      'GRPC',
      t.sim.grpcUrl,
    ]);
  });
});

describe('a conversation', () => {
  it('sends a message and gets the completed task', async () => {
    const task = Task.toJSON(
      (await t.drive(client.sendMessage(send('What is the weather today?')))) as Task,
    ) as any;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.history[0].parts[0].text).toBe('What is the weather today?');
    expect(task.artifacts[0].parts[0].text).toMatch(/./);
  });

  it('books a flight: streams to input-required, then the follow-up completes the same task', async () => {
    const first = await t.drive(collect(client.sendMessageStream(send('Book me a flight'))));
    expect(first.error).toBeUndefined();
    expect(first.items.map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    const taskId = first.items[0]!['task'].id as string;
    const done = Task.toJSON(
      (await t.drive(client.sendMessage(send('From Oslo to Rome', { taskId })))) as Task,
    ) as any;
    expect(done).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(done.artifacts[0].parts[1].data).toMatchObject({ from: 'Oslo', to: 'Rome' });
    const got = Task.toJSON(await client.getTask({ id: taskId, tenant: '', historyLength: 2 })) as any;
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.history).toHaveLength(2);
  });

  it('cancels a running task', async () => {
    const started = (await t.drive(client.sendMessage(send(REPORT_TEXT, {}, RETURN_IMMEDIATELY)))) as Task;
    const accepted = await t.drive(client.cancelTask({ id: started.id, tenant: '', metadata: undefined }));
    expect(accepted.id).toBe(started.id);
    // Slow to cancel: the task keeps working a few seconds before it is canceled.
    await t.drive(
      (async () => {
        for (;;) {
          const task = Task.toJSON(await client.getTask({ id: started.id, tenant: '' })) as any;
          if (task.status.state === 'TASK_STATE_CANCELED') return;
          t.clock.advance(1_000);
        }
      })(),
    );
  });
});

describe('streams and chaos', () => {
  it('cuts a stream chaos drops with UNAVAILABLE; TaskSubscription resumes the task', async () => {
    const first = await settle(
      t,
      collect(client.sendMessageStream(send(REPORT_TEXT), as('dropped-03', 'drop-after-events=2'))),
    );
    expect(first.items).toHaveLength(2);
    expect(first.error?.status).toBe(14);
    const taskId = first.items[0]!['task'].id as string;
    const resumed = await settle(
      t,
      collect(client.resubscribeTask({ id: taskId, tenant: '' }, as('dropped-03'))),
    );
    expect(resumed.error).toBeUndefined();
    expect(stateOf(resumed.items.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    const drop = t.sim.faults.list().find((f) => f.kind === 'drop' && f.taskId === taskId);
    expect(drop).toMatchObject({ request: { binding: 'gRPC 0.3', operation: 'SendStreamingMessage' } });
  });
});

describe('push configs', () => {
  it('creates, gets, lists and deletes a task push config', async () => {
    const task = (await t.drive(client.sendMessage(send('Book me a flight')))) as Task;
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId: task.id,
      url: 'https://hooks.example.test/a2a',
      token: 'secret',
      authentication: { scheme: 'Bearer', credentials: 's3cret' },
    });
    expect(created).toMatchObject({
      taskId: task.id,
      url: 'https://hooks.example.test/a2a',
      token: 'secret',
    });
    expect(created.authentication).toMatchObject({ scheme: 'Bearer', credentials: 's3cret' });
    expect(created.id).not.toBe('');
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });
    expect(got.id).toBe(created.id);
    const page = { tenant: '', taskId: task.id, pageSize: 0, pageToken: '' };
    expect((await client.listTaskPushNotificationConfig(page)).configs.map((c) => c.id)).toEqual([
      created.id,
    ]);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });
    expect((await client.listTaskPushNotificationConfig(page)).configs).toEqual([]);
  });
});

describe('errors', () => {
  it('answers an unknown task with NOT_FOUND and an ErrorInfo whose reason is TASK_NOT_FOUND', async () => {
    const error = await failure(client.getTask({ id: 'no-such-task', tenant: '' }));
    expect(error?.name).toBe('TaskNotFoundError');
    expect(error?.status).toBe(5);
    const details = error?.statusDetailsBin?.toString('latin1') ?? '';
    expect(details).toContain('type.googleapis.com/google.rpc.ErrorInfo');
    expect(details).toContain('TASK_NOT_FOUND');
    const subscribed = await t.drive(collect(client.resubscribeTask({ id: 'no-such-task', tenant: '' })));
    expect([subscribed.items, subscribed.error?.status]).toEqual([[], 5]);
  });

  it('answers a cancel of a finished task with FAILED_PRECONDITION (TaskNotCancelableError)', async () => {
    const task = (await t.drive(client.sendMessage(send('What is the weather today?')))) as Task;
    const error = await failure(client.cancelTask({ id: task.id, tenant: '', metadata: undefined }));
    expect([error?.name, error?.status]).toEqual(['TaskNotCancelableError', 9]);
  });

  it('answers an unknown push config with NOT_FOUND', async () => {
    const task = (await t.drive(client.sendMessage(send('What is the weather today?')))) as Task;
    const error = await failure(
      client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'x' }),
    );
    expect(error?.status).toBe(5);
  });

  it('refuses a call chaos fails: 503 as UNAVAILABLE with RetryInfo', async () => {
    const error = await failure(
      client.sendMessage(
        send('What is the weather today?'),
        as('flaky-03', 'errors-kind=503, errors-rate=1'),
      ),
    );
    expect(error?.status).toBe(14);
    expect(error?.statusDetailsBin?.toString('latin1')).toContain('google.rpc.RetryInfo');
  });
});

describe('malformed requests, sent with grpc-js itself', () => {
  const proto = () => loadPackageDefinition(a2aProtos()) as unknown as { a2a: { v1: GrpcObject } };
  const raw = () => {
    const Service = proto().a2a.v1['A2AService'] as unknown as new (
      address: string,
      creds: ReturnType<typeof credentials.createInsecure>,
    ) => Record<string, (req: unknown, md: Metadata, cb: (e: ServiceError | null) => void) => void>;
    return new Service(t.sim.grpcUrl!, credentials.createInsecure());
  };
  const call = (method: string, request: unknown, metadata = new Metadata()) =>
    new Promise<ServiceError | null>((resolve) => raw()[method]!(request, metadata, resolve));

  it.each([
    ['GetTask', { name: 'no-slash' }, /tasks\/\{id\}/],
    ['GetTask', {}, /name/],
    ['DeleteTaskPushNotificationConfig', { name: 'tasks/t1' }, /pushNotificationConfigs/],
    ['SendMessage', { request: { messageId: 'm', role: 'ROLE_USER' } }, /content/],
    ['CreateTaskPushNotificationConfig', { parent: 'tasks/t1' }, /pushNotificationConfig/],
  ])('answers %s %j with INVALID_ARGUMENT and says what is wrong', async (method, request, says) => {
    const error = await call(method, request);
    expect(error?.code).toBe(3);
    expect(error?.details).toMatch(says);
  });

  it('refuses a call that declares A2A 1.0 with FAILED_PRECONDITION, naming the v1.0 service', async () => {
    const metadata = new Metadata();
    metadata.set('a2a-version', '1.0');
    const error = await call('GetTask', { name: 'tasks/t1' }, metadata);
    expect(error?.code).toBe(9);
    expect(error?.details).toMatch(/lf\.a2a\.v1/);
  });
});

describe('the journal and the verdicts', () => {
  it('see a v0.3 gRPC call with its client name, binding and operation', async () => {
    const task = (await t.drive(
      client.sendMessage(send('What is the weather today?'), as('grpc03-judged')),
    )) as Task;
    const entry = t.sim.journal.list().find((e) => e.taskId === task.id && e.operation === 'SendMessage');
    expect(entry).toMatchObject({ path: '/a2a.v1.A2AService/SendMessage', binding: 'gRPC 0.3', status: 200 });
    expect(entry?.headers['x-sim-client']).toBe('grpc03-judged');
    const { body } = await admin(t, 'GET', '/requests?binding=gRPC%200.3');
    expect(body.requests.map((r: any) => r.path)).toContain('/a2a.v1.A2AService/SendMessage');
    expect(t.sim.verdicts('grpc03-judged').map((v) => v.client)).toEqual(['grpc03-judged']);
  });
});
