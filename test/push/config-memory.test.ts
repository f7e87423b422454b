/**
 * A webhook config is the client's to make large (a URL, a token, as long as a request body): the
 * store counts each config in its byte budget as it counts a message, and refuses one that does not
 * fit; a delivery record, which outlives its task, keeps a bounded copy of the URL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { admin, postJson, v1Send } from '../helpers/wire.js';
import { completedTask, HOOK, rest, useSim } from './config-drivers.js';
import { startReceiver, until, type Receiver } from './helpers.js';

let t: TestSim | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await t?.close();
  receiver = t = undefined;
});

const storeBytes = async (sim: TestSim): Promise<number> =>
  (await admin(sim, 'GET', '/health')).body.memory.store.bytes;

describe('a push config in the store', () => {
  it("counts in the store's bytes, what a replacement changes, and gives them back when deleted", async () => {
    t = await startSim({ seed: 'config-memory', speed: 0 });
    useSim(t);
    const taskId = await completedTask();
    const before = await storeBytes(t);
    const long = `${HOOK}/${'x'.repeat(1_000_000)}`;
    await rest.create(taskId, { id: 'big', url: long, token: 't'.repeat(100_000) });
    const held = (await storeBytes(t)) - before;
    expect(held).toBeGreaterThanOrEqual(1_100_000);
    expect(held).toBeLessThan(1_101_000);
    await rest.create(taskId, { id: 'big', url: HOOK });
    expect((await storeBytes(t)) - before).toBeLessThan(1_000);
    await rest.delete(taskId, 'big');
    expect(await storeBytes(t)).toBe(before);
  });

  it('is refused, 429 STORE_FULL, when it does not fit the budget; the task and its other configs stay', async () => {
    t = await startSim({ seed: 'config-memory', speed: 0, retention: { maxStoreBytes: 64 * 1024 } });
    useSim(t);
    const taskId = await completedTask();
    await rest.create(taskId, { id: 'small', url: HOOK });
    const res = await postJson(t, `/tasks/${taskId}/pushNotificationConfigs`, {
      url: `${HOOK}/${'x'.repeat(100_000)}`,
    });
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ status: 'RESOURCE_EXHAUSTED' });
    expect(JSON.stringify(res.body.error.details)).toContain('STORE_FULL');
    expect(res.body.error.message).toMatch(
      /^Failed to accept the push notification config: .*--max-store-bytes/,
    );
    expect((await rest.list(taskId)).map((c) => c.id)).toEqual(['small']);
  });
  it('refuses a message whose webhook has no room before its task exists: no task left behind', async () => {
    t = await startSim({ seed: 'config-memory', speed: 0, retention: { maxStoreBytes: 64 * 1024 } });
    const before = (await admin(t, 'GET', '/health')).body.tasks;
    const res = await postJson(
      t,
      '/message:send',
      v1Send(
        'What is the weather today?',
        { messageId: 'inline-big' },
        {
          configuration: { taskPushNotificationConfig: { url: `${HOOK}/${'x'.repeat(100_000)}` } },
        },
      ),
    );
    expect(res.status).toBe(429);
    expect(res.body.error.message).toMatch(/^Failed to accept the message: /);
    expect((await admin(t, 'GET', '/health')).body.tasks).toBe(before);
    expect(t.sim.store.size).toBe(before);
  });
});

describe('a delivery record', () => {
  it("keeps the first 1,024 characters of the config's URL, and says how many more there were", async () => {
    t = await startSim({ seed: 'config-memory' });
    receiver = await startReceiver();
    const url = `${receiver.url}/${'x'.repeat(5_000)}`;
    const sent = await t.drive(
      postJson(
        t,
        '/message:send',
        v1Send(
          'What is the weather today?',
          { messageId: 'long-hook' },
          {
            configuration: { returnImmediately: true, taskPushNotificationConfig: { url } },
          },
        ),
      ),
    );
    const taskId = sent.body.task.id;
    await until(t, () => receiver!.requests.length > 0, 'a delivery');
    expect(receiver.requests[0]!.path).toBe(new URL(url).pathname);
    const [record] = (await admin(t, 'GET', `/deliveries?taskId=${taskId}`)).body.deliveries;
    expect(record.url).toBe(`${url.slice(0, 1024)}… (${url.length - 1024} more characters)`);
  });
});
