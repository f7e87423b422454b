/**
 * Credentials stay with the origin the proxy was pointed at: no redirect is followed (a 3xx is an
 * InvalidAgentResponse naming where it pointed), and an interface the card places on another origin
 * is called without the client's Authorization and X-API-Key and without the configured headers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { callJson } from '../helpers/wire.js';
import {
  sendJson,
  startHostileAgent,
  userSend,
  v1Card,
  wireTask,
  type HostileAgent,
} from './hostile-agent.js';

let agents: HostileAgent[] = [];
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  await Promise.all(agents.map((a) => a.close()));
  sim = undefined;
  agents = [];
});

const CREDENTIALS = { Authorization: 'Bearer client-token', 'X-API-Key': 'client-key' };

/** Answers every call with a completed task: whoever calls it gets what it asked for. */
async function thief(): Promise<HostileAgent> {
  const agent = await startHostileAgent({
    answer: (_req, res) => sendJson(res, 200, { task: wireTask('stolen', 'TASK_STATE_COMPLETED') }),
  });
  agents.push(agent);
  return agent;
}

describe('a redirect to another origin (F8a)', () => {
  it.each([301, 302, 307, 308])('HTTP %i is not followed: 502 naming the Location', async (status) => {
    const elsewhere = await thief();
    const agent = await startHostileAgent({
      card: (url) => v1Card(url, { streaming: false }),
      answer: (req, res) => {
        res.writeHead(status, { Location: `${elsewhere.url}${req.path}` }).end();
      },
    });
    agents.push(agent);
    sim = await createSimulator({
      port: 0,
      logLevel: 'silent',
      proxy: { url: agent.url, all: true, headers: { 'x-agent-secret': 'configured' } },
    });
    const answer = await callJson(sim, 'POST', '/message:send', {
      body: userSend('hi'),
      headers: CREDENTIALS,
    });
    expect(answer.status).toBe(502);
    expect(answer.body.error.details[0].reason).toBe('INVALID_AGENT_RESPONSE');
    expect(answer.body.error.message).toContain(`redirect to ${elsewhere.url}/message:send`);
    expect(elsewhere.received).toEqual([]);
  });

  it('the card is not read through a redirect either: the simulator does not start', async () => {
    const elsewhere = await thief();
    // Given a card URL of its own, this agent answers it with a redirect.
    const bouncer = await startHostileAgent({
      card: () => ({}),
      answer: (req, res) => {
        res.writeHead(302, { Location: `${elsewhere.url}${req.path}` }).end();
      },
    });
    agents.push(bouncer);
    await expect(
      createSimulator({ port: 0, logLevel: 'silent', proxy: { url: `${bouncer.url}/card.json` } }),
    ).rejects.toThrow(`redirect to ${elsewhere.url}/card.json`);
    expect(elsewhere.received).toEqual([]);
  });
});

describe('an interface URL on another origin (F8b)', () => {
  it('gets no client credentials and no configured headers; the card origin gets them', async () => {
    const elsewhere = await thief();
    const card = await startHostileAgent({
      card: (url) => v1Card(url, { streaming: false, at: elsewhere.url }),
      answer: () => {},
    });
    agents.push(card);
    sim = await createSimulator({
      port: 0,
      logLevel: 'silent',
      proxy: { url: card.url, all: true, headers: { 'x-agent-secret': 'configured' } },
    });
    const answer = await callJson(sim, 'POST', '/message:send', {
      body: userSend('hi'),
      headers: { ...CREDENTIALS, 'A2A-Extensions': 'https://example.com/ext' },
    });
    expect(answer.status).toBe(200);
    const sent = elsewhere.calls()[0]!.headers;
    expect(sent).not.toHaveProperty('authorization');
    expect(sent).not.toHaveProperty('x-api-key');
    expect(sent).not.toHaveProperty('x-agent-secret');
    // What is not a credential still goes.
    expect(sent['a2a-extensions']).toBe('https://example.com/ext');
    // The card was read from the origin the proxy was pointed at, with the configured headers.
    expect(card.received[0]!.headers['x-agent-secret']).toBe('configured');
  });

  it('an interface on the same origin still gets them', async () => {
    const agent = await startHostileAgent({
      card: (url) => v1Card(url, { streaming: false }),
      answer: (_req, res) => sendJson(res, 200, { task: wireTask('mine', 'TASK_STATE_COMPLETED') }),
    });
    agents.push(agent);
    sim = await createSimulator({
      port: 0,
      logLevel: 'silent',
      proxy: { url: agent.url, all: true, headers: { 'x-agent-secret': 'configured' } },
    });
    const answer = await callJson(sim, 'POST', '/message:send', {
      body: userSend('hi'),
      headers: CREDENTIALS,
    });
    expect(answer.status).toBe(200);
    expect(agent.calls()[0]!.headers).toMatchObject({
      authorization: 'Bearer client-token',
      'x-api-key': 'client-key',
      'x-agent-secret': 'configured',
    });
  });
});
