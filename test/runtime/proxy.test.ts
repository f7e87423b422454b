/**
 * The simulator in front of a real agent (an @a2a-js/sdk server): what no scenario takes goes to
 * the agent, and its tasks live in the simulator's store with their own logs, so reading, listing,
 * resuming, cancelling, webhooks and chaos work for them as for scripted tasks.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js';
import { getSse, postSse } from '../helpers/sse.js';
import { startUpstreamAgent, type UpstreamAgent } from '../helpers/upstream-agent.js';
import { callJson, chaosHeader, cursorHeader } from '../helpers/wire.js';

let agent: UpstreamAgent;
beforeAll(async () => {
  agent = await startUpstreamAgent({ stepMs: 10 });
});
afterAll(() => agent.close());

async function proxySim(
  proxy: SimulatorOptions['proxy'] = {},
  options: SimulatorOptions = {},
): Promise<Simulator> {
  return createSimulator({
    port: 0,
    logLevel: 'silent',
    proxy: { url: agent.url, ...proxy },
    ...options,
  });
}

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text }], ...extra },
});

async function send(
  sim: Simulator,
  text: string,
  extra: Record<string, unknown> = {},
  configuration?: unknown,
) {
  const body = { ...message(text, extra), ...(configuration !== undefined && { configuration }) };
  return (await callJson(sim, 'POST', '/message:send', { body })).body;
}

it('plays what a scenario matches, and sends the rest (a fallback scenario does not count) to the agent', async () => {
  const sim = await proxySim({}, { speed: 0 });
  try {
    const local = await send(sim, 'What is the weather today?');
    const proxied = await send(sim, 'Translate bonjour');
    expect(sim.store.find(local.task.id)!.scenarioId).toBe('weather');
    expect(sim.store.find(proxied.task.id)!.scenarioId).toBe('(proxied)');
    expect(proxied.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(proxied.task.artifacts)).toContain('You said: Translate bonjour');
  } finally {
    await sim.close();
  }
});

it("sends the agent its own headers (--proxy-header), and passes the client's credentials on", async () => {
  const sim = await proxySim({ all: true, headers: { 'x-api-key': 'agent-key' } });
  try {
    const before = agent.requests.length;
    const answer = await callJson(sim, 'POST', '/message:send', {
      body: message('What is the weather in Oslo?'),
      headers: { Authorization: 'Bearer client-token' },
    });
    expect(answer.status).toBe(200);
    const sent = agent.requests.slice(before).find((r) => r.method === 'POST')!;
    expect(sent.headers).toMatchObject({ 'x-api-key': 'agent-key', authorization: 'Bearer client-token' });
  } finally {
    await sim.close();
  }
});

describe('serve --proxy, no scenario of its own', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await proxySim({}, { builtinScenarios: false });
  });
  afterAll(() => sim.close());

  it('keeps a proxied task readable, listed and journaled; GetTask asks the agent', async () => {
    const { task } = await send(sim, 'Please fail');
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    const asked = agent.requests.length;
    const read = await callJson(sim, 'GET', `/tasks/${task.id}`);
    expect(read.body.status.state).toBe('TASK_STATE_FAILED');
    expect(agent.requests.slice(asked).some((r) => r.path.includes(`/tasks/${task.id}`))).toBe(true);
    const listed = await callJson(sim, 'GET', '/tasks?pageSize=100');
    expect(listed.body.tasks.map((t: { id: string }) => t.id)).toContain(task.id);
    const journal = (await callJson(sim, 'GET', `/_sim/requests?taskId=${task.id}`)).body;
    expect(JSON.stringify(journal)).toContain(task.id);
  });

  it('continues a proxied task that waits for input, with the agent', async () => {
    const { task } = await send(sim, 'Book a flight');
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await send(sim, 'From Oslo to Rome', { taskId: task.id, contextId: task.contextId });
    expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.task.artifacts[0].parts[0].text).toBe('Flight AB123 From Oslo to Rome');
  });

  it('subscribes to a proxied task from its own log, and cancels it at the agent', async () => {
    const { task } = await send(sim, 'Something slow', {}, { returnImmediately: true });
    const stream = await getSse(`${sim.url}/tasks/${task.id}:subscribe`);
    const first = await stream.next();
    expect(first!.json.task.id).toBe(task.id);
    const canceled = await callJson(sim, 'POST', `/tasks/${task.id}:cancel`);
    expect(canceled.status).toBe(200);
    expect(agent.requests.some((r) => r.path.endsWith(`/tasks/${task.id}:cancel`))).toBe(true);
    const rest = await stream.rest();
    expect(rest.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('gives every event exactly once to a client that resumes after chaos cut its stream', async () => {
    const cut = await postSse(
      `${sim.url}/message:stream`,
      message('Write the report'),
      chaosHeader('drop-after-events=3'),
    );
    const before = await cut.rest();
    expect(before).toHaveLength(3);
    const taskId = before[0]!.json.task.id;
    const lastSeen = Number(before.at(-1)!.id);
    const resumed = await getSse(`${sim.url}/tasks/${taskId}:subscribe`, cursorHeader(lastSeen));
    const after = await resumed.rest();
    const seqs = [...before, ...after].map((e) => Number(e.id));
    const logged = sim.store
      .find(taskId)!
      .log.readAfter(0)
      .map((e) => e.seq);
    expect(seqs).toEqual(logged);
    expect(after.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sim.faults.list({ taskId }).map((f) => f.kind)).toContain('drop');
  });

  it('delivers the events it relays to a webhook made with the message', async () => {
    const received: unknown[] = [];
    // Resolved by the delivery of the task's end, not found by polling the list.
    let ended: () => void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const hook = createServer((req: IncomingMessage, res) => {
      let body = '';
      req
        .on('data', (c) => (body += c))
        .on('end', () => {
          received.push(JSON.parse(body));
          res.end();
          if (body.includes('TASK_STATE_FAILED')) ended();
        });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const { task } = await send(sim, 'Please fail', {}, { taskPushNotificationConfig: { url } });
      await end;
      expect(JSON.stringify(received)).toContain(task.id);
      expect(JSON.stringify(received)).toContain('TASK_STATE_FAILED');
    } finally {
      hook.close();
    }
  });
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)(
  'the @a2a-js/sdk client (%s) through --proxy-all',
  (transport) => {
    let sim: Simulator;
    beforeAll(async () => {
      sim = await proxySim({ all: true });
    });
    afterAll(() => sim.close());

    it("sees the agent's card and tasks, chunks included", async () => {
      const client = await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [transport] }),
      ).createFromUrl(sim.url);
      expect((await client.getAgentCard()).name).toBe('Travel desk');
      const frames = [];
      const request = SendMessageRequest.fromJSON(message('What is the weather in Rome?'));
      for await (const frame of client.sendMessageStream(request)) frames.push(frame);
      const kinds = frames.map((f) => f.payload?.$case);
      expect(kinds).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
      const artifact = frames[2]!.payload!.value as { artifact: { parts: { content: unknown }[] } };
      expect(artifact.artifact.parts[0]!.content).toEqual({ $case: 'text', value: 'Sunny, 21°C in Rome' });
    });
  },
);

describe('an agent behind a workspace gateway (--proxy-gateway)', () => {
  it('speaks the gateway dialect upstream: the follow-up continues the task there', async () => {
    const gateway = await createSimulator({ port: 0, logLevel: 'silent', speed: 0 });
    const sim = await createSimulator({
      port: 0,
      logLevel: 'silent',
      proxy: { gateway: `${gateway.url}/agents/a2a`, agentCode: 'explore', all: true },
    });
    try {
      const { task } = await send(sim, 'Book me a flight', { metadata: { channel: 'web' } }, undefined);
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const done = await send(sim, 'From Oslo to Rome', { taskId: task.id });
      expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(gateway.journal.list().map((entry) => entry.operation)).toContain('message/stream');
    } finally {
      await sim.close();
      await gateway.close();
    }
  });
});

describe('an agent that does not stream', () => {
  it('is asked with blocking sends, and its task is read back as it ends', async () => {
    const quiet = await startUpstreamAgent({ stepMs: 5, streaming: false });
    const sim = await createSimulator({ port: 0, logLevel: 'silent', proxy: { url: quiet.url, all: true } });
    try {
      const stream = await postSse(`${sim.url}/message:stream`, message('What is the weather in Lima?'));
      const events = await stream.rest();
      expect(events.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      expect(quiet.requests.some((r) => r.path.endsWith('/message:send'))).toBe(true);
    } finally {
      await sim.close();
      await quiet.close();
    }
  });
});
