/**
 * The admin API under /_sim against a real server: health, the scenarios and their reload, the
 * tasks it shows across scopes (the root, a tenant, a defined agent, gateway workspaces), and reset.
 * The runtime controls are in controls.test.ts, who may use it in access.test.ts.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { admin, getJson, postJson, v1Send } from '../helpers/wire.js';
import { gatewaySend, restSend, tempDir } from './helpers.js';

const WEATHER = 'What is the weather today?';
const FLIGHT = 'Book me a flight';
const FAIL = 'Please fail this task';

/** A task scenario whose one artifact says `text`, chosen by `keyword`. */
const scenarioFile = (keyword: string, text: string) =>
  [
    `description: Says "${text}".`,
    'match:',
    `  - keywords: [${keyword}]`,
    'steps:',
    '  - status: working',
    '  - artifact:',
    '      name: Answer',
    '      parts:',
    `        - text: ${JSON.stringify(text)}`,
    '  - status: completed',
    '',
  ].join('\n');
const artifactText = (task: any) => task.artifacts?.[0]?.parts?.[0]?.text as string | undefined;

describe('GET /_sim/health', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim()));
  afterAll(() => t.close());

  it('answers ok with the version and what is loaded and stored', async () => {
    await restSend(t, '', WEATHER, 'h-1');
    const { status, body } = await admin(t, 'GET', '/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      scenarios: t.sim.scenarios().length,
      agents: 1,
      tasks: 1,
    });
  });
});

describe('GET /_sim/scenarios and POST /_sim/scenarios/reload', () => {
  let t: TestSim;
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('reload');
    await writeFile(join(dir, 'order.yaml'), scenarioFile('parcel', 'Order v1'));
    // Overrides a built-in: a broken edit must keep this one, not fall back to the built-in.
    await writeFile(join(dir, 'weather.yaml'), scenarioFile('weather', 'Local weather v1'));
    t = await startSim({ scenarioDirs: [dir] });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ids = async () =>
    ((await admin(t, 'GET', '/scenarios')).body.scenarios as { id: string }[]).map((s) => s.id);

  it('lists the scenarios in matching order with their rules, the agents, the chaos profiles and no issues', async () => {
    const { status, body } = await admin(t, 'GET', '/scenarios');
    expect(status).toBe(200);
    expect(body.scenarios.slice(0, 2)).toEqual([
      expect.objectContaining({
        id: 'order',
        file: expect.stringContaining('order.yaml'),
        description: 'Says "Order v1".',
        match: ['keywords parcel'],
        kind: 'task',
      }),
      expect.objectContaining({ id: 'weather', file: expect.stringContaining(dir.split('/').pop()!) }),
    ]);
    expect(body.scenarios.map((s: any) => s.id)).toEqual(
      expect.arrayContaining(['flight-booking', 'failure', 'greeting', 'fallback']),
    );
    expect(body.agents).toEqual([expect.objectContaining({ id: 'explore', code: 'explore' })]);
    expect(body.chaosProfiles).toEqual(expect.arrayContaining(['flaky-mobile', 'lossy-proxy']));
    expect(body.issues).toEqual([]);
  });

  it('serves an added scenario and an edited one after a reload', async () => {
    expect(artifactText(await restSend(t, '', 'Where is my parcel?', 'r-1'))).toBe('Order v1');
    await writeFile(join(dir, 'refund.yaml'), scenarioFile('refund', 'Refund granted'));
    await writeFile(join(dir, 'order.yaml'), scenarioFile('parcel', 'Order v2'));

    const reload = await admin(t, 'POST', '/scenarios/reload');
    expect(reload).toMatchObject({ status: 200, body: { issues: [] } });
    expect(await ids()).toContain('refund');
    expect(artifactText(await restSend(t, '', 'I want a refund', 'r-2'))).toBe('Refund granted');
    expect(artifactText(await restSend(t, '', 'Where is my parcel?', 'r-3'))).toBe('Order v2');
    // The defined agent plays every scenario ('*'): it got the new one too.
    expect(artifactText(await restSend(t, '/agents/explore', 'I want a refund', 'r-4'))).toBe(
      'Refund granted',
    );
  });

  it('keeps the previous version of a file that broke, and reports the issue', async () => {
    await writeFile(join(dir, 'order.yaml'), 'description: Order v3\nsteps: [oops\n');
    const reload = await admin(t, 'POST', '/scenarios/reload');
    expect(reload.status).toBe(200);
    expect(reload.body.issues).toEqual([expect.stringMatching(/order\.yaml:\d+:\d+: syntax error/)]);
    expect(artifactText(await restSend(t, '', 'Where is my parcel?', 'r-5'))).toBe('Order v2');
    expect((await admin(t, 'GET', '/scenarios')).body.issues).toEqual(reload.body.issues);
    // Still first in the matching order, where its file puts it.
    expect((await ids()).slice(0, 3)).toEqual(['order', 'refund', 'weather']);
  });

  it('keeps the previous version of a broken file that overrides a built-in, not the built-in', async () => {
    await writeFile(join(dir, 'weather.yaml'), 'steps:\n  - status: sunny\n');
    const reload = await admin(t, 'POST', '/scenarios/reload');
    expect(reload.body.issues).toEqual(
      expect.arrayContaining([expect.stringMatching(/weather\.yaml.*steps\[0\]/)]),
    );
    expect(artifactText(await restSend(t, '', WEATHER, 'r-6'))).toBe('Local weather v1');
  });

  it('serves the fixed file and clears the issues once it loads again', async () => {
    await writeFile(join(dir, 'order.yaml'), scenarioFile('parcel', 'Order v4'));
    await writeFile(join(dir, 'weather.yaml'), scenarioFile('weather', 'Local weather v2'));
    expect((await admin(t, 'POST', '/scenarios/reload')).body).toEqual({ issues: [] });
    expect(artifactText(await restSend(t, '', 'Where is my parcel?', 'r-7'))).toBe('Order v4');
    expect(artifactText(await restSend(t, '', WEATHER, 'r-8'))).toBe('Local weather v2');
    expect((await admin(t, 'GET', '/scenarios')).body.issues).toEqual([]);
  });
});

