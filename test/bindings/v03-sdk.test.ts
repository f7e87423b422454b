/**
 * The official @a2a-js/sdk client as a v0.3 peer: it finds the v0.3 JSON-RPC interface from the
 * base URL and plays the seed scenarios over it (weather, flight booking, failure, slow cancel),
 * streaming and resubscribing included.
 */
import { SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { v1Send } from '../helpers/wire.js';
import { connectV03Client } from './sdk-drivers.js';

let t: TestSim;
let client: Client;
beforeAll(async () => {
  t = await startSim();
  client = await connectV03Client(t.url);
});
afterAll(() => t.close());

let counter = 0;

describe('the @a2a-js/sdk client as a v0.3 peer, over the seed scenarios', () => {
  const request = (text: string, extra: Record<string, unknown> = {}, configuration?: object) =>
    SendMessageRequest.fromJSON(
      v1Send(text, { messageId: `sdk-${++counter}`, ...extra }, configuration && { configuration }),
    );
  const sendTask = async (req: SendMessageRequest) =>
    Task.toJSON((await t.drive(client.sendMessage(req))) as Task) as any;
  const collect = async (generator: AsyncGenerator<StreamResponse>) => {
    const frames: any[] = [];
    for await (const item of generator) frames.push(StreamResponse.toJSON(item));
    return frames;
  };
  const stateOf = (frame: any) => (frame.task ?? frame.statusUpdate)?.status.state;

  it('finds the v0.3 JSON-RPC interface from the base URL alone', () => {
    expect([client.transport.protocolName, client.transport.protocolVersion]).toEqual(['JSONRPC', '0.3']);
  });

  it('with its stock resolver, prefers the v1.0 interfaces the v0.3 card embeds (the SDK reads a hybrid card as v1.0)', async () => {
    const stock = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
        transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
      }),
    ).createFromUrl(t.url);
    expect(stock.transport.protocolVersion).toBe('1.0');
  });

  it('weather: a completed task with the Weather Report, sent and streamed', async () => {
    const task = await sendTask(request('What is the weather today?'));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].name).toBe('Weather Report');
    const frames = await t.drive(collect(client.sendMessageStream(request('What is the weather today?'))));
    expect(frames.map(stateOf).filter(Boolean)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    expect(frames.filter((f) => f.artifactUpdate)).toHaveLength(1);
  });

  it('flight booking: streams to input-required, then the follow-up completes it with an itinerary', async () => {
    const first = await t.drive(collect(client.sendMessageStream(request('Book me a flight'))));
    expect(stateOf(first.at(-1))).toBe('TASK_STATE_INPUT_REQUIRED');
    const taskId = first[0].task.id;
    const done = await sendTask(request('From San Francisco to New York', { taskId }));
    expect(done).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(done.artifacts[0].parts[1].data).toMatchObject({ from: 'San Francisco', to: 'New York' });
  });

  it('failure: a failed task explaining why', async () => {
    const task = await sendTask(request('Please fail this task'));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts[0].text).toMatch(/simulated failure/);
  });

  it('slow cancel: the cancel is accepted while working, and tasks/get confirms canceled', async () => {
    const generator = client.sendMessageStream(request('Write a long report on climate change'));
    const first = StreamResponse.toJSON((await generator.next()).value as StreamResponse) as any;
    const taskId = first.task.id;
    t.clock.advance(5_000);
    const accepted = Task.toJSON(
      await client.cancelTask({ id: taskId, tenant: '', metadata: undefined }),
    ) as any;
    expect(accepted.status.state).toBe('TASK_STATE_WORKING');
    const rest = await t.drive(collect(generator));
    expect(stateOf(rest.at(-1))).toBe('TASK_STATE_CANCELED');
    const canceled = Task.toJSON(await client.getTask({ id: taskId, tenant: '' })) as any;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('resubscribes to a running task: the current Task, then live events to completion', async () => {
    const task = await sendTask(
      request('Write a long report on climate change', {}, { returnImmediately: true }),
    );
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    t.clock.advance(2_000);
    const frames = await t.drive(collect(client.resubscribeTask({ id: task.id, tenant: '' })));
    expect(frames[0].task).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_WORKING' } });
    expect(stateOf(frames.at(-1))).toBe('TASK_STATE_COMPLETED');
  });
});
