/**
 * A2A v1.0 over gRPC, judged by the official SDK's gRPC client (`@a2a-js/sdk/client/grpc`), found
 * from the agent card like any other transport: what the conformance cases do not cover (the card,
 * status codes and their details, chaos on the wire, push configs, the journal and the verdicts).
 */
import { AgentCard, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../../helpers/sim.js';
import { getJson, v1Send } from '../../helpers/wire.js';
import { REPORT_TEXT, settle } from '../../chaos/helpers.js';

let t: TestSim;
let client: Client;
beforeAll(async () => {
  t = await startSim({ grpcPort: 0 });
  client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
    }),
  ).createFromUrl(t.url);
});
afterAll(() => t.close());

const send = (text: string, extra: Record<string, unknown> = {}) =>
  SendMessageRequest.fromJSON(v1Send(text, extra));
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
  it('lists the gRPC service at host:port', async () => {
    const { body } = await getJson(t, '/.well-known/agent-card.json');
    const grpc = (
      body as { supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[] }
    ).supportedInterfaces.filter((i) => i.protocolBinding === 'GRPC');
    expect(grpc).toEqual([{ url: t.sim.grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' }]);
    expect(t.sim.grpcUrl).toBe(`127.0.0.1:${t.sim.grpcPort}`);
    expect(client.transport.protocolName).toBe('GRPC');
  });

  it('serves the extended card over gRPC, with the HTTP base URL in its interfaces', async () => {
    const card = AgentCard.toJSON(await client.transport.getExtendedAgentCard({ tenant: '' })) as Record<
      string,
      any
    >;
    expect(card['name']).toBe('A2A Simulator');
    expect(card['supportedInterfaces'][0]).toMatchObject({ url: t.url, protocolBinding: 'JSONRPC' });
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
    expect(details).toContain('a2a-protocol.org');
  });

  it('answers an invalid request with INVALID_ARGUMENT, not a crash', async () => {
    const error = await failure(
      client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: 'm' } })),
    );
    expect(error?.status).toBe(3);
  });

  it('answers a call for an agent that is not defined with NOT_FOUND (x-sim-agent)', async () => {
    const error = await failure(
      client.getTask({ id: 'x', tenant: '' }, { serviceParameters: { 'x-sim-agent': 'nobody' } }),
    );
    expect(error?.status).toBe(5);
    expect(error?.message).toMatch(/no agent "nobody"/);
  });

  it('refuses a call chaos fails: 503 as UNAVAILABLE with RetryInfo, 429 as RESOURCE_EXHAUSTED', async () => {
    const unavailable = await failure(
      client.sendMessage(send('What is the weather today?'), as('flaky', 'errors-kind=503, errors-rate=1')),
    );
    expect(unavailable?.status).toBe(14);
    expect(unavailable?.statusDetailsBin?.toString('latin1')).toContain('google.rpc.RetryInfo');
    const exhausted = await failure(
      client.sendMessage(send('What is the weather today?'), as('flaky', 'errors-kind=429, errors-rate=1')),
    );
    expect(exhausted?.status).toBe(8);
    const faults = t.sim.faults.list().filter((f) => f.request?.binding === 'gRPC');
    expect(faults.map((f) => f.kind)).toEqual(['error', 'error']);
  });
});

describe('streams and chaos', () => {
  it('cuts a stream chaos drops with UNAVAILABLE; a resubscribe resumes the task', async () => {
    // The long report: still running when the stream is cut, however the clock moved meanwhile.
    const first = await settle(
      t,
      collect(client.sendMessageStream(send(REPORT_TEXT), as('dropped', 'drop-after-events=2'))),
    );
    expect(first.items).toHaveLength(2);
    expect(first.error?.status).toBe(14);
    const taskId = first.items[0]!['task'].id as string;
    const resumed = await settle(
      t,
      collect(client.resubscribeTask({ id: taskId, tenant: '' }, as('dropped'))),
    );
    expect(resumed.error).toBeUndefined();
    expect(stateOf(resumed.items[0]!)).toBeDefined();
    expect(stateOf(resumed.items.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    const [drop] = t.sim.faults.list().filter((f) => f.kind === 'drop');
    expect(drop).toMatchObject({ taskId, request: { binding: 'gRPC', operation: 'SendStreamingMessage' } });
  });

  it('repeats a StreamResponse chaos duplicates', async () => {
    const { items, error } = await t.drive(
      collect(
        client.sendMessageStream(send('What is the weather today?'), as('dup', 'duplicate-probability=1')),
      ),
    );
    expect(error).toBeUndefined();
    expect(items.length).toBeGreaterThan(4);
    expect(stateOf(items.at(-1)!)).toBe('TASK_STATE_COMPLETED');
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
      authentication: undefined,
    });
    expect(created).toMatchObject({ taskId: task.id, url: 'https://hooks.example.test/a2a' });
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });
    expect(got.id).toBe(created.id);
    const listed = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 0,
      pageToken: '',
    });
    expect(listed.configs.map((c) => c.id)).toEqual([created.id]);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });
    const after = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 0,
      pageToken: '',
    });
    expect(after.configs).toEqual([]);
  });
});

describe('the journal and the verdicts', () => {
  it('see a gRPC call with its client name, binding and operation', async () => {
    const task = (await t.drive(
      client.sendMessage(send('What is the weather today?'), as('grpc-judged')),
    )) as Task;
    const entry = t.sim.journal.list().find((e) => e.taskId === task.id && e.operation === 'SendMessage');
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/lf.a2a.v1.A2AService/SendMessage',
      binding: 'gRPC',
      status: 200,
    });
    expect(entry?.headers['x-sim-client']).toBe('grpc-judged');
    const { body } = await getJson(t, '/_sim/requests?binding=gRPC');
    expect(JSON.stringify(body)).toContain('/lf.a2a.v1.A2AService/SendMessage');
    expect(t.sim.verdicts('grpc-judged').map((v) => v.client)).toEqual(['grpc-judged']);
  });
});
