/**
 * Names of Object.prototype members (`__proto__`, `constructor`, `toString`, ...) wherever a client
 * names something: chaos keys, methods, enum values, tenants, agents, workspaces, API keys,
 * scenario ids, page tokens, query parameters. Each lookup is an own-key lookup, so each gets the
 * protocol error any unknown name gets, or the normal answer, never a 500 or a silent acceptance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderText, type RenderScope } from '../../src/engine/content.js';
import { Random } from '../../src/lib/random.js';
import { parseTemplate } from '../../src/scenario/template.js';
import { startSimWith, type TestSim } from '../helpers/sim.js';
import { admin, callJson, JSON_HEADERS, rpc, v03Send, v1Send, type HeaderMap } from '../helpers/wire.js';
import { watchFeed, FeedRefused } from '../admin/helpers.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const MORE = [...NAMES, 'toLocaleString', '__defineGetter__', 'isPrototypeOf'];
const API_KEY = 'key-1';

let t: TestSim;
beforeAll(async () => {
  t = await startSimWith(
    {
      'guarded.agent.yaml':
        'name: Guarded\ndescription: Needs an API key.\nscenarios: [weather]\nsecurity:\n  apiKey: { header: X-API-Key }\n',
    },
    { speed: 0, apiKeys: { [API_KEY]: ['ws-1'] } },
  );
});
afterAll(() => t.close());

/** GET `path`, or POST `body` to it, on the running clock. */
const rest = (path: string, headers: HeaderMap = {}, body?: unknown) =>
  t.drive(
    callJson(t, body === undefined ? 'GET' : 'POST', path, {
      body,
      headers: { ...JSON_HEADERS, ...headers },
    }),
  );
const callRpc = (method: string, params: unknown, headers: HeaderMap = {}, envelope = {}, path = '/') =>
  t.drive(rpc(t, method, params, { path, headers: { ...JSON_HEADERS, ...headers }, envelope }));
const gateway = (method: string, params: unknown, headers: HeaderMap, selector: Record<string, unknown>) =>
  callRpc(
    method,
    params,
    { 'X-API-Key': API_KEY, 'X-Workspace-ID': 'ws-1', ...headers },
    selector,
    t.sim.gatewayPath,
  );

/** The weather question as a v1.0 SendMessageRequest, with `extra` and `metadata` on its message. */
const weather = (extra: Record<string, unknown> = {}, metadata?: object) =>
  v1Send('What is the weather today?', { ...extra, ...(metadata && { metadata }) });

function expectRest(answer: { status: number; body: any }, status: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error).toMatchObject({ code: status, message: expect.any(String) });
}
function expectRpc(answer: { status: number; body: any }, code: number) {
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code } });
}

describe('chaos settings', () => {
  it.each(MORE.flatMap((name) => [`${name}=1`, name]))(
    'refuses X-Sim-Chaos: %s as InvalidParams',
    async (chaos) => {
      expectRest(await rest('/tasks', { 'X-Sim-Chaos': chaos }), 400);
      expectRpc(await callRpc('ListTasks', {}, { 'X-Sim-Chaos': chaos }), -32602);
    },
  );

  it.each(MORE.map((name) => `${name}=1`))('refuses metadata.chaos "%s" on every binding', async (chaos) => {
    expectRest(await rest('/message:send', {}, weather({}, { chaos })), 400);
    expectRpc(await callRpc('SendMessage', weather({}, { chaos })), -32602);
  });

  it.each(NAMES)('refuses PUT /_sim/chaos with %s as a pair key and as a profile name', async (name) => {
    for (const chaos of [`${name}=1`, name]) {
      expect((await admin(t, 'PUT', '/chaos', { chaos })).status).toBe(400);
    }
    expect((await admin(t, 'GET', '/chaos')).body.active).toBeNull();
  });
});

