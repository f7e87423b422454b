/**
 * Card fields from agent files: `capabilities.extensions` and the default modes on both card
 * versions, a required extension enforced on every binding of its agent (ExtensionSupportRequiredError
 * unless the call activates it), and the activated extensions echoed in the header the client used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimWith, type TestSim } from '../helpers/sim.js';
import { getJson, postJson, rpc, V1_HEADERS, v03Send, v1Send, type JsonAnswer } from '../helpers/wire.js';

const REQUIRED = 'urn:example:required';
const OPTIONAL = 'https://example.com/ext/geo/v1';

let t: TestSim;

beforeAll(async () => {
  const agent = [
    'name: Strict',
    'description: Needs an extension.',
    'scenarios: [weather]',
    'capabilities:',
    '  extensions:',
    `    - { uri: "${REQUIRED}", description: Must be on, required: true }`,
    `    - { uri: "${OPTIONAL}", params: { precision: 3 } }`,
    'defaultInputModes: [text]',
    'defaultOutputModes: [text/plain]',
  ];
  t = await startSimWith({ 'strict.agent.yaml': agent.join('\n') }, { speed: 0 });
});
afterAll(() => t.close());

const V1_SEND = v1Send('weather today?', { messageId: 'm-1' });
const V03_SEND = v03Send('weather today?', { messageId: 'm-1' });
const ID = { id: 3 };

describe('card fields from the agent file', () => {
  it.each([
    ['1.0', 'extendedAgentCard'],
    ['0.3', 'stateTransitionHistory'],
  ])('declares the extensions and default modes on the v%s card', async (version, versionOnly) => {
    const card = (await getJson(t, '/agents/strict/.well-known/agent-card.json', { 'A2A-Version': version }))
      .body;
    expect(card.capabilities).toHaveProperty(versionOnly);
    expect(card.capabilities.extensions).toEqual([
      { uri: REQUIRED, description: 'Must be on', required: true },
      { uri: OPTIONAL, params: { precision: 3 } },
    ]);
    expect(card.defaultInputModes).toEqual(['text']);
    expect(card.defaultOutputModes).toEqual(['text/plain']);
  });

  it("keeps the simulator's modes, and no extensions, on the other agents' cards", async () => {
    const card = (await getJson(t, '/agents/explore/.well-known/agent-card.json')).body;
    expect(card.capabilities).not.toHaveProperty('extensions');
    expect(card.defaultInputModes).toContain('application/json');
  });

  it("refuses a part in a media type outside the agent's input modes", async () => {
    const png = v1Send('', { messageId: 'm-2', parts: [{ raw: 'AA==', mediaType: 'image/png' }] });
    const { body } = await postJson(t, '/agents/strict/message:send', png, { 'A2A-Extensions': REQUIRED });
    expect(body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
  });
});

/** Each binding of the agent: a send, and where its error code is. */
const BINDINGS = [
  {
    name: 'REST',
    send: (headers: Record<string, string>) =>
      postJson(t, '/agents/strict/message:send', V1_SEND, { ...V1_HEADERS, ...headers }),
    refusal: ({ status, body }: JsonAnswer) => [status, body.error.status, body.error.details[0].reason],
    expected: [400, 'FAILED_PRECONDITION', 'EXTENSION_SUPPORT_REQUIRED'],
    ok: ({ body }: JsonAnswer) => body.task.status.state,
  },
  {
    name: 'JSON-RPC 1.0',
    send: (headers: Record<string, string>) =>
      rpc(t, 'SendMessage', V1_SEND, { ...ID, path: '/agents/strict/', version: '1.0', headers }),
    refusal: ({ body }: JsonAnswer) => [body.error.code, body.error.data[0].reason],
    expected: [-32008, 'EXTENSION_SUPPORT_REQUIRED'],
    ok: ({ body }: JsonAnswer) => body.result.task.status.state,
  },
  {
    name: 'JSON-RPC 0.3',
    send: (headers: Record<string, string>) =>
      rpc(t, 'message/send', V03_SEND, { ...ID, path: '/agents/strict/', headers }),
    refusal: ({ body }: JsonAnswer) => [body.error.code, body.error.data.reason],
    expected: [-32008, 'EXTENSION_SUPPORT_REQUIRED'],
    ok: ({ body }: JsonAnswer) => body.result.status.state,
  },
  {
    name: 'gateway',
    send: (headers: Record<string, string>) =>
      rpc(t, 'message/send', V03_SEND, {
        ...ID,
        path: '/agents/a2a',
        envelope: { agent_code: 'strict' },
        headers,
      }),
    refusal: ({ body }: JsonAnswer) => [body.error.code, body.error.data.reason],
    expected: [-32008, 'EXTENSION_SUPPORT_REQUIRED'],
    ok: ({ body }: JsonAnswer) => body.result.status.state,
  },
];

describe.each(BINDINGS)('a required extension over $name', (binding) => {
  it('refuses a call that does not activate it, naming it', async () => {
    const answer = await binding.send({ 'A2A-Extensions': OPTIONAL });
    expect(binding.refusal(answer)).toEqual(binding.expected);
    expect(JSON.stringify(answer.body)).toContain(REQUIRED);
  });

  it('serves a call that activates it, and echoes what was activated in the header used', async () => {
    const v1 = await binding.send({ 'A2A-Extensions': `${REQUIRED}, ${OPTIONAL}, urn:unknown` });
    expect(binding.ok(v1)).toMatch(/completed/i);
    expect(v1.headers.get('A2A-Extensions')).toBe(`${REQUIRED},${OPTIONAL}`);
    const v03 = await binding.send({ 'X-A2A-Extensions': REQUIRED });
    expect(binding.ok(v03)).toMatch(/completed/i);
    expect(v03.headers.get('X-A2A-Extensions')).toBe(REQUIRED);
    expect(v03.headers.get('A2A-Extensions')).toBeNull();
  });
});

describe('a required extension on other operations', () => {
  it('guards every call to the agent but its public card', async () => {
    const get = await getJson(t, '/agents/strict/tasks/nope', V1_HEADERS);
    expect(get.body.error.details[0].reason).toBe('EXTENSION_SUPPORT_REQUIRED');
    const found = await getJson(t, '/agents/strict/tasks/nope', {
      ...V1_HEADERS,
      'A2A-Extensions': REQUIRED,
    });
    expect(found.status).toBe(404);
  });
});
