/**
 * The live feed, `GET /_sim/feed` upgraded to a WebSocket, with the `ws` client: the history first,
 * then live events with no gap; task events with their A2A v1.0 payloads; the filters. A slow
 * watcher and the access rule on upgrade: feed-access.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getSse, postSse } from '../helpers/sse.js';
import { getJson, v1Send } from '../helpers/wire.js';
import { rawHttp } from '../helpers/raw-http.js';
import { MAX_WATCHERS } from '../../src/admin/feed.js';
import {
  gatewaySend,
  ioUntil,
  refusal,
  restSend,
  watchFeed,
  type FeedMessage,
  type Watcher,
} from './helpers.js';

const WEATHER = 'What is the weather today?';
const FLIGHT = 'Book me a flight';
const ROUTE = 'From San Francisco to New York';
const FAIL = 'Please fail this task';

/** `1, 2, …, n`. */
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const ofTask = (messages: FeedMessage[], taskId: string) =>
  messages.filter((m) => m.type === 'task:event' && m.taskId === taskId);

describe('history, then live', () => {
  let t: TestSim;
  beforeAll(async () => (t = await startSim()));
  afterAll(() => t.close());

  it('replays the bus history first, then every new event, numbered with no gap at the seam', async () => {
    const first = await restSend(t, '', WEATHER, 'hist-1');
    const history = t.sim.events.history().length;
    expect(history).toBeGreaterThan(0);

    const watcher = await watchFeed(t);
    await ioUntil(() => watcher.messages.length === history, 'the history');
    expect(watcher.messages.map((m) => m.n)).toEqual(upTo(history));
    expect(watcher.messages[0]).toMatchObject({ n: 1, type: 'request:received' });
    expect(watcher.messages).toContainEqual(
      expect.objectContaining({ type: 'task:created', taskId: first.id, scenario: 'weather' }),
    );

    const second = await restSend(t, '', FLIGHT, 'hist-2');
    const total = t.sim.events.history().length;
    await ioUntil(() => watcher.messages.length === total, 'the live events');
    expect(watcher.messages.map((m) => m.n)).toEqual(upTo(total));
    expect(watcher.messages.slice(history)).toContainEqual(
      expect.objectContaining({ type: 'task:created', taskId: second.id, scenario: 'flight-booking' }),
    );
    // What a replay sends is what went out live: the same messages, byte for byte.
    const late = await watchFeed(t);
    await ioUntil(() => late.messages.length === total, 'the second history');
    expect(late.messages).toEqual(watcher.messages);
    await Promise.all([watcher.close(), late.close()]);
  });

  it('each message is one JSON object {n, at, type, ...} with clock time', async () => {
    const watcher = await watchFeed(t, '?types=task:created');
    await ioUntil(() => watcher.messages.length === 2);
    for (const message of watcher.messages) {
      expect(Object.keys(message).slice(0, 3)).toEqual(['n', 'at', 'type']);
      expect(Date.parse(message.at)).toBeGreaterThanOrEqual(t.clock.now() - 60_000);
    }
    await watcher.close();
  });

  it('the simulator closes every watcher when it stops', async () => {
    const other = await startSim();
    const watcher = await watchFeed(other);
    await other.close();
    expect((await watcher.done).code).toBe(1006);
  });
});

