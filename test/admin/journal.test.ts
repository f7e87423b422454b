/**
 * The request journal (`GET /_sim/requests`): every request to an agent over each binding, as the
 * binding read it, with its task, workspace, status, body and the chaos faults applied; secrets
 * redacted; filters; the bound; DELETE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAULTS_KEPT } from '../../src/calls/exchange.js';
import { createLogger } from '../../src/lib/log.js';
import { startSim, startSimWith, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { admin, getJson, postJson, rpcEnvelope, v03Send, v1Send } from '../helpers/wire.js';

const WEATHER = 'What is the weather today?';

const requests = async (t: TestSim, query = '') => {
  const { status, body } = await admin(t, 'GET', `/requests${query}`);
  expect(status).toBe(200);
  return body.requests as any[];
};

describe('one request from each binding', () => {
  let t: TestSim;
  const taskIds: Record<string, string> = {};
  let startedAt: number;
  beforeAll(async () => {
    t = await startSim({ keepAlive: 0 });
    startedAt = t.clock.now();
    const rest = await t.drive(
      postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'j-rest' }), {
        Authorization: 'Bearer very-secret',
        'X-API-Key': 'key-secret',
      }),
    );
    taskIds['REST'] = rest.body.task.id;
    const v1 = await t.drive(
      postJson(t, '/', rpcEnvelope('SendMessage', v1Send(WEATHER, { messageId: 'j-v1' }), { id: 'rpc-1' }), {
        'A2A-Version': '1.0',
      }),
    );
    taskIds['JSON-RPC 1.0'] = v1.body.result.task.id;
    // Later on the clock, for `since`.
    t.clock.advance(60_000);
    const v03 = await t.drive(
      postJson(t, '/', rpcEnvelope('message/send', v03Send(WEATHER, { messageId: 'j-v03' }), { id: 7 })),
    );
    taskIds['JSON-RPC 0.3'] = v03.body.result.id;
    const gateway = await t.drive(
      postJson(
        t,
        t.sim.gatewayPath,
        rpcEnvelope('message/send', v03Send(WEATHER, { messageId: 'j-gw' }), {
          id: 'gw-1',
          agent_code: 'explore',
        }),
        { 'X-Workspace-ID': 'ws-9' },
      ),
    );
    taskIds['gateway'] = gateway.body.result.id;
  });
  afterAll(() => t.close());

  it.each([
    {
      binding: 'REST',
      path: '/message:send',
      operation: 'POST /message:send',
      messageId: 'j-rest',
    },
    { binding: 'JSON-RPC 1.0', path: '/', operation: 'SendMessage', id: 'rpc-1', messageId: 'j-v1' },
    { binding: 'JSON-RPC 0.3', path: '/', operation: 'message/send', id: 7, messageId: 'j-v03' },
    {
      binding: 'gateway',
      path: '/agents/a2a',
      operation: 'message/send',
      id: 'gw-1',
      messageId: 'j-gw',
      agent: 'explore',
      workspace: 'ws-9',
    },
  ])('$binding: binding, operation, id, task, place, status and body', async (expected) => {
    const [entry, ...others] = await requests(t, `?binding=${encodeURIComponent(expected.binding)}`);
    expect(others).toEqual([]);
    const { messageId, ...fields } = expected;
    expect(entry).toMatchObject({
      ...fields,
      method: 'POST',
      taskId: taskIds[expected.binding],
      status: 200,
      streamed: false,
      faults: [],
      durationMs: expect.any(Number),
      at: expect.any(String),
    });
    if (expected.id === undefined) expect(entry).not.toHaveProperty('id');
    if (expected.workspace === undefined) expect(entry).not.toHaveProperty('workspace');
    expect(
      JSON.parse(entry.body).params?.message?.messageId ?? JSON.parse(entry.body).message.messageId,
    ).toBe(messageId);
  });

  it('keeps the requests in arrival order, numbered, and never the admin calls', async () => {
    const all = await requests(t);
    expect(all.map((e) => e.binding)).toEqual(['REST', 'JSON-RPC 1.0', 'JSON-RPC 0.3', 'gateway']);
    expect(all.map((e) => e.n)).toEqual([1, 2, 3, 4]);
    expect(all.some((e) => e.path.startsWith('/_sim'))).toBe(false);
  });

  it('redacts secrets: Authorization and X-API-Key show that they were sent, not what they hold', async () => {
    const [entry] = await requests(t, '?binding=REST');
    expect(entry.headers).toMatchObject({
      authorization: '(redacted)',
      'x-api-key': '(redacted)',
      'content-type': 'application/json',
    });
    expect(JSON.stringify(await requests(t))).not.toMatch(/very-secret|key-secret/);
  });

  it.each([
    ['?binding=JSON-RPC%200.3', ['JSON-RPC 0.3']],
    ['?method=SendMessage', ['JSON-RPC 1.0']],
    ['?method=message%2Fsend', ['JSON-RPC 0.3', 'gateway']],
    ['?method=POST', ['REST', 'JSON-RPC 1.0', 'JSON-RPC 0.3', 'gateway']],
    ['?method=GET', []],
    ['?workspace=ws-9', ['gateway']],
    ['?after=2', ['JSON-RPC 0.3', 'gateway']],
    ['?binding=gateway&after=4', []],
  ])('filters: %s', async (query, expected) => {
    expect((await requests(t, query)).map((e) => e.binding)).toEqual(expected);
  });

  it('filters by task', async () => {
    for (const [binding, taskId] of Object.entries(taskIds)) {
      expect((await requests(t, `?taskId=${taskId}`)).map((e) => e.binding)).toEqual([binding]);
    }
  });

  it('filters by arrival time: since an ISO time or epoch milliseconds', async () => {
    const later = startedAt + 30_000;
    expect((await requests(t, `?since=${new Date(later).toISOString()}`)).map((e) => e.binding)).toEqual([
      'JSON-RPC 0.3',
      'gateway',
    ]);
    expect((await requests(t, `?since=${later}`)).length).toBe(2);
    expect((await requests(t, `?since=${startedAt}`)).length).toBe(4);
  });
});

describe('faults, errors and streams', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ keepAlive: 0 })));
  afterAll(() => t.close());

  it('links the chaos faults applied to a request (X-Sim-Chaos), with the status the client got', async () => {
    const answer = await postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'jf-1' }), {
      'X-Sim-Chaos': 'errors-kind=503',
    });
    expect(answer.status).toBe(503);
    const faults = (await admin(t, 'GET', '/faults')).body.faults as any[];
    expect(faults).toHaveLength(1);
    const [entry] = await requests(t, `?after=0`);
    expect(entry).toMatchObject({
      binding: 'REST',
      operation: 'POST /message:send',
      status: 503,
      faults: [faults[0].n],
      headers: { 'x-sim-chaos': 'errors-kind=503' },
    });
  });

  /** Reads a weather stream to its end under the chaos given, and answers its task's id. */
  async function streamUnderChaos(messageId: string, chaos: string): Promise<string> {
    const reader = await t.drive(
      postSse(`${t.url}/message:stream`, v1Send(WEATHER, { messageId }), { 'X-Sim-Chaos': chaos }),
    );
    const events = await t.drive(reader.rest());
    return events[0]!.json.task.id;
  }

  it('a stream: streamed, its task, and a drop applied mid-stream', async () => {
    const taskId = await streamUnderChaos('jf-2', 'drop-after-events=2');
    const drop = (await admin(t, 'GET', `/faults?kind=drop&taskId=${taskId}`)).body.faults[0];
    const [entry, ...others] = await requests(t, `?taskId=${taskId}`);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      operation: 'POST /message:stream',
      status: 200,
      streamed: true,
      faults: [drop.n],
    });
  });

  it('a stream hit by many faults lists each one, in the order chaos applied them', async () => {
    const taskId = await streamUnderChaos('jf-3', 'duplicate-probability=1');
    const applied = (await admin(t, 'GET', `/faults?taskId=${taskId}`)).body.faults as { n: number }[];
    expect(applied.length).toBeGreaterThan(2);
    const [entry] = await requests(t, `?taskId=${taskId}`);
    expect(entry!.faults).toEqual(applied.map((f) => f.n));
  });

  it('an error answer is recorded with its status and the task it named', async () => {
    const answer = await getJson(t, '/tasks/no-such-task');
    expect(answer.status).toBe(404);
    const [entry] = (await requests(t)).slice(-1);
    expect(entry).toMatchObject({ method: 'GET', path: '/tasks/no-such-task', status: 404 });
  });
});

