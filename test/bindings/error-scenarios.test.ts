/**
 * A scenario that answers with a protocol error (`error: {type, message, after}`): every binding
 * gets it in its own shape, a stream fails before it starts, and no task is created.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';

let dir: string;
let t: TestSim;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-sim-error-'));
  await writeFile(
    join(dir, 'refuse.yaml'),
    [
      'description: Refuses anything that asks to be refused.',
      'match:',
      '  - keywords: [refuse]',
      'error:',
      '  type: ContentTypeNotSupportedError',
      '  message: "Refused {{input.messageId}}."',
      '  after: 2s',
    ].join('\n'),
  );
  await writeFile(join(dir, 'desk.agent.yaml'), 'name: Desk\ndescription: Refuses.\nscenarios: [refuse]\n');
  t = await startSim({ scenarioDirs: [dir], builtinScenarios: false });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const V1_MESSAGE = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Please refuse this' }] };
const V03_MESSAGE = {
  kind: 'message',
  messageId: 'm-1',
  role: 'user',
  parts: [{ kind: 'text', text: 'refuse' }],
};

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const before = t.clock.now();
  const response = await t.drive(
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
    waitedMs: t.clock.now() - before,
  };
}

const rpc = (method: string, params: unknown, extra = {}) => ({
  jsonrpc: '2.0',
  id: 9,
  method,
  params,
  ...extra,
});

describe('a scenario that answers with an error', () => {
  it.each(['/message:send', '/message:stream'])('answers REST %s with a google.rpc.Status', async (path) => {
    const answer = await post(path, { message: V1_MESSAGE }, { 'A2A-Version': '1.0' });
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/(a2a\+)?json/);
    expect(answer.body.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'Refused m-1.',
    });
    expect(answer.body.error.details[0]).toMatchObject({
      reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      metadata: { scenario: 'refuse' },
    });
    expect(answer.waitedMs).toBe(2000);
  });

  it.each(['SendMessage', 'SendStreamingMessage'])(
    'answers JSON-RPC 1.0 %s with an error object',
    async (method) => {
      const answer = await post('/', rpc(method, { message: V1_MESSAGE }), { 'A2A-Version': '1.0' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: 9, error: { code: -32005, message: 'Refused m-1.' } });
      expect(answer.body.error.data[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    },
  );

  it.each(['message/send', 'message/stream'])(
    'answers JSON-RPC 0.3 %s with an error object',
    async (method) => {
      const answer = await post('/', rpc(method, { message: V03_MESSAGE }));
      expect(answer.body).toMatchObject({ id: 9, error: { code: -32005, message: 'Refused m-1.' } });
    },
  );

  it('answers through the gateway, for the agent that plays it', async () => {
    const answer = await post(
      '/agents/a2a',
      rpc('message/send', { message: V03_MESSAGE }, { agent_code: 'desk' }),
    );
    expect(answer.body).toMatchObject({ id: 9, error: { code: -32005, message: 'Refused m-1.' } });
  });

  it('creates no task', async () => {
    await post('/message:send', { message: V1_MESSAGE }, { 'A2A-Version': '1.0' });
    expect(t.sim.store.size).toBe(0);
  });
});