describe("a flight booking's task events", () => {
  let t: TestSim;
  let watcher: Watcher;
  let taskId: string;
  beforeAll(async () => {
    t = await startSim();
    watcher = await watchFeed(t, '?types=task:event');
    const asked = await restSend(t, '', FLIGHT, 'fb-1');
    taskId = asked.id;
    const done = await restSend(t, '', ROUTE, 'fb-2', { taskId });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  });
  afterAll(async () => {
    await watcher.close();
    await t.close();
  });

  it('arrive in seq order, both turns, each with the event and its place', async () => {
    const latest = t.sim.store.find(taskId)!.log.latestSeq;
    await ioUntil(() => ofTask(watcher.messages, taskId).length === latest);
    const events = ofTask(watcher.messages, taskId);
    expect(events.map((m: any) => m.event.seq)).toEqual(upTo(latest));
    // The follow-up message joins the task as a `task` event of its own.
    expect(events.map((m: any) => m.event.event.kind)).toEqual([
      'task',
      'status',
      'status',
      'task',
      'status',
      'artifact',
      'status',
    ]);
    expect(events[0]).toMatchObject({ type: 'task:event', taskId, contextId: expect.any(String) });
  });

  it('carry the A2A v1.0 StreamResponse as payload: what a REST resume from seq 0 sends', async () => {
    const events = ofTask(watcher.messages, taskId);
    const replay = await t.drive(
      getSse(`${t.url}/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '0' }).then((r) => r.rest()),
    );
    expect(events.map((m) => m.payload)).toEqual(replay.map((e) => e.json));
    expect(events.map((m) => m.payload.statusUpdate?.status.state ?? m.payload.task?.status.state)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_WORKING',
      undefined,
      'TASK_STATE_COMPLETED',
    ]);
    expect(events[3]!.payload.task.history.at(-1).parts[0].text).toBe(ROUTE);
    expect(events[5]!.payload.artifactUpdate.artifact.name).toBe('Flight itinerary');
  });
});

describe('filters', () => {
  let t: TestSim;
  /** Connected before any traffic: what they get is live. */
  const live: Record<string, Watcher> = {};
  const QUERIES = {
    ws1: '?workspace=ws-1',
    explore: '?agent=explore&types=task:created',
    streams: '?types=stream:opened,stream:closed,chaos:fault',
    requests: '?types=request:received',
  };
  let tasks: Record<'root' | 'agent' | 'ws1' | 'ws2' | 'stream', any>;
  beforeAll(async () => {
    t = await startSim({ keepAlive: 0 });
    for (const [name, query] of Object.entries(QUERIES)) live[name] = await watchFeed(t, query);
    const root = await restSend(t, '', WEATHER, 'flt-root');
    const agent = await restSend(t, '/agents/explore', FLIGHT, 'flt-agent');
    const ws1 = await gatewaySend(t, 'ws-1', FAIL, 'flt-ws1');
    const ws2 = await gatewaySend(t, 'ws-2', WEATHER, 'flt-ws2');
    const reader = await t.drive(
      postSse(`${t.url}/message:stream`, v1Send(WEATHER, { messageId: 'flt-stream' }), {
        'X-Sim-Chaos': 'drop-after-events=2',
      }),
    );
    const stream = (await t.drive(reader.rest()))[0]!.json.task;
    // The task goes on without the client that was cut off: let it finish.
    t.clock.advance(10_000);
    tasks = { root, agent, ws1, ws2, stream };
  });
  afterAll(async () => {
    await Promise.all(Object.values(live).map((w) => w.close()));
    await t.close();
  });

  /** Connects after the traffic, so what it gets is the history, filtered the same way. */
  const replayed = async (query: string) => {
    const watcher = await watchFeed(t, query);
    await ioUntil(() => watcher.messages.length > 0, `a message for ${query}`);
    await watcher.close();
    return watcher.messages;
  };
  /** The live watcher's messages once it has as many as a replay of the same query. */
  const liveAndReplayed = async (name: keyof typeof QUERIES) => {
    const replay = await replayed(QUERIES[name]);
    await ioUntil(() => live[name]!.messages.length >= replay.length);
    expect(live[name]!.messages).toEqual(replay);
    return replay;
  };

  it('workspace: only the events of that workspace, live and replayed alike', async () => {
    const messages = await liveAndReplayed('ws1');
    expect(new Set(messages.map((m: any) => m.taskId))).toEqual(new Set([tasks.ws1.id]));
    expect(messages.map((m) => m.type)).toEqual([
      'task:created',
      ...Array(t.sim.store.find(tasks.ws1.id)!.log.latestSeq).fill('task:event'),
    ]);
    expect(messages[0]).toMatchObject({ agent: 'explore', workspace: 'ws-1', scenario: 'failure' });
  });

  it('agent and types: the creations of the explore agent, direct and through the gateway', async () => {
    const messages = await liveAndReplayed('explore');
    expect(messages.map((m: any) => [m.taskId, m.workspace])).toEqual([
      [tasks.agent.id, undefined],
      [tasks.ws1.id, 'ws-1'],
      [tasks.ws2.id, 'ws-2'],
    ]);
  });

  it('types: the stream opened and closed around the drop chaos made in it', async () => {
    const messages = await liveAndReplayed('streams');
    expect(messages.map((m) => m.type)).toEqual(['stream:opened', 'chaos:fault', 'stream:closed']);
    const [opened, fault, closed] = messages as any[];
    expect(opened).toMatchObject({ taskId: tasks.stream.id, request: expect.any(Number) });
    expect(closed).toMatchObject({ taskId: tasks.stream.id, request: opened.request });
    expect(fault.fault).toMatchObject({ kind: 'drop', taskId: tasks.stream.id, seq: 2 });
  });

  it('types: every request as it arrived, before any binding read it', async () => {
    const messages = await liveAndReplayed('requests');
    expect(messages.map((m: any) => m.request.path)).toEqual([
      '/message:send',
      '/agents/explore/message:send',
      '/agents/a2a',
      '/agents/a2a',
      '/message:stream',
    ]);
    expect(messages[0]).not.toHaveProperty('request.status');
  });

  it('taskId: the task events, the stream around it and its fault; requests name no task', async () => {
    const messages = await replayed(`?taskId=${tasks.stream.id}`);
    expect(messages.map((m) => m.type)).toEqual([
      'task:created',
      'task:event',
      'stream:opened',
      'task:event',
      'chaos:fault',
      'stream:closed',
      'task:event',
      'task:event',
    ]);
    const fault = messages.find((m) => m.type === 'chaos:fault') as any;
    expect(fault.fault).toMatchObject({ kind: 'drop', seq: 2 });
    // It comes right after the event it is about.
    expect((messages[messages.indexOf(fault) - 1] as any).event.seq).toBe(2);
  });

  it('contextId: a context reaches the events that name only their task, through the task', async () => {
    const byTask = await replayed(`?taskId=${tasks.stream.id}`);
    expect(await replayed(`?contextId=${tasks.stream.contextId}`)).toEqual(byTask);
    expect(await replayed(`?contextId=${tasks.agent.contextId}&types=task:event`)).toEqual(
      ofTask(await replayed('?types=task:event'), tasks.agent.id),
    );
  });

  it('a taskId filter follows the task live: the follow-up turn arrives', async () => {
    const watcher = await watchFeed(t, `?taskId=${tasks.agent.id}&types=task:event`);
    await ioUntil(() => watcher.messages.length === 3, 'the first turn');
    await restSend(t, '/agents/explore', ROUTE, 'flt-agent-2', { taskId: tasks.agent.id });
    await ioUntil(() => watcher.messages.length === 7, 'the follow-up turn');
    expect(watcher.messages.map((m: any) => m.event.seq)).toEqual(upTo(7));
    expect(watcher.messages.at(-1)!.payload.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    await watcher.close();
  });

  it('an unknown event type is refused with 400 before the upgrade', async () => {
    const refused = await refusal(watchFeed(t, '?types=task:event,task:exploded'));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('"task:exploded"'),
    });
  });
});

describe('watchers at once', () => {
  it(`serves ${MAX_WATCHERS}, refuses the next with 429 until one leaves, and counts no handshake that failed`, async () => {
    const t = await startSim();
    const watchers: Watcher[] = [];
    try {
      // Handshakes ws refuses (no Sec-WebSocket-Key) hold no place once their sockets close.
      for (let i = 0; i < 5; i++) {
        const answer = await rawHttp(t.url, 'GET', '/_sim/feed', {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
        });
        expect(answer.status).toBe(400);
      }
      for (let i = 0; i < MAX_WATCHERS; i++) watchers.push(await watchFeed(t));
      const refused = await refusal(watchFeed(t));
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error).toMatchObject({
        status: 'RESOURCE_EXHAUSTED',
        message: expect.stringContaining(`${MAX_WATCHERS} watchers`),
      });
      await watchers.pop()!.close();
      watchers.push(await watchFeed(t));
      expect((await getJson(t, '/_sim/health')).body.memory.feed.watchers).toBe(MAX_WATCHERS);
    } finally {
      await Promise.all(watchers.map((w) => w.close()));
      await t.close();
    }
  });
});
