/**
 * When webhooks misbehave: a receiver that fails is retried with backoff on the virtual clock, one
 * that never answers is given up on without touching the task or the other receivers, the SSRF
 * filter refuses private addresses, and delivery chaos is recorded and reproducible from the seed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getJson, postJson, RETURN_IMMEDIATELY, rpc, v1Send } from '../helpers/wire.js';
import {
  settleDeliveries,
  startReceiver,
  stateOf,
  until,
  watchDeliveries,
  type Answer,
  type Receiver,
} from './helpers.js';

let unwatch: () => void;
const cleanup: (() => Promise<void>)[] = [];
beforeAll(() => {
  unwatch = watchDeliveries();
});
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});
afterAll(() => unwatch());

async function sim(options: Parameters<typeof startSim>[0] = {}): Promise<TestSim> {
  const t = await startSim({ seed: 'push-retries', ...options });
  cleanup.push(() => t.close());
  return t;
}

async function receiver(answer?: (n: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer && ((_request, n) => answer(n)));
  cleanup.push(() => r.close());
  return r;
}

let counter = 0;
/** A REST message:send that answers at once, with a webhook on the task it creates. */
const weather = (url: string, text = 'What is the weather today?') =>
  v1Send(
    text,
    { messageId: `retry-${++counter}` },
    { configuration: { returnImmediately: true, taskPushNotificationConfig: { url } } },
  );

const deliveries = async (t: TestSim, query = '') =>
  (await getJson(t, `/_sim/deliveries${query}`)).body.deliveries as any[];

const completedAt = (r: Receiver) => () => r.requests.some((q) => stateOf(q.body) === 'TASK_STATE_COMPLETED');

describe('retries', () => {
  it('retries a receiver that answers 500 twice, backing off on the virtual clock, then delivers in order', async () => {
    const t = await sim();
    const hook = await receiver((n) => (n <= 2 ? 500 : 200));
    const task = (await postJson(t, '/message:send', weather(hook.url))).body.task;
    await until(t, completedAt(hook), 'the completed status');
    await settleDeliveries();

    expect(hook.seqs()).toEqual([1, 1, 1, 2, 3, 4]);
    const records = await deliveries(t, `?taskId=${task.id}`);
    const first = records.filter((d) => d.seq === 1);
    expect(first.map((d) => [d.attempt, d.outcome, d.status])).toEqual([
      [1, 'http-error', 500],
      [2, 'http-error', 500],
      [3, 'delivered', 200],
    ]);
    // Exponential backoff with ±25% jitter: ~500 ms, then ~1000 ms, in virtual time.
    const at = first.map((d) => Date.parse(d.at));
    const backoff = DEFAULTS.push.backoff;
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(backoff * 0.75);
    expect(at[1]! - at[0]!).toBeLessThanOrEqual(backoff * 1.25);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(backoff * 2 * 0.75);
    expect(at[2]! - at[1]!).toBeLessThanOrEqual(backoff * 2 * 1.25);
    // The later events waited behind the first one, then went out on their first attempt.
    expect(records.filter((d) => d.seq > 1).map((d) => [d.seq, d.attempt, d.outcome])).toEqual([
      [2, 1, 'delivered'],
      [3, 1, 'delivered'],
      [4, 1, 'delivered'],
    ]);
    expect(await deliveries(t, `?taskId=${task.id}&outcome=http-error`)).toHaveLength(2);
  });

  it('gives up on a receiver that never answers after maxAttempts timeouts; the task and the other receivers do not notice', async () => {
    const t = await sim();
    const silent = await receiver(() => 'hold');
    const healthy = await receiver();
    const task = (await postJson(t, '/message:send', weather(silent.url))).body.task;
    const other = await postJson(t, `/tasks/${task.id}/pushNotificationConfigs`, { url: healthy.url });
    expect(other.status).toBe(201);

    await until(
      t,
      () => t.sim.deliveries.list({ taskId: task.id, outcome: 'gave-up' }).length === 4,
      'every event given up on',
    );

    const records = t.sim.deliveries.list({ taskId: task.id }).filter((d) => d.url === silent.url);
    const first = records.filter((d) => d.seq === 1).map((d) => [d.attempt, d.outcome]);
    expect(first).toEqual([
      ...Array.from({ length: DEFAULTS.push.maxAttempts }, (_, i) => [i + 1, 'timeout']),
      [DEFAULTS.push.maxAttempts, 'gave-up'],
    ]);
    // Each attempt waited the whole timeout, on the virtual clock.
    const attempts = records
      .filter((d) => d.seq === 1 && d.outcome === 'timeout')
      .map((d) => Date.parse(d.at));
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(DEFAULTS.push.timeout);
    expect(silent.seqs()).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4]);

    // The task ran on its own time; the healthy receiver got every event after its config, at once.
    const got = (await getJson(t, `/tasks/${task.id}`)).body;
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    expect(healthy.seqs()).toEqual([2, 3, 4]);
    const healthyAt = t.sim.deliveries.list({ configId: other.body.id }).map((d) => d.at);
    expect(healthyAt.at(-1)).toBe(got.status.timestamp);
  });
});

