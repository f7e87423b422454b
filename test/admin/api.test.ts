/**
 * The admin API under /_sim against a real server: every endpoint, what it shows across scopes
 * (the root, a tenant, a defined agent, gateway workspaces), what it changes (reload, reset, chaos,
 * the clock), and who may use it (loopback only, or whoever holds --admin-token).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSimulator, VirtualClock } from '../../src/index.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import {
  settle as settleDeliveries,
  startReceiver,
  until,
  watchDeliveries,
  type Receiver,
} from '../push/helpers.js';
import { admin, gatewaySend, http, nonLoopbackAddress, restSend, tempDir, v1Message } from './helpers.js';

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
      scenarios: t.sim.service.scenarios.list().length,
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
    expect(reload.body.issues).toEqual([expect.stringMatching(/order\.yaml:\d+: syntax error/)]);
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
    await http(`${t.url}/message:send`, 'POST', v1Message(WEATHER, 'x'), {
      'X-Sim-Chaos': 'errors-kind=503',
    });
    expect(t.sim.faults.list()).toHaveLength(1);
    expect((await admin(t, 'POST', '/reset')).body).toEqual({ removed: 5 });
    expect(await remaining()).toEqual([]);
    expect((await admin(t, 'GET', '/requests')).body.requests).toEqual([]);
    expect((await admin(t, 'GET', '/faults')).body.faults).toEqual([]);
    expect((await http(`${t.url}/tasks/${tasks.root.id}`, 'GET')).status).toBe(404);
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

describe('GET and PUT /_sim/chaos', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ keepAliveMs: 0 })));
  afterAll(() => t.close());

  /** Streams the weather over REST and returns the seqs the client got. */
  const streamSeqs = async (messageId: string) => {
    const reader = await t.drive(postSse(`${t.url}/message:stream`, v1Message(WEATHER, messageId)));
    return (await t.drive(reader.rest())).map((e) => e.id);
  };

  it('starts with no chaos and lists the profiles', async () => {
    expect((await admin(t, 'GET', '/chaos')).body).toEqual({
      active: null,
      profiles: expect.arrayContaining(['flaky-mobile', 'duplicate-storm']),
    });
  });

  it('drop-after-events=1 makes the next stream drop after its first event; null clears it', async () => {
    expect(await streamSeqs('c-0')).toEqual(['1', '2', '3', '4']);
    const put = await admin(t, 'PUT', '/chaos', { chaos: 'drop-after-events=1' });
    expect(put).toMatchObject({ status: 200, body: { active: 'drop-after-events=1' } });
    expect((await admin(t, 'GET', '/chaos')).body.active).toBe('drop-after-events=1');
    expect(await streamSeqs('c-1')).toEqual(['1']);
    expect(t.sim.faults.list({ kind: 'drop' })).toMatchObject([{ profile: 'global', seq: 1 }]);

    expect((await admin(t, 'PUT', '/chaos', { chaos: null })).body.active).toBeNull();
    expect(await streamSeqs('c-2')).toEqual(['1', '2', '3', '4']);
  });

  it('takes a profile name', async () => {
    expect((await admin(t, 'PUT', '/chaos', { chaos: 'lossy-proxy' })).body.active).toBe('lossy-proxy');
    expect((await admin(t, 'PUT', '/chaos', { chaos: 'off' })).body.active).toBeNull();
  });

  it.each([
    ['an unknown key', { chaos: 'drop-after-events=1, wobble=3' }, 'wobble'],
    ['a bad value', { chaos: 'drop-after-events=banana' }, 'drop-after-events'],
    ['an unknown profile', { chaos: 'no-such-profile' }, 'no-such-profile'],
    ['a number', { chaos: 5 }, 'chaos'],
    ['no chaos member', {}, 'chaos'],
  ])('answers 400 INVALID_ARGUMENT for %s and keeps the setting', async (_what, body, named) => {
    await admin(t, 'PUT', '/chaos', { chaos: 'drop-after-events=2' });
    const answer = await admin(t, 'PUT', '/chaos', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining(named),
    });
    expect((await admin(t, 'GET', '/chaos')).body.active).toBe('drop-after-events=2');
    await admin(t, 'PUT', '/chaos', { chaos: null });
  });
});

