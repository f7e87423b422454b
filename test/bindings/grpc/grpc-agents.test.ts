/**
 * A defined agent over gRPC: its own port, named by its card, so that a client that finds it by the
 * card (the SDK's ClientFactory here, the conformance suite too) reaches it without metadata of ours;
 * the card's GRPC host is the one the card was asked for by.
 */
import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../../helpers/sim.js';
import { v1Send } from '../../helpers/wire.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ grpcPort: 0, speed: 0 });
});
afterAll(() => t.close());

const grpcInterfaces = async (url: string) => {
  const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
    supportedInterfaces: { url: string; protocolBinding: string }[];
  };
  return card.supportedInterfaces.filter((i) => i.protocolBinding === 'GRPC').map((i) => i.url);
};

describe('a defined agent over gRPC', () => {
  it('has a port of its own, which its card lists and the root card does not', async () => {
    const explore = t.sim.agents.find((a) => a.id === 'explore')!;
    const port = Number(explore.grpcUrl!.split(':').at(-1));
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(t.sim.grpcPort);
    expect(await grpcInterfaces(explore.url)).toEqual([explore.grpcUrl]);
    expect(await grpcInterfaces(t.url)).toEqual([t.sim.grpcUrl]);
  });

  it('names, in its cards, the host the card was asked for by', async () => {
    const explore = t.sim.agents.find((a) => a.id === 'explore')!;
    const port = explore.grpcUrl!.split(':').at(-1);
    const byName = explore.url.replace('127.0.0.1', 'localhost');
    expect(await grpcInterfaces(byName)).toEqual([`localhost:${port}`]);
  });

  it("serves a client that found it by its card, journaled as the agent's call", async () => {
    const explore = t.sim.agents.find((a) => a.id === 'explore')!;
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
        preferredTransports: ['GRPC'],
      }),
    ).createFromUrl(`${explore.url}/`);
    const answer = await client.sendMessage(
      SendMessageRequest.fromJSON(v1Send("What's the weather in Paris?")),
      { serviceParameters: { 'x-sim-client': 'explore-over-grpc' } },
    );
    const taskId = (answer as { id: string }).id;
    expect(taskId).toEqual(expect.any(String));
    const entry = t.sim.journal.list().find((e) => e.taskId === taskId && e.binding === 'gRPC');
    expect(entry).toMatchObject({ agent: 'explore', operation: 'SendMessage' });
    expect(entry!.headers['x-sim-client']).toBe('explore-over-grpc');
  });
});
