/**
 * A scenario that answers with a protocol error (`error: {type, message, after}`): every binding
 * gets it in its own shape, a stream fails before it starts, and no task is created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimWith, type TestSim } from '../helpers/sim.js';
import { postJson, rpcEnvelope, v03Send, v1Send } from '../helpers/wire.js';

let t: TestSim;

beforeAll(async () => {
  t = await startSimWith(
    {
      'refuse.yaml': [
        'description: Refuses anything that asks to be refused.',
        'match:',
        '  - keywords: [refuse]',
        'error:',
        '  type: ContentTypeNotSupportedError',
        '  message: "Refused {{input.messageId}}."',
        '  after: 2s',
      ].join('\n'),
      'desk.agent.yaml': 'name: Desk\ndescription: Refuses.\nscenarios: [refuse]\n',
    },
    { builtinScenarios: false },
  );
});
afterAll(() => t.close());

const V1_SEND = v1Send('Please refuse this', { messageId: 'm-1' });
const V03_SEND = v03Send('refuse', { messageId: 'm-1' });
const ID = { id: 9 };

/** Posts `body` and drives the clock until the answer: the answer, and the virtual time it took. */
async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const before = t.clock.now();
  const answer = await t.drive(postJson(t, path, body, headers));
  return { ...answer, type: answer.headers.get('content-type'), waitedMs: t.clock.now() - before };
}

describe('a scenario that answers with an error', () => {
  it.each(['/message:send', '/message:stream'])('answers REST %s with a google.rpc.Status', async (path) => {
    const answer = await post(path, V1_SEND, { 'A2A-Version': '1.0' });
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
      const answer = await post('/', rpcEnvelope(method, V1_SEND, ID), { 'A2A-Version': '1.0' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: 9, error: { code: -32005, message: 'Refused m-1.' } });
      expect(answer.body.error.data[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    },
  );

  it.each(['message/send', 'message/stream'])(
    'answers JSON-RPC 0.3 %s with an error object',
    async (method) => {
      const answer = await post('/', rpcEnvelope(method, V03_SEND, ID));
      expect(answer.body).toMatchObject({ id: 9, error: { code: -32005, message: 'Refused m-1.' } });
    },
  );

  it('answers through the gateway, for the agent that plays it', async () => {
    const answer = await post(
      '/agents/a2a',
      rpcEnvelope('message/send', V03_SEND, { ...ID, agent_code: 'desk' }),
    );
    expect(answer.body).toMatchObject({ id: 9, error: { code: -32005, message: 'Refused m-1.' } });
  });

  it('creates no task', async () => {
    await post('/message:send', V1_SEND, { 'A2A-Version': '1.0' });
    expect(t.sim.store.size).toBe(0);
  });
});
