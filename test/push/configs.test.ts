/**
 * Push notification config CRUD on every binding that has it (protocol digest §2, §5): create, get,
 * list with paging, idempotent delete, unknown configs as TaskNotFoundError, and scoping by tenant
 * and agent. The configs here sit on completed tasks, so nothing is delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rpc, v03Send } from '../helpers/wire.js';
import {
  completedTask,
  failure,
  HOOK,
  jsonRpcV03,
  jsonRpcV1,
  rest,
  useSim,
  v03Path,
  type Input,
} from './config-drivers.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ seed: 'push-configs', speed: 0 });
  useSim(t);
});
afterAll(() => t.close());

describe.each([rest, jsonRpcV1, jsonRpcV03])('$name', (crud) => {
  let taskId: string;
  beforeAll(async () => {
    taskId = await completedTask();
  });

  it('creates a config with a server id, and gets it back as it was given', async () => {
    const input = { url: HOOK, token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 'secret' } };
    const created = await crud.create(taskId, input);
    expect(created).toEqual({ id: expect.any(String), taskId, ...input });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await crud.get(taskId, created.id)).toEqual(created);
    await crud.delete(taskId, created.id);
  });

  it('keeps a client id, and replaces the config with the same id', async () => {
    const first = await crud.create(taskId, { id: 'mine', url: HOOK });
    expect(first).toEqual({ id: 'mine', taskId, url: HOOK });
    await crud.create(taskId, { id: 'mine', url: `${HOOK}/v2` });
    expect(await crud.get(taskId, 'mine')).toMatchObject({ url: `${HOOK}/v2` });
    expect((await crud.list(taskId)).map((c) => c.id)).toEqual(['mine']);
    await crud.delete(taskId, 'mine');
  });

  it('lists in creation order, page by page, and deletes idempotently', async () => {
    const task = await completedTask();
    for (const id of ['c1', 'c2', 'c3']) await crud.create(task, { id, url: `${HOOK}/${id}` });
    const all = await crud.list(task);
    expect(all.map((c) => [c.id, c.url])).toEqual([
      ['c1', `${HOOK}/c1`],
      ['c2', `${HOOK}/c2`],
      ['c3', `${HOOK}/c3`],
    ]);
    if (crud.pages) {
      expect(all.next).toBe('');
      const first = await crud.list(task, { pageSize: 2 });
      expect(first.map((c) => c.id)).toEqual(['c1', 'c2']);
      expect(first.next).not.toBe('');
      const second = await crud.list(task, { pageSize: 2, pageToken: first.next! });
      expect(second.map((c) => c.id)).toEqual(['c3']);
      expect(second.next).toBe('');
      expect(await failure(crud.list(task, { pageToken: 'bogus' }))).toBe('InvalidParamsError');
      expect(await failure(crud.list(task, { pageSize: -1 }))).toBe('InvalidParamsError');
    }
    await crud.delete(task, 'c2');
    await crud.delete(task, 'c2');
    expect(await failure(crud.get(task, 'c2'))).toBe('TaskNotFoundError');
    expect((await crud.list(task)).map((c) => c.id)).toEqual(['c1', 'c3']);
  });

  it('answers an unknown config or task with TaskNotFoundError', async () => {
    expect(await failure(crud.get(taskId, 'no-such-config'))).toBe('TaskNotFoundError');
    expect(await failure(crud.get('no-such-task', 'c1'))).toBe('TaskNotFoundError');
    expect(await failure(crud.list('no-such-task'))).toBe('TaskNotFoundError');
    expect(await failure(crud.create('no-such-task', { url: HOOK }))).toBe('TaskNotFoundError');
    expect(await failure(crud.delete('no-such-task', 'c1'))).toBe('TaskNotFoundError');
  });

  it.each([
    ['no url', { token: 't' }],
    ['a URL that is not http(s)', { url: 'ftp://example.com/hook' }],
    ['a relative URL', { url: '/hook' }],
    ['authentication without a scheme', { url: HOOK, authentication: { credentials: 'x' } }],
  ])('refuses %s with InvalidParamsError', async (_name, input) => {
    expect(await failure(crud.create(taskId, input as Input))).toBe('InvalidParamsError');
  });

  it('refuses an eleventh config on a task', async () => {
    const task = await completedTask();
    for (let i = 0; i < 10; i++) await crud.create(task, { url: `${HOOK}/${i}` });
    expect(await failure(crud.create(task, { url: HOOK }))).toBe('InvalidParamsError');
  });

  it('does not show a config from another scope', async () => {
    // REST and JSON-RPC 1.0: tenants; v0.3 (no tenants): the defined agent `explore`'s own endpoint.
    const scope = crud === jsonRpcV03 ? 'explore' : 'acme';
    const other = crud === jsonRpcV03 ? undefined : 'globex';
    const task =
      crud === jsonRpcV03
        ? (
            await rpc(
              t,
              'message/send',
              v03Send('What is the weather today?', { messageId: 'cfg-scoped' }),
              v03Path(scope),
            )
          ).body.result.id
        : await completedTask(scope);
    const created = await crud.create(task, { id: 'scoped', url: HOOK }, scope);
    expect(await crud.get(task, created.id, scope)).toEqual(created);
    expect(await failure(crud.get(task, created.id, other))).toBe('TaskNotFoundError');
    expect(await failure(crud.list(task, {}, other))).toBe('TaskNotFoundError');
    expect(await failure(crud.delete(task, created.id, other))).toBe('TaskNotFoundError');
    expect(await failure(crud.create(task, { url: HOOK }, other))).toBe('TaskNotFoundError');
    expect((await crud.list(task, {}, scope)).map((c) => c.id)).toEqual(['scoped']);
  });
});
