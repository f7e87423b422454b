/**
 * Webhook deliveries end to end (protocol digest §5): a real HTTP receiver gets every event of each
 * seed scenario, in seq order, in the shapes of the binding that made its config, with the
 * config's token and credentials, whichever way the config was made: created over REST, JSON-RPC
 * 1.0 or v0.3, or inline in a send (v1.0 REST and JSON-RPC, v0.3, the gateway).
 */
import { ROOT_SCOPE, scopeOf, type Scope } from '../../src/domain/scope.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/domain/types.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { callJson, getJson, postJson, rpc, rpcEnvelope, v03Send, v1Send } from '../helpers/wire.js';
import {
  settle,
  settleDeliveries,
  startReceiver,
  stateOf,
  until,
  watchDeliveries,
  type Receiver,
} from './helpers.js';

let t: TestSim;
let unwatch: () => void;
let receiver: Receiver;
beforeAll(async () => {
  unwatch = watchDeliveries();
  t = await startSim({ seed: 'push-delivery' });
});
afterEach(() => receiver?.close());
afterAll(async () => {
  await t.close();
  unwatch();
});

const TOKEN = 'task-token-1';
const CREDENTIALS = 'webhook-secret';

interface Started {
  id: string;
  contextId: string;
}

/** One binding: how it sends a message (not waiting for the turn), cancels, and names its shapes. */
interface Binding {
  dialect: '1.0' | '0.3';
  /** The scope its tasks live in, to read their event logs. */
  scope: Scope;
  /** The v1.0 states are `TASK_STATE_*`, the v0.3 ones lowercase. */
  state(name: string): string;
  send(text: string, to?: Started, inline?: string): Promise<Started>;
  cancel(id: string): Promise<void>;
  /** Creates a config for `url` on the task, when the binding can. */
  create?(id: string, url: string): Promise<any>;
}

let counter = 0;
const v1State = (name: string) => `TASK_STATE_${name.toUpperCase().replace('-', '_')}`;
const v1Config = (url: string) => ({
  url,
  token: TOKEN,
  authentication: { scheme: 'Bearer', credentials: CREDENTIALS },
});
/** A v1.0 send that answers at once, following up `to` and making an inline config if asked. */
const v1PushSend = (text: string, to: Started | undefined, inline: string | undefined) =>
  v1Send(
    text,
    { messageId: `push-${++counter}`, ...(to && { taskId: to.id }) },
    {
      configuration: {
        returnImmediately: true,
        ...(inline && { taskPushNotificationConfig: v1Config(inline) }),
      },
    },
  );
const v03Config = (url: string) => ({
  url,
  token: TOKEN,
  authentication: { schemes: ['Bearer'], credentials: CREDENTIALS },
});
/** v0.3 params; `byContext` follows up by the context alone, as the gateway seeds do. */
const v03PushSend = (text: string, to: Started | undefined, inline: string | undefined, byContext = false) =>
  v03Send(
    text,
    {
      messageId: `push-${++counter}`,
      ...(to && (byContext ? { contextId: to.contextId } : { taskId: to.id })),
    },
    { configuration: { blocking: false, ...(inline && { pushNotificationConfig: v03Config(inline) }) } },
  );

/** The answer of a JSON-RPC call, or a failed test naming its error. */
function resultOf(envelope: any): any {
  expect(envelope.error).toBeUndefined();
  return envelope.result;
}

const REST: Binding = {
  dialect: '1.0',
  scope: ROOT_SCOPE,
  state: v1State,
  send: async (text, to, inline) =>
    (await postJson(t, '/message:send', v1PushSend(text, to, inline))).body.task,
  cancel: async (id) => {
    expect((await callJson(t, 'POST', `/tasks/${id}:cancel`)).status).toBe(200);
  },
  create: async (id, url) => {
    const res = await postJson(t, `/tasks/${id}/pushNotificationConfigs`, v1Config(url));
    expect(res.status).toBe(201);
    return res.body;
  },
};

const JSONRPC_V1: Binding = {
  dialect: '1.0',
  scope: ROOT_SCOPE,
  state: v1State,
  send: async (text, to, inline) =>
    resultOf((await rpc(t, 'SendMessage', v1PushSend(text, to, inline))).body).task,
  cancel: async (id) => void resultOf((await rpc(t, 'CancelTask', { id })).body),
  create: async (id, url) =>
    resultOf((await rpc(t, 'CreateTaskPushNotificationConfig', { taskId: id, ...v1Config(url) })).body),
};

