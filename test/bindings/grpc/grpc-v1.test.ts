/**
 * A2A v1.0 over gRPC, judged by the official SDK's gRPC client (`@a2a-js/sdk/client/grpc`), found
 * from the agent card like any other transport.
 */
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../../helpers/sim.js';
import { v1Send } from '../../helpers/wire.js';

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

describe('A2A v1.0 over gRPC, through the SDK client', () => {
  it('is found on the card and sends a message', async () => {
    expect(client.transport.protocolName).toBe('GRPC');
    const result = await t.drive(client.sendMessage(send('What is the weather today?')));
    expect(Task.toJSON(result as Task)).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' } });
  });
});