describe('the bound and DELETE', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ journalSize: 5 })));
  afterAll(() => t.close());

  it('journalSize: 5 keeps the last 5 requests', async () => {
    for (let i = 1; i <= 7; i++) await getJson(t, `/tasks?pageSize=${i}`);
    const kept = await requests(t);
    expect(kept.map((e) => e.n)).toEqual([3, 4, 5, 6, 7]);
    expect(kept.map((e) => e.path)).toEqual([3, 4, 5, 6, 7].map((i) => `/tasks?pageSize=${i}`));
    // Well past the bound, still 5.
    for (let i = 0; i < 20; i++) await getJson(t, '/tasks');
    expect((await requests(t)).map((e) => e.n)).toEqual([23, 24, 25, 26, 27]);
  });

  it('DELETE /_sim/requests clears the journal (204); numbering goes on', async () => {
    const deleted = await admin(t, 'DELETE', '/requests');
    expect(deleted.status).toBe(204);
    expect(await requests(t)).toEqual([]);
    await getJson(t, '/tasks');
    expect((await requests(t)).map((e) => e.n)).toEqual([28]);
  });
});

describe('journalSize: 0', () => {
  it('keeps no request and copies no answer, while the request log and the metrics see every call', async () => {
    const lines: string[] = [];
    const t = await startSim({
      journalSize: 0,
      logLevel: 'info',
      logger: createLogger({ level: 'info', format: 'json', write: (line) => lines.push(line) }),
    });
    try {
      await t.drive(postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'j-none' })));
      const reader = await t.drive(postSse(`${t.url}/message:stream`, v1Send(WEATHER)));
      await t.drive(reader.rest());
      expect(await requests(t)).toEqual([]);
      expect((await admin(t, 'GET', '/health')).body.memory.journal.bytes).toBe(0);
      const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.request !== undefined);
      expect(logged.map((line) => line.operation)).toEqual(['POST /message:send', 'POST /message:stream']);
      const metrics = await (await fetch(`${t.url}/_sim/metrics`)).text();
      expect(metrics).toMatch(/a2a_sim_requests_total\{binding="REST",operation="send",status="200"\} 1/);
      expect(metrics).toMatch(/a2a_sim_requests_total\{binding="REST",operation="stream",status="200"\} 1/);
    } finally {
      await t.close();
    }
  });
});

