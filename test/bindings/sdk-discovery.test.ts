/**
 * The official @a2a-js/sdk client, given nothing but the base URL, finds both v1.0 transports on
 * the agent card and picks the one it prefers.
 */
import { AgentCard, SendMessageRequest, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getJson, v1Send } from '../helpers/wire.js';

let sim: TestSim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const weather = v1Send('What is the weather today?', {
  messageId: 'discovery-1',
  metadata: { scenario: 'weather' },
});

describe('@a2a-js/sdk discovery from the base URL', () => {
  it('chooses JSON-RPC over A2A 1.0 by default', async () => {
    const client = await new ClientFactory().createFromUrl(sim.url);
    expect(client.transport.protocolName).toBe('JSONRPC');
    expect(client.transport.protocolVersion).toBe('1.0');
  });

  it.each(['JSONRPC', 'HTTP+JSON'] as const)(
    'uses %s when preferred and completes a task over it',
    async (binding) => {
      const client = await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }),
      ).createFromUrl(sim.url);
      expect(client.transport.protocolName).toBe(binding);
      const result = await sim.drive(client.sendMessage(SendMessageRequest.fromJSON(weather)));
      expect(Task.toJSON(result as Task)).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' } });
    },
  );

  it('reads the extended card over the chosen transport', async () => {
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ['HTTP+JSON'] }),
    ).createFromUrl(sim.url);
    const card = AgentCard.toJSON(await client.getAgentCard()) as { name: string; skills: { id: string }[] };
    expect(card.name).toBe('A2A Simulator');
    expect(card.skills.map((s) => s.id)).toContain('weather');
  });
});

describe('a simulator behind a proxy (--public-url)', () => {
  let proxied: TestSim;
  beforeAll(async () => {
    proxied = await startSim({ publicUrl: 'https://agents.example.test/sim/' });
  });
  afterAll(() => proxied.close());

  it('advertises the public URL for both transports', async () => {
    const card = (await getJson(proxied, '/.well-known/agent-card.json')).body as {
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual(
      expect.arrayContaining([
        ['JSONRPC', 'https://agents.example.test/sim'],
        ['HTTP+JSON', 'https://agents.example.test/sim'],
      ]),
    );
  });
});