describe('POST /_sim/clock/advance', () => {
  it('moves a VirtualClock, and the tasks with it', async () => {
    const t = await startSim();
    try {
      const sent = await http(`${t.url}/message:send`, 'POST', {
        ...v1Message(WEATHER, 'clk-1'),
        configuration: { returnImmediately: true },
      });
      expect(sent.body.task.status.state).toBe('TASK_STATE_SUBMITTED');
      const start = t.clock.now();
      const { status, body } = await admin(t, 'POST', '/clock/advance', { ms: 5000 });
      expect(status).toBe(200);
      expect(body).toEqual({ now: new Date(start + 5000).toISOString() });
      expect(t.clock.now()).toBe(start + 5000);
      const task = await http(`${t.url}/tasks/${sent.body.task.id}`, 'GET');
      expect(task.body.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await t.close();
    }
  });

  it.each([[{ ms: -1 }], [{ ms: 'soon' }], [{}], [undefined]])(
    'answers 400 INVALID_ARGUMENT for %j',
    async (body) => {
      const t = await startSim();
      try {
        const now = t.clock.now();
        const answer = await admin(t, 'POST', '/clock/advance', body);
        expect(answer.status).toBe(400);
        expect(answer.body.error.status).toBe('INVALID_ARGUMENT');
        expect(t.clock.now()).toBe(now);
      } finally {
        await t.close();
      }
    },
  );

  it('answers 400 UnsupportedOperation on real time (a simulator created without a clock)', async () => {
    const sim = await createSimulator({ port: 0, logLevel: 'silent' });
    try {
      expect(sim.clock).not.toBeInstanceOf(VirtualClock);
      const answer = await http(`${sim.url}/_sim/clock/advance`, 'POST', { ms: 1000 });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        status: 'FAILED_PRECONDITION',
        message: expect.stringContaining('real time'),
        details: [expect.objectContaining({ reason: 'UNSUPPORTED_OPERATION' })],
      });
    } finally {
      await sim.close();
    }
  });
});

describe('GET /_sim/faults', () => {
  let t: TestSim;
  let dropTask: string;
  beforeAll(async () => {
    t = await startSim({ keepAliveMs: 0 });
    const refused = await http(`${t.url}/message:send`, 'POST', v1Message(WEATHER, 'f-1'), {
      'X-Sim-Chaos': 'errors-kind=503',
    });
    expect(refused.status).toBe(503);
    const reader = await t.drive(
      postSse(`${t.url}/message:stream`, v1Message(WEATHER, 'f-2'), { 'X-Sim-Chaos': 'drop-after-events=2' }),
    );
    const events = await t.drive(reader.rest());
    dropTask = events[0]!.json.task.id;
  });
  afterAll(() => t.close());

  const faults = async (query = '') => (await admin(t, 'GET', `/faults${query}`)).body.faults as any[];

  it('lists every fault with the request it hit', async () => {
    expect(await faults()).toEqual([
      expect.objectContaining({
        n: 1,
        kind: 'error',
        profile: 'header',
        request: expect.objectContaining({ binding: 'REST', operation: 'POST /message:send' }),
      }),
      expect.objectContaining({ n: 2, kind: 'drop', taskId: dropTask, seq: 2 }),
    ]);
  });

  it.each([
    ['?kind=error', [1]],
    ['?kind=drop', [2]],
    ['?taskId=TASK', [2]],
    ['?after=1', [2]],
    ['?after=2', []],
    ['?taskId=other', []],
  ])('filters: %s', async (query, expected) => {
    expect((await faults(query.replace('TASK', dropTask))).map((f) => f.n)).toEqual(expected);
  });
});

describe('GET /_sim/deliveries', () => {
  let t: TestSim;
  let unwatch: () => void;
  let ok: Receiver;
  let failing: Receiver;
  let good: string;
  let bad: string;
  beforeAll(async () => {
    unwatch = watchDeliveries();
    ok = await startReceiver(() => 200);
    failing = await startReceiver(() => 500);
    t = await startSim({ push: { maxAttempts: 1 } });
    const send = async (url: string, messageId: string) => {
      const answer = await http(`${t.url}/message:send`, 'POST', {
        ...v1Message(WEATHER, messageId),
        configuration: { returnImmediately: true, taskPushNotificationConfig: { url } },
      });
      return answer.body.task.id as string;
    };
    good = await send(ok.url, 'd-1');
    bad = await send(failing.url, 'd-2');
    await settleDeliveries(
      t,
      until(
        t,
        () =>
          ok.requests.length === 4 && t.sim.deliveries.list({ taskId: bad, outcome: 'gave-up' }).length === 4,
      ),
    );
  });
  afterAll(async () => {
    await t.close();
    await ok.close();
    await failing.close();
    unwatch();
  });

  const deliveries = async (query = '') =>
    (await admin(t, 'GET', `/deliveries${query}`)).body.deliveries as any[];

  it('lists every attempt with its outcome', async () => {
    const all = await deliveries();
    expect(all.filter((d) => d.taskId === good).map((d) => [d.seq, d.outcome])).toEqual([
      [1, 'delivered'],
      [2, 'delivered'],
      [3, 'delivered'],
      [4, 'delivered'],
    ]);
    expect(all.filter((d) => d.taskId === bad).map((d) => d.outcome)).toEqual(
      expect.arrayContaining(['http-error', 'gave-up']),
    );
  });

  it('filters by task, config, outcome and after', async () => {
    const all = await deliveries();
    expect((await deliveries(`?taskId=${good}`)).map((d) => d.n)).toEqual(
      all.filter((d) => d.taskId === good).map((d) => d.n),
    );
    const configId = all.find((d) => d.taskId === bad)!.configId as string;
    expect(await deliveries(`?configId=${encodeURIComponent(configId)}`)).toEqual(
      all.filter((d) => d.configId === configId),
    );
    const gaveUp = await deliveries('?outcome=gave-up');
    expect(gaveUp.length).toBe(4);
    expect(gaveUp.every((d) => d.taskId === bad && d.status === undefined)).toBe(true);
    expect((await deliveries(`?outcome=http-error&taskId=${bad}`)).every((d) => d.status === 500)).toBe(true);
    const middle = all[Math.floor(all.length / 2)]!.n as number;
    expect((await deliveries(`?after=${middle}`)).map((d) => d.n)).toEqual(
      all.filter((d) => d.n > middle).map((d) => d.n),
    );
  });
});

