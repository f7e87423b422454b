/**
 * Defined agents against a real server: each under `/agents/{id}/` with its own card, its own
 * scenarios and its own tasks, the declared security enforced, and the default agent at the root
 * unchanged.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentCard } from '@a2a-js/sdk';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIssue, type SimulatorOptions } from '../../src/index.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rpcEnvelope, v1Send } from '../helpers/wire.js';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

const AGENT_FILES: Record<string, string> = {
  'forecast.agent.yaml': [
    'code: weather-desk',
    'name: Forecast',
    'description: Only answers weather questions.',
    'version: 2.1.0',
    'scenarios: [weather]',
    'skills:',
    '  - { id: forecast, name: Forecast, description: "Tomorrow, today, any day.", tags: [weather] }',
    'workspaces: [ws-1]',
  ].join('\n'),
  'vault.agent.yaml': [
    'name: Vault',
    'description: Needs a key.',
    'scenarios: [weather, greeting]',
    'security:',
    '  apiKey: { header: X-API-Key }',
    '  http: { scheme: bearer, bearerFormat: JWT }',
  ].join('\n'),
  'broken.agent.yaml': ['name: Broken', 'description: x', 'scenarios: [weather, nope]'].join('\n'),
  'a2a.agent.yaml': ['name: Gateway?', 'description: x', "scenarios: '*'"].join('\n'),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-sim-agents-'));
  for (const [name, text] of Object.entries(AGENT_FILES)) await writeFile(path.join(dir, name), `${text}\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A simulator with the agents above besides the built-in `explore`, playing without delays. */
async function start(options: SimulatorOptions = {}) {
  const warnings: string[] = [];
  const logger = { error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} };
  const t = await startSim({ speed: 0, scenarioDirs: [dir], logger, ...options });
  return Object.assign(t, { warnings });
}

/** A SendMessageRequest whose messageId is `m-<text>`. */
const message = (text: string, extra: Record<string, unknown> = {}) =>
  v1Send(text, { messageId: `m-${text}`, ...extra });

/** `POST {base}/message:send`; the created task's id. */
async function createTask(t: TestSim, base: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request(t.url)
    .post(`${base}/message:send`)
    .set({ 'Content-Type': 'application/json', ...headers })
    .send(message('What is the weather today?'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.task.id;
}

function expectRestError(res: request.Response, status: number, reason: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code: status });
  expect(res.body.error.details).toContainEqual(expect.objectContaining({ '@type': ERROR_INFO, reason }));
}

describe('loading', () => {
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t.close());

  it('lists the defined agents, user directories first, with their code and URL', () => {
    expect(t.sim.agents.map((a) => [a.id, a.code, a.url])).toEqual([
      ['forecast', 'weather-desk', `${t.url}/agents/forecast`],
      ['vault', 'vault', `${t.url}/agents/vault`],
      ['explore', 'explore', `${t.url}/agents/explore`],
    ]);
    expect(t.sim.findAgent('explore')).toMatchObject({ id: 'explore', code: 'explore' });
  });

  it('finds an agent by id or by code, and its service plays only its scenarios', () => {
    expect(t.sim.findAgent('weather-desk')).toBe(t.sim.findAgent('forecast'));
    expect(t.sim.findAgent('nobody')).toBeUndefined();
    const forecast = t.sim.findAgent('forecast')!;
    expect(forecast.definition.workspaces).toEqual(['ws-1']);
    expect(forecast.scenarios().map((s) => s.id)).toEqual(['weather']);
    expect(
      t.sim
        .findAgent('explore')!
        .scenarios()
        .map((s) => s.id),
    ).toEqual(t.sim.scenarios().map((s) => s.id));
  });

  it('skips a broken agent file and the reserved id "a2a" with a warning, and serves the others', () => {
    const problems = t.sim.issues.map(formatIssue);
    expect(problems).toEqual([
      `${path.join(dir, 'a2a.agent.yaml')}: "a2a" is reserved (/agents/a2a is the gateway endpoint): rename the file`,
      expect.stringMatching(/broken\.agent\.yaml:3:\d+ scenarios\[1\]: no scenario "nope" is loaded/),
    ]);
    expect(t.warnings).toEqual(problems.map((p) => `agent skipped: ${p}`));
  });
});