describe('names a client picks from a closed set', () => {
  it.each(NAMES)('answers the JSON-RPC method "%s" with -32601 in every dialect', async (method) => {
    expectRpc(await callRpc(method, {}), -32601);
    expectRpc(await callRpc(method, {}, { 'A2A-Version': '1.0' }), -32601);
    expectRpc(await callRpc(method, {}, { 'A2A-Version': '0.3' }), -32601);
    expectRpc(await gateway(method, {}, {}, { agent_code: 'explore' }), -32601);
  });

  it.each(NAMES)('refuses the task state "%s" as a ListTasks filter', async (state) => {
    expectRest(await rest(`/tasks?status=${state}`), 400);
    expectRpc(await callRpc('ListTasks', { status: state }), -32602);
  });

  it.each(NAMES)('refuses the role "%s" in v1.0 and v0.3', async (role) => {
    expectRest(await rest('/message:send', {}, weather({ role })), 400);
    expectRpc(await callRpc('message/send', v03Send('hi', { messageId: 'm', role })), -32602);
  });

  it.each(NAMES)('refuses the A2A-Version "%s"', async (version) => {
    expectRest(await rest('/tasks', { 'A2A-Version': version }), 400);
    expectRpc(await callRpc('GetTask', { id: 'x' }, { 'A2A-Version': version }), -32009);
  });

  it.each(NAMES)('refuses the scenario id "%s" in metadata.scenario', async (scenario) => {
    const answer = await rest('/message:send', {}, weather({}, { scenario }));
    expectRest(answer, 400);
    expect(answer.body.error.message).toContain('message.metadata.scenario');
  });

  it.each(NAMES)('refuses the page token "%s"', async (token) => {
    expectRest(await rest(`/tasks?pageToken=${token}`), 400);
    expectRpc(await callRpc('ListTasks', { pageToken: token }), -32602);
  });

  it.each(NAMES)('refuses the feed event type "%s"', async (type) => {
    await expect(watchFeed(t, `?types=${type}`)).rejects.toBeInstanceOf(FeedRefused);
  });
});

describe('names of places', () => {
  it.each(NAMES)('answers /agents/%s/ with 404 AGENT_NOT_FOUND', async (agent) => {
    const answer = await rest(`/agents/${agent}/tasks`);
    expectRest(answer, 404);
    expect(answer.body.error.details[0].reason).toBe('AGENT_NOT_FOUND');
  });

  it.each(NAMES)('answers the gateway selector "%s" with 404 AGENT_NOT_FOUND', async (name) => {
    for (const selector of [{ agent_code: name }, { agent_id: name }]) {
      const answer = await gateway('tasks/get', { id: 'x' }, {}, selector);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({ code: -32000, data: { reason: 'AGENT_NOT_FOUND' } });
    }
  });

  it.each(NAMES)('serves the tenant "%s" as a tenant like any other, with its own tasks', async (tenant) => {
    const created = await rest(`/${tenant}/message:send`, {}, weather());
    expect(created.status).toBe(200);
    const id = created.body.task.id;
    expect((await rest(`/${tenant}/tasks/${id}`)).status).toBe(200);
    expectRest(await rest(`/tasks/${id}`), 404);
    expectRpc(await callRpc('GetTask', { id, tenant: 'other' }), -32001);
    expect((await callRpc('GetTask', { id, tenant })).body.result.id).toBe(id);
  });

  it.each(NAMES)('refuses the workspace "%s" that the API key does not allow', async (workspace) => {
    const answer = await gateway(
      'tasks/get',
      { id: 'x' },
      { 'X-Workspace-ID': workspace },
      { agent_code: 'explore' },
    );
    expect(answer.status).toBe(403);
  });

  it.each(NAMES)('refuses the API key "%s" at the gateway and at a guarded agent', async (key) => {
    expect(
      (await gateway('tasks/get', { id: 'x' }, { 'X-API-Key': key }, { agent_code: 'explore' })).status,
    ).toBe(401);
    expectRest(await rest('/agents/guarded/tasks', { 'X-API-Key': key }), 401);
    expect((await rest('/agents/guarded/tasks', { 'X-API-Key': API_KEY })).status).toBe(200);
  });
});

describe('names of query parameters and admin filters', () => {
  it('ignores unknown query parameters named after prototype members', async () => {
    const query = MORE.map((name) => `${name}=1`).join('&');
    const answer = await rest(`/tasks?${query}&pageSize=1`);
    expect(answer.status).toBe(200);
    expect(answer.body.pageSize).toBe(1);
  });

  it.each(NAMES)('answers /_sim/tasks/%s with 404 and filters by it as by any value', async (name) => {
    expect((await admin(t, 'GET', `/tasks/${name}`)).status).toBe(404);
    const { status, body } = await admin(t, 'GET', `/tasks?state=${name}&scenario=${name}&${name}=1`);
    expect(status).toBe(200);
    expect(body.tasks).toEqual([]);
  });
});

describe('template var paths', () => {
  const scope: RenderScope = {
    inputText: '',
    inputMessageId: 'm',
    taskId: 't',
    contextId: 'c',
    nowMs: 0,
    random: new Random('seed'),
    vars: { route: { from: 'Paris' } },
  };

  it.each(NAMES.filter((name) => name !== '__proto__'))(
    'renders {{vars.route.%s}} as a missing value, not a member of Object.prototype',
    (name) => {
      expect(renderText(parseTemplate(`{{vars.route.${name}}}`), scope)).toBe('undefined');
      expect(renderText(parseTemplate('{{vars.route.from}}'), scope)).toBe('Paris');
    },
  );
});
