/**
 * Push notification configs across bindings (protocol digest §2, §5): one scope's configs seen from
 * every binding, the shapes each binding reads and writes, the gateway's workspace scoping, and the
 * official SDK client's CRUD. The configs here sit on completed tasks, so nothing is delivered.
 */
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV03Client, connectV03RestClient } from '../bindings/sdk-drivers.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { callJson, getJson, postJson, rpc, v03Send } from '../helpers/wire.js';
import { completedTask, failure, HOOK, jsonRpcV03, jsonRpcV1, rest, useSim } from './config-drivers.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ seed: 'push-configs', speed: 0 });
  useSim(t);
});
afterAll(() => t.close());

const GATEWAY = { path: '/agents/a2a', envelope: { agent_code: 'explore' } };

describe('across bindings', () => {
  it('says capabilities.pushNotifications: true on every card, by default', async () => {
    for (const path of ['', '/agents/explore']) {
      for (const version of ['1.0', '0.3']) {
        const card = await getJson(t, `${path}/.well-known/agent-card.json`, {
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
    const set = (
      await rpc(t, 'tasks/pushNotificationConfig/set', {
        taskId: task,
        pushNotificationConfig: { id: 'one', url: HOOK, authentication: { schemes: ['Bearer', 'Basic'] } },
      })
    ).body;
    expect(set.result.pushNotificationConfig.authentication).toEqual({ schemes: ['Bearer'] });
    await jsonRpcV03.create(task, { id: 'two', url: HOOK });
    const got = (await rpc(t, 'tasks/pushNotificationConfig/get', { id: task })).body;
    expect(got.result).toMatchObject({ taskId: task, pushNotificationConfig: { id: 'one' } });
    const empty = await completedTask();
    expect((await rpc(t, 'tasks/pushNotificationConfig/get', { id: empty })).body.error.code).toBe(-32001);
    expect((await rpc(t, 'tasks/pushNotificationConfig/delete', { id: task })).body.error.code).toBe(-32602);
  });

  it('REST: the path names the task, whatever the body says', async () => {
    const task = await completedTask();
    const res = await postJson(t, `/tasks/${task}/pushNotificationConfigs`, {
      taskId: 'other-task',
      url: HOOK,
    });
    expect(res.status).toBe(201);
    expect(res.body.taskId).toBe(task);
  });

  it('REST: answers a wrong method with 405 and Allow', async () => {
    const task = await completedTask();
    const collection = await callJson(t, 'PUT', `/tasks/${task}/pushNotificationConfigs`, { body: {} });
    expect(collection.status).toBe(405);
    expect(collection.headers.get('allow')).toBe('GET, POST');
    const item = await postJson(t, `/acme/tasks/${task}/pushNotificationConfigs/c1`, {});
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toBe('GET, DELETE');
  });

  it('accepts snake_case fields, as ProtoJSON readers must', async () => {
    const task = await completedTask();
    const created = (await rpc(t, 'CreateTaskPushNotificationConfig', { task_id: task, url: HOOK })).body;
    expect(created.result.taskId).toBe(task);
    const listed = (await rpc(t, 'ListTaskPushNotificationConfigs', { task_id: task, page_size: 1 })).body;
    expect(listed.result).toEqual({ configs: [created.result], nextPageToken: '' });
  });

  it('keeps a gateway task configs to its workspace and agent', async () => {
    const sent = (
      await rpc(
        t,
        'message/send',
        v03Send(
          'What is the weather today?',
          { messageId: 'gw-cfg' },
          { configuration: { pushNotificationConfig: { id: 'gw', url: HOOK } } },
        ),
        GATEWAY,
      )
    ).body;
    const task = sent.result.id;
    expect(sent.result.status.state).toBe('completed');
    expect(await failure(jsonRpcV03.list(task))).toBe('TaskNotFoundError');
    expect(await failure(jsonRpcV03.list(task, {}, 'explore'))).toBe('TaskNotFoundError');
    expect(await failure(rest.get(task, 'gw'))).toBe('TaskNotFoundError');
    const other = (await rpc(t, 'tasks/pushNotificationConfig/list', { id: task }, GATEWAY)).body;
    expect(other.error.code).toBe(-32601); // the gateway serves no config methods
  });
});

describe.each([
  ['JSONRPC', () => sdkClient('JSONRPC')],
  ['HTTP+JSON', () => sdkClient('HTTP+JSON')],
  ['compat v0.3', () => connectV03Client(t.url)],
  ['compat v0.3 HTTP+JSON', () => connectV03RestClient(t.url)],
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