describe('the SSRF filter (push.blockPrivate)', () => {
  let t: TestSim;
  let taskId: string;
  beforeAll(async () => {
    t = await startSim({ seed: 'push-ssrf', speed: 0, push: { blockPrivate: true } });
    const sent = await postJson(
      t,
      '/message:send',
      v1Send('What is the weather today?', { messageId: 'ssrf-1' }),
    );
    taskId = sent.body.task.id;
  });
  afterAll(() => t.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://10.0.0.7/hook',
  ])('refuses %s at create, on every binding', async (url) => {
    const rest = await postJson(t, `/tasks/${taskId}/pushNotificationConfigs`, { url });
    expect(rest.status).toBe(400);
    expect(rest.body.error.details[0].reason).toBe('INVALID_PARAMS');
    expect(rest.body.error.message).toMatch(/SSRF/);
    const v1 = (await rpc(t, 'CreateTaskPushNotificationConfig', { taskId, url })).body;
    expect(v1.error.code).toBe(-32602);
    const v03 = (
      await rpc(t, 'tasks/pushNotificationConfig/set', {
        taskId,
        pushNotificationConfig: { url },
      })
    ).body;
    expect(v03.error.code).toBe(-32602);
    expect((await rpc(t, 'ListTaskPushNotificationConfigs', { taskId })).body.result.configs).toEqual([]);
  });

  it('refuses an inline config before creating the task', async () => {
    const before = (await getJson(t, '/tasks')).body.totalSize;
    const sent = await postJson(t, '/message:send', weather('http://127.0.0.1:9/hook', 'weather, once more'));
    expect(sent.status).toBe(400);
    expect((await getJson(t, '/tasks')).body.totalSize).toBe(before);
  });

  it('accepts a public address', async () => {
    const created = await postJson(t, `/tasks/${taskId}/pushNotificationConfigs`, {
      url: 'https://hooks.example.com/a2a',
    });
    expect(created.status).toBe(201);
  });
});

describe('delivery chaos (X-Sim-Chaos delivery-*)', () => {
  /** A weather task whose webhook is made with `chaos`; runs it to the end. */
  async function chaoticRun(chaos: string, options: Parameters<typeof startSim>[0] = {}) {
    const t = await sim(options);
    const hook = await receiver();
    const task = (await postJson(t, '/message:send', weather(hook.url), { 'X-Sim-Chaos': chaos })).body.task;
    await until(
      t,
      () => t.sim.deliveries.list({ taskId: task.id }).some((d) => d.seq === 4 && d.outcome === 'delivered'),
      'the last event delivered',
    );
    await settleDeliveries();
    const records = (await deliveries(t, `?taskId=${task.id}`)).map(
      ({ n, seq, attempt, outcome, chaos, at }) => ({
        n,
        seq,
        attempt,
        outcome,
        ...(chaos && { chaos }),
        at,
      }),
    );
    return { t, hook, task, records };
  }

  it('delivery-fail-first=2: two failed attempts per event, recorded, then one delivery each', async () => {
    const { hook, records } = await chaoticRun('delivery-fail-first=2');
    expect(hook.seqs()).toEqual([1, 2, 3, 4]);
    for (const seq of [1, 2, 3, 4]) {
      expect(records.filter((d) => d.seq === seq).map((d) => [d.attempt, d.outcome, d.chaos])).toEqual([
        [1, 'chaos-fail', 'fail-first'],
        [2, 'chaos-fail', 'fail-first'],
        [3, 'delivered', undefined],
      ]);
    }
  });

  it('delivery-duplicate=1: every event is delivered twice, the copy recorded as such', async () => {
    const { hook, records } = await chaoticRun('delivery-duplicate=1');
    expect(hook.seqs()).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    expect(records.map((d) => [d.seq, d.outcome, d.chaos])).toEqual(
      [1, 2, 3, 4].flatMap((seq) => [
        [seq, 'delivered', undefined],
        [seq, 'delivered', 'duplicate'],
      ]),
    );
  });

  it('delivery-out-of-order=1: an event waiting behind another is held back once, and recorded', async () => {
    // speed 0: the whole turn happens at once, so events queue behind the first delivery.
    const { hook, records } = await chaoticRun('delivery-out-of-order=1', { speed: 0 });
    expect(hook.seqs()).toEqual([1, 3, 2, 4]);
    expect(records.map((d) => [d.seq, d.chaos])).toEqual([
      [1, undefined],
      [3, 'out-of-order'],
      [2, undefined],
      [4, undefined],
    ]);
  });

  it('is reproducible: the same seed and requests make the same deliveries, in the same order', async () => {
    const chaos =
      'delivery-fail-first=1, delivery-duplicate=0.5, delivery-out-of-order=0.5, delivery-delay=300ms';
    const a = await chaoticRun(chaos, { seed: 'push-repro' });
    const b = await chaoticRun(chaos, { seed: 'push-repro' });
    expect(b.task.id).toBe(a.task.id);
    expect(b.records).toEqual(a.records);
    expect(b.hook.seqs()).toEqual(a.hook.seqs());
    expect(a.records.some((d) => d.chaos === 'duplicate' || d.chaos === 'out-of-order')).toBe(true);
  });

  it('applies to a config created with the header, too', async () => {
    const t = await sim();
    const hook = await receiver();
    const task = (
      await postJson(
        t,
        '/message:send',
        v1Send('Please fail this task', { messageId: 'chaos-create' }, RETURN_IMMEDIATELY),
      )
    ).body.task;
    const created = await postJson(
      t,
      `/tasks/${task.id}/pushNotificationConfigs`,
      { url: hook.url },
      { 'X-Sim-Chaos': 'delivery-duplicate=1' },
    );
    expect(created.status).toBe(201);
    await until(t, () => hook.requests.some((r) => stateOf(r.body) === 'TASK_STATE_FAILED'), 'the failure');
    await settleDeliveries();
    expect(hook.seqs()).toEqual([2, 2, 3, 3]);
  });
});
