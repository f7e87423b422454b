/**
 * GetTask with `currentGeneration` (v1.1 draft §3.2.7) with `--preview generation`, over HTTP on a
 * real server and a virtual clock: held until the task's generation passes it, or the timeout;
 * bounded per task; let go when the client leaves or the simulator closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LONG_POLL_LIMITS } from '../../src/calls/generation.js';
import { flushIo, settledYet, startSim, type TestSim } from '../helpers/sim.js';
import { rawGrpcClient } from '../helpers/grpc.js';
import { getJson, postJson, rpc, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';
import { REPORT_TEXT, settle } from '../chaos/helpers.js';

let t: TestSim;
let closed = false;
afterEach(async () => {
  if (!closed) await t.close();
  closed = false;
});

const start = () => startSim({ preview: ['generation'], keepAlive: 0 });

/** A task paused at input-required: nothing more happens to it until a follow-up. */
async function pausedTask(): Promise<{ id: string; generation: number }> {
  const sent = await t.drive(postJson(t, '/message:send', v1Send('Book me a flight')));
  return { id: sent.body.task.id, generation: sent.body.task.generation };
}

describe('GetTask with currentGeneration', () => {
  it('answers at once when the task is already past it', async () => {
    t = await start();
    const { id, generation } = await pausedTask();
    const before = t.clock.now();
    const got = await getJson(t, `/tasks/${id}?currentGeneration=${generation - 1}`);
    expect(got.body.generation).toBe(generation);
    expect(t.clock.now()).toBe(before);
  });

  it('is held until the generation advances, then answers with the task as it is then', async () => {
    t = await start();
    const sent = await postJson(t, '/message:send', v1Send(REPORT_TEXT, {}, RETURN_IMMEDIATELY));
    const { id, generation } = sent.body.task;
    const poll = getJson(t, `/tasks/${id}?currentGeneration=${generation}`);
    const done = settledYet(poll);
    await flushIo(50);
    expect(done()).toBe(false);
    const before = t.clock.now();
    const got = await settle(t, poll);
    // Events due at the same instant are all logged before the answer is made.
    expect(got.body.generation).toBeGreaterThan(generation);
    expect(t.clock.now() - before).toBeLessThan(LONG_POLL_LIMITS.timeoutMs);
  });

  it('holds over JSON-RPC alike', async () => {
    t = await start();
    const sent = await postJson(t, '/message:send', v1Send(REPORT_TEXT, {}, RETURN_IMMEDIATELY));
    const { id, generation } = sent.body.task;
    const poll = rpc(t, 'GetTask', { id, currentGeneration: generation }, { version: '1.0' });
    const got = await settle(t, poll);
    expect(got.body.result.generation).toBeGreaterThan(generation);
  });

  it('answers with the task unchanged once the timeout (30 s of clock time) passes', async () => {
    t = await start();
    const { id, generation } = await pausedTask();
    const before = t.clock.now();
    const got = await settle(t, getJson(t, `/tasks/${id}?currentGeneration=${generation}`));
    expect(got.status).toBe(200);
    expect(got.body.generation).toBe(generation);
    expect(t.clock.now() - before).toBe(LONG_POLL_LIMITS.timeoutMs);
  });

  it(`holds at most ${LONG_POLL_LIMITS.maxPerTask} calls per task; past them, answers at once`, async () => {
    t = await start();
    const { id, generation } = await pausedTask();
    const controllers = Array.from({ length: LONG_POLL_LIMITS.maxPerTask }, () => new AbortController());
    const held = controllers.map((c) =>
      fetch(`${t.url}/tasks/${id}?currentGeneration=${generation}`, { signal: c.signal }).catch(() => 'left'),
    );
    await flushIo(100);
    const over = await getJson(t, `/tasks/${id}?currentGeneration=${generation}`);
    expect(over.body.generation).toBe(generation);

    // Clients that leave free their places: the next call is held again.
    for (const c of controllers) c.abort();
    await Promise.all(held);
    await flushIo(100);
    const again = getJson(t, `/tasks/${id}?currentGeneration=${generation}`);
    const done = settledYet(again);
    await flushIo(50);
    expect(done()).toBe(false);
    const got = await settle(t, again);
    expect(got.body.generation).toBe(generation);
  });

  it('frees the places of gRPC calls their clients cancelled', async () => {
    t = await startSim({ preview: ['generation'], keepAlive: 0, grpcPort: 0 });
    const { id, generation } = await pausedTask();
    const client = rawGrpcClient(t.sim.grpcUrl!);
    const getTask = () =>
      new Promise<{ code?: number; generation?: string }>((resolve) => {
        const call = client.GetTask(
          { id, currentGeneration: generation },
          (error: { code: number } | null, task: { generation: string }) =>
            resolve(error ? { code: error.code } : { generation: task.generation }),
        );
        calls.push(call);
      });
    const calls: { cancel(): void }[] = [];
    const held = Array.from({ length: LONG_POLL_LIMITS.maxPerTask }, getTask);
    await flushIo(100);
    // Past the cap, at once.
    expect(Number((await getTask()).generation)).toBe(generation);
    for (const call of calls) call.cancel();
    expect((await Promise.all(held)).every((answer) => answer.code === 1)).toBe(true);
    await flushIo(100);
    const again = getTask();
    const done = settledYet(again);
    await flushIo(50);
    expect(done()).toBe(false);
    expect(Number((await settle(t, again)).generation)).toBe(generation);
  });

  it('lets every held call go when the simulator closes', async () => {
    t = await start();
    const { id, generation } = await pausedTask();
    const held = fetch(`${t.url}/tasks/${id}?currentGeneration=${generation}`).then(
      (r) => r.status,
      () => 'closed',
    );
    await flushIo(50);
    const before = t.clock.now();
    closed = true;
    await t.close();
    await held;
    expect(t.clock.now()).toBe(before);
  });

  it('rejects a currentGeneration that is not an integer', async () => {
    t = await start();
    const { id } = await pausedTask();
    const got = await getJson(t, `/tasks/${id}?currentGeneration=soon`);
    expect(got.status).toBe(400);
  });
});
