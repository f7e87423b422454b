/**
 * Large messages cannot exhaust the heap: the store counts what tasks hold in bytes, makes room by
 * evicting ended tasks, and refuses new work with a clear error once only tasks in progress remain
 * (which it never drops), on every binding. The request journal keeps a bounded slice of each body.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rpcEnvelope, v1Send } from '../helpers/wire.js';

const MiB = 1024 * 1024;

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ speed: 0, retention: { maxStoreBytes: 8 * MiB, scopeShare: 1 } });
});
afterAll(() => t.close());

/** A message of about `mib` MiB for the scenario named. */
const big = (scenario: string, mib: number, id: string) =>
  v1Send('x'.repeat(mib * MiB), { messageId: id, metadata: { scenario } });

describe('the byte budget of the task store', () => {
  it('keeps accepting large messages whose tasks end, evicting the oldest ended ones', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await t.drive(
        request(t.url)
          .post('/message:send')
          .set('Content-Type', 'application/json')
          .send(big('weather', 1, `done-${i}`)),
      );
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(t.sim.store.bytes).toBeLessThanOrEqual(8 * MiB);
    }
    expect(t.sim.store.size).toBeLessThan(20);
  });

  it('refuses new work once tasks in progress fill it, and drops none of them', async () => {
    const waiting: string[] = [];
    let refused: request.Response | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await t.drive(
        request(t.url)
          .post('/message:send')
          .set('Content-Type', 'application/json')
          .send(big('auth-required', 1, `wait-${i}`)),
      );
      if (res.status === 200) waiting.push(res.body.task.id);
      else refused = res;
    }
    expect(waiting.length).toBeGreaterThanOrEqual(6);
    expect(refused?.status).toBe(429);
    expect(refused?.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(refused?.body.error.message).toMatch(/--max-store-bytes/);
    expect(refused?.body.error.details[0]).toMatchObject({ reason: 'STORE_FULL' });
    // A 429 says when to come back: tasks end as their scenarios play, and their room is freed.
    expect(refused?.headers['retry-after']).toBe('1');
    expect(refused?.body.error.details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '1s',
    });
    for (const id of waiting) {
      const task = await request(t.url).get(`/tasks/${id}?historyLength=0`);
      expect(task.body.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    }

    // JSON-RPC says the same in its own shape; a small message still fits.
    const rpc = await request(t.url)
      .post('/')
      .send(rpcEnvelope('SendMessage', big('auth-required', 1, 'rpc-1'), { id: 7 }));
    expect(rpc.body.error).toMatchObject({ code: -32000 });
    expect(rpc.body.error.message).toMatch(/--max-store-bytes/);
    expect(rpc.headers['retry-after']).toBe('1');
    expect(rpc.body.error.data).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '1s',
    });
    const small = await t.drive(
      request(t.url)
        .post('/message:send')
        .set('Content-Type', 'application/json')
        .send(v1Send('What is the weather today?', { messageId: 's-1' })),
    );
    expect(small.status).toBe(200);

    // Resetting frees the room.
    await request(t.url).post('/_sim/reset').set('Content-Type', 'application/json').send({});
    expect(t.sim.store.bytes).toBe(0);
  });

  it('keeps a bounded, detached slice of each body in the journal', async () => {
    const res = await t.drive(
      request(t.url)
        .post('/message:send')
        .set('Content-Type', 'application/json')
        .send(big('weather', 1, 'journal-1')),
    );
    expect(res.status).toBe(200);
    const { body } = await request(t.url).get('/_sim/requests?method=POST');
    const entry = body.requests.findLast((e: { path: string }) => e.path === '/message:send');
    expect(entry.body.length).toBeLessThan(17 * 1024);
    expect(entry.body).toMatch(/more characters\)$/);
  });

  it("counts a context id the client named in the task's bytes", async () => {
    const before = (await request(t.url).get('/_sim/health')).body.memory.store.bytes;
    const contextId = 'c'.repeat(MiB);
    const res = await t.drive(
      request(t.url)
        .post('/message:send')
        .set('Content-Type', 'application/json')
        .send(v1Send('What is the weather today?', { messageId: 'long-context', contextId })),
    );
    expect(res.body.task.contextId).toBe(contextId);
    const after = (await request(t.url).get('/_sim/health')).body.memory.store.bytes;
    expect(after - before).toBeGreaterThan(MiB);
  });

  it('keeps a task id the client named clipped on the call, however long (the answer names it whole)', async () => {
    const id = 'x'.repeat(MiB);
    const res = await t.drive(
      request(t.url)
        .post('/')
        .set('Content-Type', 'application/json')
        .set('A2A-Version', '1.0')
        .send(rpcEnvelope('GetTask', { id })),
    );
    expect(res.body.error.code).toBe(-32001);
    const { body } = await request(t.url).get('/_sim/requests?method=GetTask');
    const entry = body.requests.at(-1);
    expect(entry.taskId).toBe(`${id.slice(0, 128)}… (${MiB - 128} more characters)`);
  });
});
