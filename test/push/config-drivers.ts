/**
 * Push notification config CRUD as each binding does it (REST, JSON-RPC 1.0, v0.3), behind one
 * interface that takes and returns v1.0-shaped configs and throws CrudError named after the A2A
 * error; shared by the config tests. The simulator is the one `useSim` was given.
 */
import { expect } from 'vitest';
import type { TestSim } from '../helpers/sim.js';
import { callJson, getJson, postJson, rpc, v1Send, type JsonAnswer } from '../helpers/wire.js';

export const HOOK = 'http://127.0.0.1:9/hook';

let current: TestSim | undefined;
/** Points the drivers at the simulator a test file started (in its `beforeAll`). */
export const useSim = (t: TestSim) => void (current = t);
const sim = (): TestSim => {
  if (!current) throw new Error('config drivers: call useSim(t) first');
  return current;
};

let counter = 0;
/** A completed task, created by a v1.0 REST send (under `tenant`, if given). */
export async function completedTask(tenant?: string): Promise<string> {
  const res = await postJson(
    sim(),
    `${tenant ? `/${tenant}` : ''}/message:send`,
    v1Send('What is the weather today?', { messageId: `cfg-${++counter}` }),
  );
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
export interface Config {
  id: string;
  taskId: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

export interface Input {
  id?: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

export interface Crud {
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

export const rest: Crud = {
  name: 'REST',
  pages: true,
  async create(taskId, input, tenant) {
    const res = await postJson(sim(), `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs`, input);
    return restAnswer(res, 201, tenant);
  },
  async get(taskId, id, tenant) {
    return restAnswer(
      await getJson(sim(), `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs/${id}`),
      200,
      tenant,
    );
  },
  async list(taskId, page = {}, tenant) {
    const query = new URLSearchParams(Object.entries(page).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await getJson(sim(), `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs?${query}`);
    const body = restAnswer(res, 200);
    expect(Object.keys(body).sort()).toEqual(['configs', 'nextPageToken']);
    return Object.assign(
      body.configs.map((c: any) => v1Config(c, tenant)),
      { next: body.nextPageToken },
    );
  },
  async delete(taskId, id, tenant) {
    const res = await callJson(
      sim(),
      'DELETE',
      `${prefix(tenant)}/tasks/${taskId}/pushNotificationConfigs/${id}`,
    );
    if (res.status !== 204) restAnswer(res, 204);
    expect(res.body).toBeUndefined();
  },
};

const prefix = (tenant?: string) => (tenant ? `/${tenant}` : '');

function restAnswer(res: JsonAnswer, ok: number, tenant?: string): any {
  if (res.status >= 400) {
    // Sent as application/json, or naming no media type: the answer comes as plain JSON.
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

export const jsonRpcV1: Crud = {
  name: 'JSON-RPC 1.0',
  pages: true,
  create: async (taskId, input, tenant) =>
    v1Config(
      rpcAnswer(
        await rpc(sim(), 'CreateTaskPushNotificationConfig', { taskId, ...input, ...(tenant && { tenant }) }),
      ),
      tenant,
    ),
  get: async (taskId, id, tenant) =>
    v1Config(
      rpcAnswer(await rpc(sim(), 'GetTaskPushNotificationConfig', { taskId, id, ...(tenant && { tenant }) })),
      tenant,
    ),
  async list(taskId, page = {}, tenant) {
    const body = rpcAnswer(
      await rpc(sim(), 'ListTaskPushNotificationConfigs', { taskId, ...page, ...(tenant && { tenant }) }),
    );
    return Object.assign(
      body.configs.map((c: any) => v1Config(c, tenant)),
      { next: body.nextPageToken },
    );
  },
  async delete(taskId, id, tenant) {
    expect(
      rpcAnswer(
        await rpc(sim(), 'DeleteTaskPushNotificationConfig', { taskId, id, ...(tenant && { tenant }) }),
      ),
    ).toBeNull();
  },
};

function rpcAnswer({ body: envelope }: JsonAnswer): any {
  if (envelope.error) throw new CrudError(BY_CODE[envelope.error.code] ?? String(envelope.error.code));
  expect(envelope).toHaveProperty('result');
  return envelope.result;
}

/** v0.3 has no tenants: `tenant` picks a defined agent's endpoint instead, to show scoping there. */
export const v03Path = (tenant?: string) => ({ path: tenant ? `/agents/${tenant}/` : '/' });

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

export const jsonRpcV03: Crud = {
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
        await rpc(
          sim(),
          'tasks/pushNotificationConfig/set',
          { taskId, pushNotificationConfig },
          v03Path(tenant),
        ),
      ),
    );
  },
  get: async (taskId, id, tenant) =>
    v03Config(
      rpcAnswer(
        await rpc(
          sim(),
          'tasks/pushNotificationConfig/get',
          { id: taskId, pushNotificationConfigId: id },
          v03Path(tenant),
        ),
      ),
    ),
  async list(taskId, _page, tenant) {
    const result = rpcAnswer(
      await rpc(sim(), 'tasks/pushNotificationConfig/list', { id: taskId }, v03Path(tenant)),
    );
    expect(Array.isArray(result)).toBe(true);
    return result.map(v03Config);
  },
  async delete(taskId, id, tenant) {
    expect(
      rpcAnswer(
        await rpc(
          sim(),
          'tasks/pushNotificationConfig/delete',
          { id: taskId, pushNotificationConfigId: id },
          v03Path(tenant),
        ),
      ),
    ).toBeNull();
  },
};

/** The error type a CRUD call failed with, or `succeeded`. */
export const failure = (work: Promise<unknown>) =>
  work.then(
    () => 'succeeded',
    (error) => (error instanceof CrudError ? error.type : Promise.reject(error)),
  );
