/**
 * A proxy loop dies after one hop (F7): every call to the agent carries the simulator's name in
 * `X-A2A-Sim-Hop`, and a request that comes back carrying it is refused with 508 Loop Detected,
 * which the simulator that sent it answers its own client as InvalidAgentResponseError (502).
 * A simulator in front of another simulator (a chain, not a loop) still works.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { unusedPort } from '../helpers/upstream-agent.js';
import { callJson, rpcEnvelope } from '../helpers/wire.js';
import {
  startHostileAgent,
  userSend,
  v1Card,
  type HostileAgent,
  type Received,
} from '../upstream/hostile-agent.js';

let agents: HostileAgent[] = [];
let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  await Promise.all(agents.map((a) => a.close()));
  sims = [];
  agents = [];
});

async function sim(options: Parameters<typeof createSimulator>[0]): Promise<Simulator> {
  const started = await createSimulator({ logLevel: 'silent', ...options });
  sims.push(started);
  return started;
}

function expectLoop(answer: { status: number; body: any }) {
  expect(answer.status).toBe(502);
  expect(answer.body.error.details[0].reason).toBe('INVALID_AGENT_RESPONSE');
  expect(answer.body.error.message).toMatch(/508 Loop Detected/);
}

describe('a card whose interface is the simulator itself', () => {
  it.each([false, true])(
    'is refused at the first hop (streaming %s)',
    async (streaming) => {
      const port = await unusedPort();
      const card = await startHostileAgent({
        card: (url) => v1Card(url, { streaming, at: `http://127.0.0.1:${port}` }),
        answer: () => {},
      });
      agents.push(card);
      const s = await sim({ port, proxy: { url: card.url, all: true } });
      const answer = await callJson(s, 'POST', '/message:send', { body: userSend('hi') });
      expectLoop(answer);
      expect(answer.body.error.message).toMatch(/leads straight back to this simulator/);
      // The client's call, and the one that came back: nothing more.
      const calls = s.journal.list().filter((e) => e.path.startsWith('/message'));
      expect(calls.map((e) => e.status).sort()).toEqual([502, 508]);
    },
    20_000,
  );

  it('is refused on JSON-RPC as well, with the JSON-RPC code for an invalid agent response', async () => {
    const port = await unusedPort();
    const card = await startHostileAgent({
      card: (url) => v1Card(url, { streaming: false, at: `http://127.0.0.1:${port}` }),
      answer: () => {},
    });
    agents.push(card);
    const s = await sim({ port, proxy: { url: card.url, all: true } });
    const answer = await callJson(s, 'POST', '/', {
      body: rpcEnvelope('SendMessage', userSend('hi')),
      headers: { 'A2A-Version': '1.0' },
    });
    expect(answer.body.error.code).toBe(-32006);
    expect(answer.body.error.message).toMatch(/508 Loop Detected/);
  }, 20_000);
});

describe('a loop through another host', () => {
  it('dies after one hop: the host forwards the call once, and it comes back refused', async () => {
    let target = '';
    const forwarded: Received[] = [];
    // A plain forwarding proxy: passes every call, headers included, to `target`.
    const relay = await startHostileAgent({
      card: (url) => v1Card(url, { streaming: false }),
      answer: async (req, res: ServerResponse) => {
        forwarded.push(req);
        const { host, 'content-length': _, connection: __, ...headers } = req.headers;
        const back = await fetch(`${target}${req.path}`, {
          method: req.method,
          headers,
          ...(req.body !== undefined && { body: JSON.stringify(req.body) }),
        });
        res.writeHead(back.status, { 'Content-Type': back.headers.get('content-type') ?? 'text/plain' });
        res.end(await back.text());
      },
    });
    agents.push(relay);
    const s = await sim({ port: 0, proxy: { url: relay.url, all: true } });
    target = s.url;
    const answer = await callJson(s, 'POST', '/message:send', { body: userSend('hi') });
    expectLoop(answer);
    expect(answer.body.error.message).toMatch(/already passed through this simulator/);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.headers['x-a2a-sim-hop']).toMatch(/^a2a-sim-/);
  });
});

it('a simulator in front of another simulator is a chain, not a loop', async () => {
  const behind = await sim({ port: 0, speed: 0 });
  const front = await sim({ port: 0, proxy: { url: behind.url, all: true } });
  const answer = await callJson(front, 'POST', '/message:send', {
    body: userSend('What is the weather today?'),
  });
  expect(answer.status).toBe(200);
  expect(answer.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(front.store.find(answer.body.task.id)!.scenarioId).toBe('(proxied)');
});