const JSONRPC_V03: Binding = {
  dialect: '0.3',
  scope: ROOT_SCOPE,
  state: (name) => name,
  send: async (text, to, inline) =>
    resultOf((await rpc(t, 'message/send', v03PushSend(text, to, inline))).body),
  cancel: async (id) => void resultOf((await rpc(t, 'tasks/cancel', { id })).body),
  create: async (id, url) =>
    resultOf(
      (
        await rpc(t, 'tasks/pushNotificationConfig/set', {
          taskId: id,
          pushNotificationConfig: v03Config(url),
        })
      ).body,
    ),
};

const GATEWAY_CALL = { path: '/agents/a2a', envelope: { agent_code: 'explore' } };
const GATEWAY: Binding = {
  dialect: '0.3',
  scope: scopeOf({ agent: 'explore', workspace: 'default' }),
  state: (name) => name,
  send: async (text, to, inline) =>
    resultOf((await rpc(t, 'message/send', v03PushSend(text, to, inline, true), GATEWAY_CALL)).body),
  cancel: async (id) => void resultOf((await rpc(t, 'tasks/cancel', { id }, GATEWAY_CALL)).body),
};

/** How a test attaches its receiver: a config made after the task exists, or inline in the send. */
interface Way {
  name: string;
  binding: Binding;
  inline: boolean;
}

const WAYS: Way[] = [
  { name: 'REST POST /tasks/{id}/pushNotificationConfigs', binding: REST, inline: false },
  { name: 'JSON-RPC 1.0 CreateTaskPushNotificationConfig', binding: JSONRPC_V1, inline: false },
  { name: 'JSON-RPC 0.3 tasks/pushNotificationConfig/set', binding: JSONRPC_V03, inline: false },
  { name: 'REST message:send with taskPushNotificationConfig', binding: REST, inline: true },
  { name: 'JSON-RPC 1.0 SendMessage with taskPushNotificationConfig', binding: JSONRPC_V1, inline: true },
  { name: 'JSON-RPC 0.3 message/send with pushNotificationConfig', binding: JSONRPC_V03, inline: true },
  { name: 'gateway message/send with pushNotificationConfig', binding: GATEWAY, inline: true },
];

/** Plays a scenario on a task whose webhook is `receiver`; answers the task and its first seq. */
interface Scenario {
  name: string;
  end: string;
  play(way: Way, attach: (text: string) => Promise<Started>): Promise<Started>;
}

const lastState = () => receiver.requests.map((r) => stateOf(r.body)).findLast((s) => s !== undefined);
const untilState = (binding: Binding, state: string) =>
  until(t, () => lastState() === binding.state(state), `a delivery of state ${state}`);

const SCENARIOS: Scenario[] = [
  {
    name: 'weather',
    end: 'completed',
    play: async ({ binding }, attach) => {
      const task = await attach('What is the weather today?');
      await untilState(binding, 'completed');
      return task;
    },
  },
  {
    name: 'flight booking, with the follow-up turn',
    end: 'completed',
    play: async ({ binding }, attach) => {
      const task = await attach('Book me a flight');
      await untilState(binding, 'input-required');
      await binding.send('From San Francisco to New York', task);
      await untilState(binding, 'completed');
      return task;
    },
  },
  {
    name: 'failure',
    end: 'failed',
    play: async ({ binding }, attach) => {
      const task = await attach('Please fail this task');
      await untilState(binding, 'failed');
      return task;
    },
  },
  {
    name: 'slow cancel, canceled midway',
    end: 'canceled',
    play: async ({ binding }, attach) => {
      const task = await attach('Write a long report on climate change');
      await until(t, () => receiver.requests.length >= 4, 'a few chunks');
      await binding.cancel(task.id);
      await untilState(binding, 'canceled');
      return task;
    },
  },
];

/** Whether a delivered body is the logged event, in the dialect's shapes. */
function expectShape(dialect: '1.0' | '0.3', body: any, logged: LoggedEvent, binding: Binding): void {
  const { event, taskId, contextId } = logged;
  if (dialect === '1.0') {
    const member = { task: 'task', status: 'statusUpdate', artifact: 'artifactUpdate' }[event.kind];
    expect(Object.keys(body)).toEqual([member]);
    expect(body).not.toHaveProperty('kind');
  } else {
    expect(body.kind).toBe(
      { task: 'task', status: 'status-update', artifact: 'artifact-update' }[event.kind],
    );
  }
  const inner = dialect === '1.0' ? Object.values(body)[0] : body;
  if (event.kind === 'task') {
    expect(inner).toMatchObject({
      id: taskId,
      contextId,
      status: { state: binding.state(event.task.status.state) },
    });
  } else {
    expect(inner).toMatchObject({ taskId, contextId });
    if (event.kind === 'status') expect(inner.status.state).toBe(binding.state(event.status.state));
    else expect(inner.artifact.artifactId).toBe(event.artifact.artifactId);
  }
}