/** One task in each scope: the root, tenant `acme`, agent `explore`, gateway workspaces ws-1 and ws-2. */
async function tasksInEveryScope(t: TestSim) {
  return {
    root: await restSend(t, '', WEATHER, 'scope-root'),
    tenant: await restSend(t, '/acme', WEATHER, 'scope-tenant'),
    agent: await restSend(t, '/agents/explore', FLIGHT, 'scope-agent'),
    ws1: await gatewaySend(t, 'ws-1', FAIL, 'scope-ws1'),
    ws2: await gatewaySend(t, 'ws-2', WEATHER, 'scope-ws2'),
  };
}

describe('GET /_sim/tasks and /_sim/tasks/{id}', () => {
  let t: TestSim;
  let tasks: Awaited<ReturnType<typeof tasksInEveryScope>>;
  beforeAll(async () => {
    t = await startSim();
    tasks = await tasksInEveryScope(t);
  });
  afterAll(() => t.close());

  const list = async (query = '') => {
    const { status, body } = await admin(t, 'GET', `/tasks${query}`);
    expect(status).toBe(200);
    return body.tasks as any[];
  };

  it('lists every task of every scope, newest first, with its place, scenario, state and event count', async () => {
    expect(await list()).toEqual([
      {
        id: tasks.ws2.id,
        contextId: tasks.ws2.contextId,
        state: 'completed',
        updatedAt: expect.any(String),
        scenario: 'weather',
        agent: 'explore',
        workspace: 'ws-2',
        events: 4,
      },
      expect.objectContaining({
        id: tasks.ws1.id,
        state: 'failed',
        scenario: 'failure',
        agent: 'explore',
        workspace: 'ws-1',
      }),
      expect.objectContaining({
        id: tasks.agent.id,
        state: 'input-required',
        scenario: 'flight-booking',
        agent: 'explore',
      }),
      expect.objectContaining({ id: tasks.tenant.id, state: 'completed', tenant: 'acme' }),
      expect.objectContaining({ id: tasks.root.id, state: 'completed', scenario: 'weather' }),
    ]);
    const [, , agentRow, tenantRow, rootRow] = await list();
    expect(agentRow).not.toHaveProperty('workspace');
    expect(tenantRow).not.toHaveProperty('agent');
    expect(Object.keys(rootRow).sort()).toEqual(
      ['contextId', 'events', 'id', 'scenario', 'state', 'updatedAt'].sort(),
    );
  });

  it.each([
    ['?agent=explore', ['ws2', 'ws1', 'agent']],
    ['?workspace=ws-1', ['ws1']],
    ['?scenario=weather', ['ws2', 'tenant', 'root']],
    ['?state=input-required', ['agent']],
    ['?state=completed&agent=explore', ['ws2']],
    ['?limit=2', ['ws2', 'ws1']],
    ['?agent=nobody', []],
  ] as const)('filters: %s', async (query, expected) => {
    expect((await list(query)).map((r) => r.id)).toEqual(expected.map((k) => tasks[k].id));
  });

  it('shows one task in any scope with its task, its whole event log, push configs, faults and deliveries', async () => {
    const { status, body } = await admin(t, 'GET', `/tasks/${tasks.ws1.id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: tasks.ws1.id,
      state: 'failed',
      agent: 'explore',
      workspace: 'ws-1',
      task: { id: tasks.ws1.id, contextId: tasks.ws1.contextId, status: { state: 'failed' } },
      oldestSeq: 1,
      pushConfigs: [],
      faults: [],
      deliveries: [],
    });
    expect(body.events.map((e: any) => e.seq)).toEqual(
      Array.from({ length: body.latestSeq }, (_, i) => i + 1),
    );
    expect(body.events[0].event.kind).toBe('task');
    expect(body.events.at(-1).event).toMatchObject({ kind: 'status', status: { state: 'failed' } });
  });

  it('answers 404 TASK_NOT_FOUND for an unknown task', async () => {
    const { status, body } = await admin(t, 'GET', '/tasks/no-such-task');
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      status: 'NOT_FOUND',
      message: expect.stringContaining('no-such-task'),
    });
  });
});

describe('POST /_sim/reset', () => {
  let t: TestSim;
  let tasks: Awaited<ReturnType<typeof tasksInEveryScope>>;
  beforeEach(async () => {
    t = await startSim();
    tasks = await tasksInEveryScope(t);
  });
  afterEach(() => t.close());

  const remaining = async () =>
    ((await admin(t, 'GET', '/tasks')).body.tasks as any[]).map((r) => r.id).sort();
  const idsOf = (...keys: (keyof typeof tasks)[]) => keys.map((k) => tasks[k].id).sort();

  it('with no body removes every task and clears the journal, faults and deliveries', async () => {
    await postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'x' }), {
      'X-Sim-Chaos': 'errors-kind=503',
    });
    expect(t.sim.faults.list()).toHaveLength(1);
    expect((await admin(t, 'POST', '/reset')).body).toEqual({ removed: 5 });
    expect(await remaining()).toEqual([]);
    expect((await admin(t, 'GET', '/requests')).body.requests).toEqual([]);
    expect((await admin(t, 'GET', '/faults')).body.faults).toEqual([]);
    expect((await getJson(t, `/tasks/${tasks.root.id}`)).status).toBe(404);
  });

  it.each([
    [{ scenario: 'weather' }, 3, ['agent', 'ws1']],
    [{ agent: 'explore' }, 3, ['root', 'tenant']],
    [{ workspace: 'ws-2' }, 1, ['root', 'tenant', 'agent', 'ws1']],
    [{ agent: 'explore', scenario: 'failure' }, 1, ['root', 'tenant', 'agent', 'ws2']],
  ] as const)('%j removes only those tasks and keeps the journal', async (body, removed, kept) => {
    const journal = (await admin(t, 'GET', '/requests')).body.requests.length;
    expect((await admin(t, 'POST', '/reset', body)).body).toEqual({ removed });
    expect(await remaining()).toEqual(idsOf(...kept));
    expect((await admin(t, 'GET', '/requests')).body.requests).toHaveLength(journal);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { status, body } = await admin(t, 'POST', '/reset', '{nope');
    expect(status).toBe(400);
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(await remaining()).toHaveLength(5);
  });
});
