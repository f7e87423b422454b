/**
 * Push notification config CRUD on every binding that has it (protocol digest §2, §5): create, get,
 * list with paging, idempotent delete, unknown configs as TaskNotFoundError, and scoping by tenant,
 * agent and gateway workspace. The configs here sit on completed tasks, so nothing is delivered.
 */
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV03Client } from '../bindings/drivers.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { call, rpc } from './helpers.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ seed: 'push-configs', speed: 0 });
});
afterAll(() => t.close());

const HOOK = 'http://127.0.0.1:9/hook';

let counter = 0;
/** A completed task, created by a v1.0 REST send (under `tenant`, if given). */
async function completedTask(tenant?: string): Promise<string> {
  const res = await call(t, 'POST', `${tenant ? `/${tenant}` : ''}/message:send`, {
    message: {
      messageId: `cfg-${++counter}`,
      role: 'ROLE_USER',
      parts: [{ text: 'What is the weather today?' }],
    },
  });
  expect(res.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  return res.body.task.id;
}

class CrudError extends Error {
  constructor(readonly type: string) {
    super(type);
  }
}

const BY_CODE: Record<number, string> = {
  [-32001]: 'TaskNotFoundError',
  [-32003]: 'PushNotificationNotSupportedError',
  [-32602]: 'InvalidParamsError',
};
const BY_REASON: Record<string, string> = {
  TASK_NOT_FOUND: 'TaskNotFoundError',
  PUSH_NOTIFICATION_NOT_SUPPORTED: 'PushNotificationNotSupportedError',
  INVALID_PARAMS: 'InvalidParamsError',
};

/** A config as every binding's driver returns it, whatever its wire shape. */
interface Config {
  id: string;
  taskId: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

interface Input {
  id?: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

interface Crud {
  name: string;
  /** Whether list pages (v0.3 answers the whole list at once). */
  pages: boolean;
  create(taskId: string, input: Input, tenant?: string): Promise<Config>;
  get(taskId: string, id: string, tenant?: string): Promise<Config>;
  list(
    taskId: string,
    page?: { pageSize?: number; pageToken?: string },
    tenant?: string,
  ): Promise<Config[] & { next?: string }>;
  delete(taskId: string, id: string, tenant?: string): Promise<void>;
}

const rest: Crud = {
  name: 'REST',
  pages: true,
  async create(taskId, input, tenant) {
    const res = await call(t, 'POST', `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs`, input);
    return restAnswer(res, 201, tenant);
  },
  async get(taskId, id, tenant) {
    return restAnswer(
      await call(t, 'GET', `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs/${id}`),
      200,
      tenant,
    );
  },
  async list(taskId, page = {}, tenant) {
    const query = new URLSearchParams(Object.entries(page).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await call(t, 'GET', `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs?${query}`);
    const body = restAnswer(res, 200);
    expect(Object.keys(body).sort()).toEqual(['configs', 'nextPageToken']);
    return Object.assign(
      body.configs.map((c: any) => v1Config(c, tenant)),
      { next: body.nextPageToken },
    );
  },
  async delete(taskId, id, tenant) {
    const res = await call(t, 'DELETE', `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs/${id}`);
    if (res.status !== 204) restAnswer(res, 204);
    expect(res.body).toBeUndefined();
  },
};

const prefix = (tenant?: string) => (tenant ? `/${tenant}` : '');

function restAnswer(res: { status: number; headers: Headers; body: any }, ok: number, tenant?: string): any {
  if (res.status >= 400) {
    // `call` sends application/json: the answer comes in the media type the client used.
    expect(res.headers.get('content-type')).toMatch(/^application\/json;/);
    throw new CrudError(BY_REASON[res.body.error.details[0].reason] ?? res.body.error.details[0].reason);
  }
  expect(res.status).toBe(ok);
  return 'configs' in res.body ? res.body : v1Config(res.body, tenant);
}

/** A v1.0 TaskPushNotificationConfig: flat, `authentication.scheme`, `tenant` when asked under one. */
function v1Config(wire: any, tenant?: string): Config {
  const { tenant: echoed, ...config } = wire;
  expect(echoed).toBe(tenant);
  return config;
}

const jsonRpcV1: Crud = {
  name: 'JSON-RPC 1.0',
  pages: true,
  create: async (taskId, input, tenant) =>
    v1Config(
      rpcAnswer(
        await rpc(t, 'CreateTaskPushNotificationConfig', { taskId, ...input, ...(tenant && { tenant }) }),
      ),
      tenant,
    ),
  get: async (taskId, id, tenant) =>
    v1Config(
      rpcAnswer(await rpc(t, 'GetTaskPushNotificationConfig', { taskId, id, ...(tenant && { tenant }) })),
      tenant,
    ),
  async list(taskId, page = {}, tenant) {
    const body = rpcAnswer(
      await rpc(t, 'ListTaskPushNotificationConfigs', { taskId, ...page, ...(tenant && { tenant }) }),
    );
    return Object.assign(
      body.configs.map((c: any) => v1Config(c, tenant)),
      { next: body.nextPageToken },
    );
  },
  async delete(taskId, id, tenant) {
    expect(
      rpcAnswer(await rpc(t, 'DeleteTaskPushNotificationConfig', { taskId, id, ...(tenant && { tenant }) })),
    ).toBeNull();
  },
};

function rpcAnswer(envelope: any): any {
  if (envelope.error) throw new CrudError(BY_CODE[envelope.error.code] ?? String(envelope.error.code));
  expect(envelope).toHaveProperty('result');
  return envelope.result;
}

/** v0.3 has no tenants: `tenant` picks a defined agent's endpoint instead, to show scoping there. */
const v03Path = (tenant?: string) => ({ path: tenant ? `/agents/${tenant}/` : '/' });

/** A v0.3 TaskPushNotificationConfig: `{taskId, pushNotificationConfig}`, `authentication.schemes[]`. */
function v03Config(wire: any): Config {
  expect(Object.keys(wire).sort()).toEqual(['pushNotificationConfig', 'taskId']);
  const { authentication, ...rest } = wire.pushNotificationConfig;
  return {
    taskId: wire.taskId,
    ...rest,
    ...(authentication && {
      authentication: {
        scheme: authentication.schemes[0],
        ...(authentication.credentials && { credentials: authentication.credentials }),
      },
    }),
  };
}

const jsonRpcV03: Crud = {
  name: 'JSON-RPC 0.3',
  pages: false,
  async create(taskId, { authentication, ...input }, tenant) {
    const pushNotificationConfig = {
      ...input,
      ...(authentication && {
        authentication: {
          schemes: [authentication.scheme],
          ...(authentication.credentials && { credentials: authentication.credentials }),
        },
      }),
    };
    return v03Config(
      rpcAnswer(
        await rpc(t, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig }, v03Path(tenant)),
      ),
    );
  },
  get: async (taskId, id, tenant) =>
    v03Config(
      rpcAnswer(
        await rpc(
          t,
          'tasks/pushNotificationConfig/get',
          { id: taskId, pushNotificationConfigId: id },
          v03Path(tenant),
        ),
      ),
    ),
  async list(taskId, _page, tenant) {
    const result = rpcAnswer(
      await rpc(t, 'tasks/pushNotificationConfig/list', { id: taskId }, v03Path(tenant)),
    );
    expect(Array.isArray(result)).toBe(true);
    return result.map(v03Config);
  },
  async delete(taskId, id, tenant) {
    expect(
      rpcAnswer(
        await rpc(
          t,
          'tasks/pushNotificationConfig/delete',
          { id: taskId, pushNotificationConfigId: id },
          v03Path(tenant),
        ),
      ),
    ).toBeNull();
  },
};

const failure = (work: Promise<unknown>) =>
  work.then(
    () => 'succeeded',
    (error) => (error instanceof CrudError ? error.type : Promise.reject(error)),
  );

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
              {
                message: {
                  kind: 'message',
                  messageId: `cfg-${++counter}`,
                  role: 'user',
                  parts: [{ kind: 'text', text: 'What is the weather today?' }],
                },
              },
              v03Path(scope),
            )
          ).result.id
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

describe('across bindings', () => {
  it('says capabilities.pushNotifications: true on every card, by default', async () => {
    for (const path of ['', '/agents/explore']) {
      for (const version of ['1.0', '0.3']) {
        const card = await call(t, 'GET', `${path}/.well-known/agent-card.json`, undefined, {
          'A2A-Version': version,
        });
        expect(card.body.capabilities.pushNotifications).toBe(true);
      }
    }
  });

  it('shows configs made on one binding to the others in the same scope', async () => {
    const task = await completedTask();
    await rest.create(task, { id: 'from-rest', url: HOOK });
    await jsonRpcV1.create(task, { id: 'from-v1', url: HOOK });
    await jsonRpcV03.create(task, {
      id: 'from-v03',
      url: HOOK,
      authentication: { scheme: 'Basic', credentials: 'dXNlcjpwdw==' },
    });
    for (const crud of [rest, jsonRpcV1, jsonRpcV03]) {
      expect((await crud.list(task)).map((c) => c.id)).toEqual(['from-rest', 'from-v1', 'from-v03']);
    }
    expect(await rest.get(task, 'from-v03')).toMatchObject({
      authentication: { scheme: 'Basic', credentials: 'dXNlcjpwdw==' },
    });
  });

  it('v0.3 get without a config id answers the task first config; several schemes keep the first', async () => {
    const task = await completedTask();
    const set = await rpc(t, 'tasks/pushNotificationConfig/set', {
      taskId: task,
      pushNotificationConfig: { id: 'one', url: HOOK, authentication: { schemes: ['Bearer', 'Basic'] } },
    });
    expect(set.result.pushNotificationConfig.authentication).toEqual({ schemes: ['Bearer'] });
    await jsonRpcV03.create(task, { id: 'two', url: HOOK });
    const got = await rpc(t, 'tasks/pushNotificationConfig/get', { id: task });
    expect(got.result).toMatchObject({ taskId: task, pushNotificationConfig: { id: 'one' } });
    const empty = await completedTask();
    expect((await rpc(t, 'tasks/pushNotificationConfig/get', { id: empty })).error.code).toBe(-32001);
    expect((await rpc(t, 'tasks/pushNotificationConfig/delete', { id: task })).error.code).toBe(-32602);
  });

  it('REST: the path names the task, whatever the body says', async () => {
    const task = await completedTask();
    const res = await call(t, 'POST', `/tasks/${task}/pushNotificationConfigs`, {
      taskId: 'other-task',
      url: HOOK,
    });
    expect(res.status).toBe(201);
    expect(res.body.taskId).toBe(task);
  });

  it('REST: answers a wrong method with 405 and Allow', async () => {
    const task = await completedTask();
    const collection = await call(t, 'PUT', `/tasks/${task}/pushNotificationConfigs`, {});
    expect(collection.status).toBe(405);
    expect(collection.headers.get('allow')).toBe('GET, POST');
    const item = await call(t, 'POST', `/acme/tasks/${task}/pushNotificationConfigs/c1`, {});
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toBe('GET, DELETE');
  });

  it('accepts snake_case fields, as ProtoJSON readers must', async () => {
    const task = await completedTask();
    const created = await rpc(t, 'CreateTaskPushNotificationConfig', { task_id: task, url: HOOK });
    expect(created.result.taskId).toBe(task);
    const listed = await rpc(t, 'ListTaskPushNotificationConfigs', { task_id: task, page_size: 1 });
    expect(listed.result).toEqual({ configs: [created.result], nextPageToken: '' });
  });

  it('keeps a gateway task configs to its workspace and agent', async () => {
    const sent = await rpc(
      t,
      'message/send',
      {
        message: {
          kind: 'message',
          messageId: 'gw-cfg',
          role: 'user',
          parts: [{ kind: 'text', text: 'What is the weather today?' }],
        },
        configuration: { pushNotificationConfig: { id: 'gw', url: HOOK } },
      },
      { path: '/agents/a2a', envelope: { agent_code: 'explore' } },
    );
    const task = sent.result.id;
    expect(sent.result.status.state).toBe('completed');
    expect(await failure(jsonRpcV03.list(task))).toBe('TaskNotFoundError');
    expect(await failure(jsonRpcV03.list(task, {}, 'explore'))).toBe('TaskNotFoundError');
    expect(await failure(rest.get(task, 'gw'))).toBe('TaskNotFoundError');
    const other = await rpc(
      t,
      'tasks/pushNotificationConfig/list',
      { id: task },
      { path: '/agents/a2a', envelope: { agent_code: 'explore' } },
    );
    expect(other.error.code).toBe(-32601); // the gateway serves no config methods
  });
});

describe.each([
  ['JSONRPC', () => sdkClient('JSONRPC')],
  ['HTTP+JSON', () => sdkClient('HTTP+JSON')],
  ['compat v0.3', () => connectV03Client(t.url)],
] as const)('the @a2a-js/sdk client over %s', (_name, connect) => {
  it('creates, gets, lists and deletes a config', async () => {
    const client = await connect();
    const taskId = await completedTask();
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId,
      url: HOOK,
      token: 'sdk-token',
      authentication: { scheme: 'Bearer', credentials: 'sdk-secret' },
    });
    expect(created).toMatchObject({
      taskId,
      url: HOOK,
      token: 'sdk-token',
      authentication: { scheme: 'Bearer', credentials: 'sdk-secret' },
    });
    expect(created.id).not.toBe('');
    expect(await client.getTaskPushNotificationConfig({ tenant: '', taskId, id: created.id })).toEqual(
      created,
    );
    const page = { tenant: '', taskId, pageSize: 0, pageToken: '' };
    expect((await client.listTaskPushNotificationConfig(page)).configs).toEqual([created]);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: created.id });
    expect((await client.listTaskPushNotificationConfig(page)).configs).toEqual([]);
  });
});

function sdkClient(transport: 'JSONRPC' | 'HTTP+JSON') {
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [transport] }),
  ).createFromUrl(t.url);
}