describe.each(WAYS)('a webhook made by $name', (way) => {
  const { binding } = way;

  it.each(SCENARIOS)('gets every event of $name in seq order, with its headers', async (scenario) => {
    receiver = await startReceiver();
    let firstSeq = 1;
    const attach = async (text: string) => {
      if (way.inline) return binding.send(text, undefined, receiver.url);
      const task = await binding.send(text);
      const config = await binding.create!(task.id, receiver.url);
      expect(config).toMatchObject(
        binding.dialect === '1.0'
          ? { taskId: task.id, url: receiver.url, token: TOKEN }
          : { taskId: task.id, pushNotificationConfig: { url: receiver.url, token: TOKEN } },
      );
      // The config gets what happens after it exists; the clock has not moved since the send.
      firstSeq = t.sim.store.get(task.id, binding.scope)!.log.latestSeq + 1;
      return task;
    };
    const task = await scenario.play(way, attach);
    await settleDeliveries();

    const log = t.sim.store.get(task.id, binding.scope)!.log.readAfter(firstSeq - 1);
    expect(log.at(-1)!.event).toMatchObject({ kind: 'status', status: { state: scenario.end } });
    expect(receiver.seqs()).toEqual(log.map((e) => e.seq));
    for (const [i, request] of receiver.requests.entries()) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hook');
      expect(request.headers).toMatchObject({
        'content-type': binding.dialect === '1.0' ? 'application/a2a+json' : 'application/json',
        'x-a2a-sim-seq': String(log[i]!.seq),
        'x-a2a-notification-token': TOKEN,
        authorization: `Bearer ${CREDENTIALS}`,
      });
      expectShape(binding.dialect, request.body, log[i]!, binding);
    }
    if (binding.dialect === '0.3') {
      // `final` marks the status after which this turn sends nothing more.
      const finals = receiver.requests
        .filter((r) => r.body.kind === 'status-update')
        .map((r) => [r.body.status.state, r.body.final]);
      expect(finals.at(-1)).toEqual([scenario.end, true]);
      expect(finals.filter(([, final]) => final).map(([state]) => state)).toEqual(
        scenario.name.startsWith('flight') ? ['input-required', 'completed'] : [scenario.end],
      );
    }
    if (way.inline) expect(receiver.seqs()[0]).toBe(1);
    const deliveries = (await getJson(t, `/_sim/deliveries?taskId=${task.id}`)).body.deliveries;
    expect(deliveries.map((d: any) => [d.seq, d.attempt, d.outcome])).toEqual(
      log.map((e) => [e.seq, 1, 'delivered']),
    );
  });
});

describe('a webhook and a stream of the same turn', () => {
  const STREAMS = [
    {
      name: 'REST message:stream',
      path: '/message:stream',
      body: (text: string, url: string) => v1PushSend(text, undefined, url),
      payload: (data: any) => data,
    },
    {
      name: 'JSON-RPC 0.3 message/stream',
      path: '/',
      body: (text: string, url: string) =>
        rpcEnvelope('message/stream', v03PushSend(text, undefined, url), { id: 'stream-1' }),
      payload: (data: any) => data.result,
    },
  ];

  describe.each(STREAMS)('$name', (stream) => {
    it.each(['What is the weather today?', 'Book me a flight', 'Check my calendar', 'Please fail this task'])(
      'carry the same objects, %s',
      async (text) => {
        receiver = await startReceiver();
        const reader = await settle(t, postSse(`${t.url}${stream.path}`, stream.body(text, receiver.url)));
        const frames = await settle(t, reader.rest());
        await until(t, () => receiver.requests.length >= frames.length, 'the stream’s events at the webhook');
        await settleDeliveries();
        expect(receiver.requests.map((r) => r.body)).toEqual(frames.map((f) => stream.payload(f.json)));
        expect(receiver.seqs()).toEqual(frames.map((f) => Number(f.id)));
      },
    );
  });
});
