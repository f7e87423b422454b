/**
 * The admin API's runtime controls against a real server: the chaos setting, the virtual clock,
 * and the logs of faults and webhook deliveries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, VirtualClock } from '../../src/index.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { admin, getJson, postJson, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';
import {
  settle as settleDeliveries,
  startReceiver,
  until,
  watchDeliveries,
  type Receiver,
} from '../push/helpers.js';

const WEATHER = 'What is the weather today?';

describe('GET and PUT /_sim/chaos', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim({ keepAlive: 0 })));
  afterAll(() => t.close());

  /** Streams the weather over REST and returns the seqs the client got. */
  const streamSeqs = async (messageId: string) => {
    const reader = await t.drive(postSse(`${t.url}/message:stream`, v1Send(WEATHER, { messageId })));
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
      const sent = await postJson(
        t,
        '/message:send',
        v1Send(WEATHER, { messageId: 'clk-1' }, RETURN_IMMEDIATELY),
      );
      expect(sent.body.task.status.state).toBe('TASK_STATE_SUBMITTED');
      const start = t.clock.now();
      const { status, body } = await admin(t, 'POST', '/clock/advance', { ms: 5000 });
      expect(status).toBe(200);
      expect(body).toEqual({ now: new Date(start + 5000).toISOString() });
      expect(t.clock.now()).toBe(start + 5000);
      const task = await getJson(t, `/tasks/${sent.body.task.id}`);
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
      const answer = await postJson(sim, '/_sim/clock/advance', { ms: 1000 });
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
    t = await startSim({ keepAlive: 0 });
    const refused = await postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'f-1' }), {
      'X-Sim-Chaos': 'errors-kind=503',
    });
    expect(refused.status).toBe(503);
    const reader = await t.drive(
      postSse(`${t.url}/message:stream`, v1Send(WEATHER, { messageId: 'f-2' }), {
        'X-Sim-Chaos': 'drop-after-events=2',
      }),
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
      const answer = await postJson(
        t,
        '/message:send',
        v1Send(
          WEATHER,
          { messageId },
          { configuration: { returnImmediately: true, taskPushNotificationConfig: { url } } },
        ),
      );
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