describe('unknown routes', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim()));
  afterAll(() => t.close());

  it.each([
    ['GET', '/nope'],
    ['POST', '/tasks'],
    ['DELETE', '/chaos'],
  ])('%s /_sim%s answers 404 NOT_FOUND naming the route', async (method, path) => {
    const { status, body } = await admin(t, method, path);
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      status: 'NOT_FOUND',
      message: `Not found: ${method} /_sim${path}.`,
    });
  });

  it('a plain GET of the feed answers 426: it is a WebSocket', async () => {
    const { status, body } = await admin(t, 'GET', '/feed');
    expect(status).toBe(426);
    expect(body.error.message).toContain('WebSocket');
  });
});

describe('who may use the control plane', () => {
  describe('with --admin-token', () => {
    let t: TestSim;
    beforeAll(async () => (t = await startSim({ adminToken: 's3cret' })));
    afterAll(() => t.close());

    it('answers 401 UNAUTHENTICATED without a token, even on loopback', async () => {
      const { status, body } = await admin(t, 'GET', '/health');
      expect(status).toBe(401);
      expect(body.error).toMatchObject({ status: 'UNAUTHENTICATED' });
    });

    it.each([
      ['X-Admin-Token', { 'X-Admin-Token': 'wrong' }, ''],
      ['Authorization: Bearer', { Authorization: 'Bearer wrong' }, ''],
      ['?token=', {}, '?token=wrong'],
    ])('answers 403 PERMISSION_DENIED for a wrong token in %s', async (_how, headers, query) => {
      const { status, body } = await admin(t, 'GET', `/health${query}`, undefined, headers);
      expect(status).toBe(403);
      expect(body.error).toMatchObject({ status: 'PERMISSION_DENIED' });
    });

    it.each([
      ['X-Admin-Token', { 'X-Admin-Token': 's3cret' }, ''],
      ['Authorization: Bearer', { Authorization: 'Bearer s3cret' }, ''],
      ['?token=', {}, '?token=s3cret'],
    ])('answers 200 for the right token in %s', async (_how, headers, query) => {
      const { status, body } = await admin(t, 'GET', `/health${query}`, undefined, headers);
      expect(status).toBe(200);
      expect(body.status).toBe('ok');
    });

    it('guards every route, and leaves the agents alone', async () => {
      expect((await admin(t, 'POST', '/reset')).status).toBe(401);
      expect((await admin(t, 'GET', '/nope')).status).toBe(401);
      expect((await http(`${t.url}/.well-known/agent-card.json`, 'GET')).status).toBe(200);
    });
  });

  describe('without a token, bound to 0.0.0.0', () => {
    const address = nonLoopbackAddress();
    let t: TestSim;
    beforeAll(async () => (t = await startSim({ host: '0.0.0.0' })));
    afterAll(() => t.close());

    it('answers a loopback client', async () => {
      expect((await admin(t, 'GET', '/health')).status).toBe(200);
    });

    it.skipIf(!address)(
      `refuses a client on a non-loopback address of this machine with 403 (${address ?? 'skipped: this machine has no non-loopback IPv4 address'})`,
      async () => {
        const base = `http://${address}:${t.sim.port}`;
        const { status, body } = await http(`${base}/_sim/health`, 'GET');
        expect(status).toBe(403);
        expect(body.error).toMatchObject({
          status: 'PERMISSION_DENIED',
          message: expect.stringContaining('--admin-token'),
        });
        // The agent itself answers anyone.
        expect((await http(`${base}/.well-known/agent-card.json`, 'GET')).status).toBe(200);
      },
    );

    it.skipIf(!address)('with --admin-token, a non-loopback client with the token is let in', async () => {
      const other = await startSim({ host: '0.0.0.0', adminToken: 'far' });
      try {
        const base = `http://${address}:${other.sim.port}/_sim/health`;
        expect((await http(base, 'GET')).status).toBe(401);
        expect((await http(`${base}?token=far`, 'GET')).status).toBe(200);
      } finally {
        await other.close();
      }
    });
  });
});