describe('routes', () => {
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t.close());

  it("serves each agent's v1.0 card with its own name, version, skills and /agents/{id} URLs", async () => {
    const res = await request(t.url)
      .get('/agents/forecast/.well-known/agent-card.json')
      .set('A2A-Version', '1.0');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Forecast',
      description: 'Only answers weather questions.',
      version: '2.1.0',
      supportedInterfaces: [
        { url: `${t.url}/agents/forecast`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${t.url}/agents/forecast`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      skills: [{ id: 'forecast', name: 'Forecast', tags: ['weather'] }],
    });
    expect(res.body.securitySchemes).toBeUndefined();
  });

  it('serves the v0.3 card to a header-less request, with the same URLs', async () => {
    const res = await request(t.url).get('/agents/explore/.well-known/agent-card.json');
    expect(res.body).toMatchObject({
      protocolVersion: '0.3.0',
      name: 'Explore',
      url: `${t.url}/agents/explore`,
    });
    expect(res.body.supportedInterfaces[0].url).toBe(`${t.url}/agents/explore`);
  });

  it('gives an agent without a skills override the skills of its scenarios', async () => {
    const explore = await request(t.url)
      .get('/agents/explore/.well-known/agent-card.json')
      .set('A2A-Version', '1.0');
    const root = await request(t.url).get('/.well-known/agent-card.json').set('A2A-Version', '1.0');
    expect(explore.body.skills).toEqual(root.body.skills);
    const vault = await request(t.url)
      .get('/agents/vault/.well-known/agent-card.json')
      .set('A2A-Version', '1.0');
    // In load order, as matching tries them, whatever the order of the agent's list.
    expect(vault.body.skills.map((s: { id: string }) => s.id)).toEqual(['greeting', 'weather']);
  });

  it("leaves the root card as it was: the default agent's name and the root URL", async () => {
    const res = await request(t.url).get('/.well-known/agent-card.json').set('A2A-Version', '1.0');
    expect(res.body.name).toBe('A2A Simulator');
    expect(res.body.supportedInterfaces[0].url).toBe(t.url);
  });

  it('serves the extended card under the agent path', async () => {
    const res = await request(t.url).get('/agents/forecast/extendedAgentCard').set('A2A-Version', '1.0');
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Forecast');
    expect(res.body.supportedInterfaces[0].url).toBe(`${t.url}/agents/forecast`);
  });

  it('answers JSON-RPC at POST /agents/{id} and /agents/{id}/', async () => {
    for (const url of ['/agents/forecast', '/agents/forecast/']) {
      const res = await request(t.url)
        .post(url)
        .set('Content-Type', 'application/json')
        .send(rpcEnvelope('SendMessage', message('What is the weather today?'), { id: 7 }));
      expect(res.body.id).toBe(7);
      expect(res.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
  });

  it("plays only the agent's scenarios", async () => {
    const res = await request(t.url)
      .post('/agents/forecast/message:send')
      .set('Content-Type', 'application/json')
      .send(message('Hello', { metadata: { scenario: 'greeting' } }));
    expectRestError(res, 400, 'INVALID_PARAMS');
    expect(res.body.error.message).toContain('no scenario "greeting" is loaded; loaded: weather');
  });

  it('answers an unknown agent with 404 in the REST error shape, naming the known agents', async () => {
    const res = await request(t.url).post('/agents/nobody/message:send').send(message('hi'));
    expectRestError(res, 404, 'AGENT_NOT_FOUND');
    expect(res.body.error).toMatchObject({ status: 'NOT_FOUND' });
    expect(res.body.error.message).toContain('Known agents: forecast, vault, explore');
  });

  it('keeps /agents/a2a free for the gateway: no agent is served there', async () => {
    const res = await request(t.url).get('/agents/a2a/.well-known/agent-card.json');
    expectRestError(res, 404, 'AGENT_NOT_FOUND');
  });

  it('answers an unknown path under an agent with a 404 pointing at that agent’s routes', async () => {
    const res = await request(t.url).get('/agents/explore/nothing-here');
    expectRestError(res, 404, 'METHOD_NOT_FOUND');
    expect(res.body.error.message).toContain('POST /agents/explore/message:send');
  });

  it('advertises --public-url with the agent path appended', async () => {
    const proxied = await start({ publicUrl: 'https://sim.example.com/a2a/' });
    try {
      const res = await request(proxied.url)
        .get('/agents/explore/.well-known/agent-card.json')
        .set('A2A-Version', '1.0');
      expect(res.body.supportedInterfaces[0].url).toBe('https://sim.example.com/a2a/agents/explore');
    } finally {
      await proxied.close();
    }
  });
});

describe('isolation', () => {
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t.close());

  it('hides a task created at the root from /agents/explore, and the other way round', async () => {
    const atRoot = await createTask(t, '');
    const atExplore = await createTask(t, '/agents/explore');
    expectRestError(await request(t.url).get(`/agents/explore/tasks/${atRoot}`), 404, 'TASK_NOT_FOUND');
    expectRestError(await request(t.url).get(`/tasks/${atExplore}`), 404, 'TASK_NOT_FOUND');
    expect((await request(t.url).get(`/tasks/${atRoot}`)).status).toBe(200);
    expect((await request(t.url).get(`/agents/explore/tasks/${atExplore}`)).status).toBe(200);
  });

  it("hides one agent's tasks from another, over JSON-RPC too", async () => {
    const atForecast = await createTask(t, '/agents/forecast');
    const res = await request(t.url)
      .post('/agents/explore/')
      .set('Content-Type', 'application/json')
      .send(rpcEnvelope('GetTask', { id: atForecast }));
    expect(res.body.error.code).toBe(-32001);
  });

  it('gives an agent the same task ids whatever the root was asked before', async () => {
    const [alone, afterRoot] = [await start(), await start()];
    try {
      await createTask(afterRoot, '');
      expect(await createTask(afterRoot, '/agents/explore')).toBe(await createTask(alone, '/agents/explore'));
    } finally {
      await Promise.all([alone.close(), afterRoot.close()]);
    }
  });

  it("lists only the agent's own tasks", async () => {
    const isolated = await start();
    try {
      const root = await createTask(isolated, '');
      const explore = await createTask(isolated, '/agents/explore');
      const forecast = await createTask(isolated, '/agents/forecast');
      const ids = async (base: string) =>
        (await request(isolated.url).get(`${base}/tasks`)).body.tasks.map((task: { id: string }) => task.id);
      expect(await ids('')).toEqual([root]);
      expect(await ids('/agents/explore')).toEqual([explore]);
      expect(await ids('/agents/forecast')).toEqual([forecast]);
    } finally {
      await isolated.close();
    }
  });

  it('scopes tenants within an agent: /agents/explore/{tenant}/… is neither the root tenant nor the agent', async () => {
    const task = await createTask(t, '/agents/explore/acme');
    expect((await request(t.url).get(`/agents/explore/acme/tasks/${task}`)).status).toBe(200);
    expectRestError(await request(t.url).get(`/acme/tasks/${task}`), 404, 'TASK_NOT_FOUND');
    expectRestError(await request(t.url).get(`/agents/explore/tasks/${task}`), 404, 'TASK_NOT_FOUND');
  });
});

describe('declared security', () => {
  const rpcCall = rpcEnvelope('GetTask', { id: 'some-task' }, { id: 'req-9' });

  describe('without configured API keys', () => {
    let t: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      t = await start();
    });
    afterAll(() => t.close());

    it('declares the schemes on both card shapes, and the SDK reads the v1.0 one', async () => {
      const v1 = await request(t.url)
        .get('/agents/vault/.well-known/agent-card.json')
        .set('A2A-Version', '1.0');
      expect(v1.body).toMatchObject({
        securitySchemes: {
          apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
          bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
        },
        securityRequirements: [{ schemes: { apiKey: { list: [] } } }, { schemes: { bearer: { list: [] } } }],
      });
      const card = AgentCard.fromJSON(v1.body);
      expect(card.securitySchemes['apiKey']?.scheme).toEqual({
        $case: 'apiKeySecurityScheme',
        value: expect.objectContaining({ location: 'header', name: 'X-API-Key' }),
      });
      expect(Object.keys(card.securityRequirements[0]!.schemes)).toEqual(['apiKey']);

      const v03 = await request(t.url).get('/agents/vault/.well-known/agent-card.json');
      expect(v03.body).toMatchObject({
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
        security: [{ apiKey: [] }, { bearer: [] }],
      });
    });

    it('refuses a REST call without a credential: 401, UNAUTHENTICATED, WWW-Authenticate', async () => {
      const res = await request(t.url).get('/agents/vault/tasks');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        'ApiKey realm="vault", header="X-API-Key", Bearer realm="vault"',
      );
      expect(res.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
      expect(res.body.error.message).toMatch(/^Failed to authenticate: agent "vault" requires an API key/);
      expect(res.body.error.details).toEqual([
        expect.objectContaining({ '@type': ERROR_INFO, reason: 'UNAUTHENTICATED' }),
      ]);
    });

    it('refuses a JSON-RPC call without a credential: HTTP 401, code -32000, its id echoed', async () => {
      const res = await request(t.url)
        .post('/agents/vault/')
        .set('Content-Type', 'application/json')
        .send(rpcCall);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('ApiKey');
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'req-9', error: { code: -32000 } });
      expect(res.body.error.data).toEqual([expect.objectContaining({ reason: 'UNAUTHENTICATED' })]);
    });

    it('accepts any key or bearer token when no keys are configured; the card stays public', async () => {
      await createTask(t, '/agents/vault', { 'X-API-Key': 'anything' });
      await createTask(t, '/agents/vault', { Authorization: 'Bearer whatever' });
      expect((await request(t.url).get('/agents/vault/.well-known/agent-card.json')).status).toBe(200);
    });

    it('checks nothing on agents that declare no security, nor at the root', async () => {
      await createTask(t, '/agents/explore');
      await createTask(t, '');
    });
  });

  describe('with configured API keys', () => {
    let t: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      t = await start({ apiKeys: { 'key-any': ['*'], 'key-ws1': ['ws-1'] } });
    });
    afterAll(() => t.close());

    it('refuses a key that is not configured, over REST and JSON-RPC', async () => {
      const rest = await request(t.url).get('/agents/vault/tasks').set('X-API-Key', 'guess');
      expectRestError(rest, 401, 'UNAUTHENTICATED');
      expect(rest.body.error.message).toContain('is not a configured API key');
      const rpc = await request(t.url)
        .post('/agents/vault')
        .set({ 'Content-Type': 'application/json', Authorization: 'Bearer guess' })
        .send(rpcCall);
      expect(rpc.status).toBe(401);
      expect(rpc.body.error.code).toBe(-32000);
    });

    it('accepts a configured key in the header or as a bearer token', async () => {
      const task = await createTask(t, '/agents/vault', { 'X-API-Key': 'key-any' });
      const res = await request(t.url)
        .get(`/agents/vault/tasks/${task}`)
        .set('Authorization', 'Bearer key-ws1');
      expect(res.status).toBe(200);
    });

    it('still lets anyone call agents without declared security', async () => {
      await createTask(t, '/agents/explore');
    });
  });
});