describe("a call's faults", () => {
  // 150 chunks, each duplicated by the client's chaos: the stream is as long as the client likes.
  const chunks = Array.from({ length: 150 }, (_, i) => `        - 'chunk ${i} '`).join('\n');
  const LONG = `description: A long artifact.\nmatch:\n  - keywords: [long]\nsteps:\n  - status: working\n  - artifact:\n      every: 10ms\n      chunks:\n${chunks}\n  - status: completed\n`;

  it('keeps the first 100 numbers on the record and counts the rest, while /_sim/faults lists each', async () => {
    const t = await startSimWith({ 'long.yaml': LONG }, { keepAlive: 0 });
    try {
      const reader = await t.drive(
        postSse(`${t.url}/message:stream`, v1Send('a long one'), {
          'X-Sim-Chaos': 'duplicate-probability=1',
        }),
      );
      const taskId = (await t.drive(reader.rest()))[0]!.json.task.id;
      const applied = (await admin(t, 'GET', `/faults?taskId=${taskId}`)).body.faults as { n: number }[];
      expect(applied.length).toBeGreaterThan(MAX_FAULTS_KEPT + 50);
      const [entry] = await requests(t, `?taskId=${taskId}`);
      expect(entry!.faults).toEqual(applied.slice(0, MAX_FAULTS_KEPT).map((f) => f.n));
      expect(entry!.moreFaults).toBe(applied.length - MAX_FAULTS_KEPT);
      const har = (await admin(t, 'GET', `/requests.har?taskId=${taskId}`)).body;
      expect(har.log.entries[0].comment).toContain(`and ${applied.length - MAX_FAULTS_KEPT} more`);
    } finally {
      await t.close();
    }
  });
});
