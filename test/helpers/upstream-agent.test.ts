/**
 * The upstream fixtures themselves: the SDK-built agent answers the official client over HTTP+JSON
 * and JSON-RPC and raw v0.3 JSON-RPC as its scenarios say, and each misbehaving mode really misbehaves.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Message, SendMessageRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import {
  startMisbehavingAgent,
  startUpstreamAgent,
  unusedPort,
  type Misbehaviour,
  type UpstreamAgent,
} from './upstream-agent.js';

const send = (text: string, ids: { taskId?: string; contextId?: string } = {}) =>
  SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids },
  });

/** A blocking send's answer as v1.0 JSON, tagged by what it is. */
async function ask(client: Client, request: SendMessageRequest) {
  const result = await client.sendMessage(request);
  return 'status' in result
    ? { task: Task.toJSON(result) as any }
    : { message: Message.toJSON(result) as any };
}

const textOfFirstPart = (holder: any) => holder?.parts?.[0]?.text;

let agent: UpstreamAgent;
beforeAll(async () => {
  agent = await startUpstreamAgent({ stepMs: 5 });
});
afterAll(() => agent.close());

describe('startUpstreamAgent', () => {
  it('serves a v1.0 card with every interface, the skills and an API key scheme', async () => {
    const card: any = await (await fetch(agent.cardUrl)).json();
    expect(card.name).toBe('Travel desk');
    expect(card.supportedInterfaces).toEqual([
      { url: agent.url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${agent.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${agent.url}/v03`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: false });
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json']);
    expect(card.skills.map((s: any) => s.id)).toEqual(['weather', 'flight-booking', 'report', 'failure']);
    expect(card.securitySchemes.apiKey.apiKeySecurityScheme).toMatchObject({
      location: 'header',
      name: 'X-API-Key',
    });
    expect(card.securityRequirements).toEqual([{ schemes: { apiKey: { list: [] } } }]);
  });

  it('declares only the chosen interfaces and streaming setting', async () => {
    const only = await startUpstreamAgent({ interfaces: ['JSONRPC'], streaming: false });
    try {
      const card: any = await (await fetch(only.cardUrl)).json();
      expect(card.supportedInterfaces.map((i: any) => i.url)).toEqual([`${only.url}/rpc`]);
      expect(card.capabilities.streaming).toBe(false);
      expect((await fetch(`${only.url}/message:send`, { method: 'POST' })).status).toBe(404);
    } finally {
      await only.close();
    }
  });

  it('records each request with its credential headers and nothing else', async () => {
    const headers = {
      Authorization: 'Bearer t0k',
      'X-API-Key': 'k1',
      'X-Workspace-Id': 'ws',
      'X-Other': 'no',
    };
    await fetch(agent.cardUrl, { headers });
    expect(agent.requests.at(-1)).toEqual({
      method: 'GET',
      path: '/.well-known/agent-card.json',
      headers: { authorization: 'Bearer t0k', 'x-api-key': 'k1', 'x-workspace-id': 'ws' },
    });
  });

  describe.each([
    ['HTTP+JSON', '/message:send'],
    ['JSONRPC', '/rpc'],
  ] as const)('through the SDK client over %s', (transport, path) => {
    let client: Client;
    beforeAll(async () => {
      const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        preferredTransports: [transport],
      });
      client = await new ClientFactory(options).createFromUrl(agent.url);
    });

    it('answers a weather question with a completed task and its report', async () => {
      const before = agent.requests.length;
      const { task } = await ask(client, send('What is the weather in Berlin?'));
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts).toHaveLength(1);
      expect(task.artifacts[0].name).toBe('Weather Report');
      expect(textOfFirstPart(task.artifacts[0])).toBe('Sunny, 21°C in Berlin');
      expect(agent.requests.slice(before).map((r) => r.path)).toContain(path);
    });

    it('pauses a flight booking at input-required, then completes it after the follow-up', async () => {
      const first = (await ask(client, send('Book a flight please'))).task;
      expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(textOfFirstPart(first.status.message)).toBe('Where would you like to fly from and to?');
      const ids = { taskId: first.id, contextId: first.contextId };
      const done = (await ask(client, send('from Paris to Rome', ids))).task;
      expect(done.id).toBe(first.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      const itinerary = done.artifacts.find((a: any) => a.name === 'Itinerary');
      expect(textOfFirstPart(itinerary)).toBe('Flight AB123 from Paris to Rome');

      const other = (await ask(client, send('Another flight'))).task;
      const stopped = (
        await ask(client, send('never mind', { taskId: other.id, contextId: other.contextId }))
      ).task;
      expect(stopped.status.state).toBe('TASK_STATE_CANCELED');
      expect(textOfFirstPart(stopped.status.message)).toBe('Booking stopped.');
    });

    it('streams a report as four chunks of one artifact', async () => {
      const frames: StreamResponse[] = [];
      for await (const frame of client.sendMessageStream(send('Write the trip report'))) frames.push(frame);
      const chunks = frames.flatMap((f) => (f.payload?.$case === 'artifactUpdate' ? [f.payload.value] : []));
      expect(chunks.map((c) => c.artifact?.parts[0]?.content)).toEqual(
        ['Part 1. ', 'Part 2. ', 'Part 3. ', 'Part 4.'].map((value) => ({ $case: 'text', value })),
      );
      expect(new Set(chunks.map((c) => c.artifact?.artifactId)).size).toBe(1);
      expect(chunks.map((c) => c.append)).toEqual([false, true, true, true]);
      expect(chunks.map((c) => c.lastChunk)).toEqual([false, false, false, true]);
      const last = frames.at(-1)?.payload;
      expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('ends a failing request failed, with the reason', async () => {
      const { task } = await ask(client, send('Make it fail'));
      expect(task.status.state).toBe('TASK_STATE_FAILED');
      expect(textOfFirstPart(task.status.message)).toBe('The upstream service is down.');
    });

    it('greets with a direct message and no task', async () => {
      const { message, task } = await ask(client, send('hello there'));
      expect(task).toBeUndefined();
      expect(message.role).toBe('ROLE_AGENT');
      expect(textOfFirstPart(message)).toBe('Hello from the travel desk!');
    });

    it('cancels a slow task mid-stream', async () => {
      const states: TaskState[] = [];
      let taskId = '';
      for await (const frame of client.sendMessageStream(send('something slow'))) {
        const payload = frame.payload;
        if (payload?.$case === 'task') taskId = payload.value.id;
        if (payload?.$case !== 'statusUpdate') continue;
        states.push(payload.value.status!.state);
        if (states.length === 3) {
          const canceled = await client.cancelTask({ id: taskId, tenant: '', metadata: undefined });
          expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
        }
      }
      expect(states.at(-1)).toBe(TaskState.TASK_STATE_CANCELED);
      expect(states.length).toBeLessThan(20);
    });
  });

  it('speaks v0.3 JSON-RPC at /v03', async () => {
    const call = async (text: string) => {
      const message = {
        kind: 'message',
        role: 'user',
        messageId: randomUUID(),
        parts: [{ kind: 'text', text }],
      };
      const response = await fetch(`${agent.url}/v03`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'v03-1', method: 'message/send', params: { message } }),
      });
      const body: any = await response.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 'v03-1' });
      return body.result;
    };
    const task = await call('What is the weather in Oslo?');
    expect(task.kind).toBe('task');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts[0].parts).toEqual([{ kind: 'text', text: 'Sunny, 21°C in Oslo' }]);
    const greeting = await call('hello');
    expect(greeting).toMatchObject({ kind: 'message', role: 'agent' });
  });
});

const post = (url: string, body: unknown, init: RequestInit = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify(body),
    ...init,
  });

/** Reads a response body to its end or its failure. */
async function drain(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += decoder.decode(chunk.value, { stream: true });
    return { text };
  } catch (error) {
    return { text, error };
  }
}

const sendBody = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } };
const rpcBody = (method: string) => ({ jsonrpc: '2.0', id: 42, method, params: sendBody });

const PROOFS: Record<Misbehaviour, (url: string) => Promise<void>> = {
  'invalid-json': async (url) => {
    const response = await post(`${url}/message:send`, sendBody);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  },
  'wrong-media-type': async (url) => {
    const response = await post(`${url}/rpc`, rpcBody('SendMessage'));
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe('<html>oops</html>');
  },
  'cut-stream': async (url) => {
    const rest = await drain(await post(`${url}/message:stream`, sendBody));
    expect(rest.error).toBeDefined();
    const [event, half] = rest.text.split('\n\n');
    expect(JSON.parse(event!.replace(/^data: /, '')).task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(half).toBe('data: {"statusUpdate":{"taskId"');
    const rpc = await drain(await post(`${url}/rpc`, rpcBody('SendStreamingMessage')));
    expect(rpc.error).toBeDefined();
    expect(JSON.parse(rpc.text.split('\n\n')[0]!.replace(/^data: /, ''))).toMatchObject({
      jsonrpc: '2.0',
      id: 42,
      result: { task: { status: { state: 'TASK_STATE_SUBMITTED' } } },
    });
    await expect(post(`${url}/message:send`, sendBody)).rejects.toThrow();
  },
  hang: async (url) => {
    const call = fetch(`${url}/tasks/t1`, { signal: AbortSignal.timeout(200) });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
  },
  'error-500': async (url) => {
    const response = await post(`${url}/message:send`, sendBody);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).not.toBe('');
  },
};

describe.each(Object.keys(PROOFS) as Misbehaviour[])('startMisbehavingAgent(%s)', (mode) => {
  it('lets discovery succeed, then misbehaves', async () => {
    const upstream = await startMisbehavingAgent(mode);
    try {
      const client = await new ClientFactory().createFromUrl(upstream.url);
      expect((await client.getAgentCard()).capabilities?.streaming).toBe(true);
      await PROOFS[mode](upstream.url);
    } finally {
      const started = performance.now();
      await upstream.close();
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});

it('closes a misbehaving agent promptly while a request hangs on it', async () => {
  const upstream = await startMisbehavingAgent('hang');
  const pending = fetch(`${upstream.url}/message:send`, { method: 'POST' }).catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  await upstream.close();
  expect(performance.now() - started).toBeLessThan(1000);
  expect(await pending).toBeInstanceOf(Error);
});

it('unusedPort gives a port that refuses connections', async () => {
  const port = await unusedPort();
  await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
});
