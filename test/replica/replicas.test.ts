/**
 * Several simulator processes (the built CLI) sharing one real `redis-server`: whichever replica a
 * call reaches, the simulator behaves as one agent. Each test's simulator has a key prefix of its
 * own, so tests share the Redis without seeing each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { serve } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { getSse, postSse, SseReader, type SseEvent } from '../helpers/sse.js';
import {
  admin,
  callJson,
  cursorHeader,
  getJson,
  postForStream,
  postJson,
  RETURN_IMMEDIATELY,
  V1_HEADERS,
  v1Send,
} from '../helpers/wire.js';

const SEED = 'replicas';
const SPEED = '10';
const REPORT = 'Write a long report on climate change';

let redis: RedisServer;
const processes: ReturnType<typeof serve>[] = [];
let simulators = 0;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await redis?.stop();
});

/** `count` replicas of one simulator, each its own process, sharing the test's Redis. */
async function replicas(count: number, lease = '500ms') {
  const prefix = `sim${++simulators}:`;
  const store = `${redis.url}/0?prefix=${prefix}&lease=${lease}`;
  const started = Array.from({ length: count }, () =>
    serve([
      'serve',
      '--port',
      '0',
      '--store',
      store,
      '--seed',
      SEED,
      '--speed',
      SPEED,
      '--log-level',
      'warn',
    ]),
  );
  processes.push(...started);
  const urls = await Promise.all(started.map((p) => p.url));
  return { urls, processes: started, prefix };
}

/** One memory-store simulator with the replicas' seed and speed: what they must add up to. */
async function memorySimulator(): Promise<Simulator> {
  return createSimulator({ port: 0, seed: SEED, speed: Number(SPEED), logLevel: 'silent' });
}

/** The seqs of a stream's events, from their SSE ids. */
const seqsOf = (events: SseEvent[]) => events.map((e) => Number(e.id));

/**
 * Resumes the task of the stream `before` began, on `target`, after `before`'s last event, and
 * reads to the end: the whole stream as the client got it.
 */
async function resumeToEnd(target: string, before: SseEvent[]): Promise<SseEvent[]> {
  const taskId = before[0]!.json.task.id as string;
  const cursor = cursorHeader(Number(before.at(-1)!.id));
  const after = await (
    await getSse(`${target}/tasks/${taskId}:subscribe`, { ...V1_HEADERS, ...cursor })
  ).rest();
  return [...before, ...after];
}

/** A stream that lost nothing: seqs 1, 2, … each once, to the task's completion. */
function expectWholeStream(events: SseEvent[]): void {
  expect(seqsOf(events)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
}

/** An event as content: what it says without the times it was said at. */
function content(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'timestamp' ? undefined : v)));
}

describe('replicas sharing a Redis store', () => {
  it('a task made through one replica is read, listed, cancelled and followed through another', async () => {
    const {
      urls: [a, b],
    } = await replicas(2);
    const sent = await postJson(a!, '/message:send', v1Send(REPORT, {}, RETURN_IMMEDIATELY), V1_HEADERS);
    expect(sent.status).toBe(200);
    const id = sent.body.task.id as string;

    const got = await getJson(b!, `/tasks/${id}`, V1_HEADERS);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(id);
    const listed = await getJson(b!, '/tasks', V1_HEADERS);
    expect(listed.body.tasks.map((t: { id: string }) => t.id)).toEqual([id]);

    const canceled = await postJson(b!, `/tasks/${id}:cancel`, {}, V1_HEADERS);
    expect(canceled.status).toBe(200);
    // The replica that plays the task carries the cancel out; B follows the task to its end.
    const events = await (
      await getSse(`${b}/tasks/${id}:subscribe`, { ...V1_HEADERS, ...cursorHeader(0) })
    ).rest();
    const last = events.at(-1)!.json;
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
    expect(JSON.stringify(last)).toContain('Report generation canceled');
    expect((await getJson(a!, `/tasks/${id}`, V1_HEADERS)).body.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('a task waiting for input on one replica is cancelled through another, and seen ended by both', async () => {
    const {
      urls: [a, b],
    } = await replicas(2);
    const asked = await postJson(a!, '/message:send', v1Send('Book me a flight'), V1_HEADERS);
    expect(asked.body.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const id = asked.body.task.id as string;
    const waiting = (await admin(a!, 'GET', `/tasks/${id}`)).body.latestSeq as number;
    expect((await postJson(b!, `/tasks/${id}:cancel`, {}, V1_HEADERS)).status).toBe(200);
    // The cancel takes the scenario's delay to take effect, on the replica that takes the task:
    // A follows the task from where it waited until it ends.
    const rest = await (
      await getSse(`${a}/tasks/${id}:subscribe`, { ...V1_HEADERS, ...cursorHeader(waiting) })
    ).rest();
    expect(rest.map((e) => e.json.statusUpdate?.status.state)).toEqual(['TASK_STATE_CANCELED']);
    for (const target of [a!, b!]) {
      const { events } = (await admin(target, 'GET', `/tasks/${id}`)).body as { events: any[] };
      const states = events.filter((e) => e.event.kind === 'status').map((e) => e.event.status.state);
      expect(states).toEqual(['working', 'input-required', 'canceled']);
    }
    // Ended for every replica: a follow-up is refused on both.
    for (const target of [a!, b!]) {
      const followUp = await postJson(
        target,
        '/message:send',
        v1Send('From Paris to Rome', { taskId: id }),
        V1_HEADERS,
      );
      expect(followUp.body.error.message).toContain('already canceled');
    }
  });

  it('a stream cut on one replica resumes on another with every event exactly once', async () => {
    const {
      urls: [a, b],
    } = await replicas(2);
    const cut = new AbortController();
    const first = new SseReader(
      await postForStream(a!, '/message:stream', v1Send(REPORT), V1_HEADERS, cut.signal),
    );
    const before = [
      (await first.next())!,
      (await first.next())!,
      (await first.next())!,
      (await first.next())!,
    ];
    cut.abort();
    const events = await resumeToEnd(b!, before);
    expectWholeStream(events);
    // What the client saw is the task's log as the replica that played it kept it.
    const taskId = before[0]!.json.task.id as string;
    const log = (await admin(a!, 'GET', `/tasks/${taskId}`)).body.events as { seq: number }[];
    expect(log.map((e) => e.seq)).toEqual(seqsOf(events));
  });

  it('when a replica dies mid-stream, another takes its task over and the resume reaches the end with no gap and no duplicate', async () => {
    const {
      urls: [a, b],
      processes: [playing],
    } = await replicas(2);
    const message = { messageId: 'takeover-1' };
    const first = await postSse(`${a}/message:stream`, v1Send(REPORT, message), V1_HEADERS);
    const before = [(await first.next())!, (await first.next())!, (await first.next())!];
    await playing!.kill('SIGKILL');
    const events = await resumeToEnd(b!, before);
    expectWholeStream(events);

    // The script went on where it was: the same events one process alone gives, time aside.
    const memory = await memorySimulator();
    try {
      const alone = await (
        await postSse(`${memory.url}/message:stream`, v1Send(REPORT, message), V1_HEADERS)
      ).rest();
      expect(events.map((e) => content(e.json))).toEqual(alone.map((e) => content(e.json)));
    } finally {
      await memory.close();
    }
  });

  it('a replica stopped cleanly gives its leases up, and another plays its task to the end', async () => {
    // A lease far longer than the test's wait: only a lease given up is free when the stop returns.
    const {
      urls: [a, b],
      processes: [stopping],
      prefix,
    } = await replicas(2, '6s');
    const leaving = (await admin(a!, 'GET', '/health')).body.store.replica as string;
    const first = await postSse(`${a}/message:stream`, v1Send(REPORT), V1_HEADERS);
    const before = [(await first.next())!, (await first.next())!];
    const taskId = before[0]!.json.task.id as string;
    const lease = () => redis.get(`${prefix}lease:${taskId}`);
    expect(await lease()).toBe(leaving);
    expect(await stopping!.stop()).toBe(0);
    expect(await lease()).not.toBe(leaving);
    expectWholeStream(await resumeToEnd(b!, before));
  });

  it('gives the ids and content one memory-store process gives for the same seed and requests', async () => {
    const { urls } = await replicas(2);
    const memory = await memorySimulator();
    /** The same conversation, each call to the next replica in turn. */
    const converse = async (target: (n: number) => string) => {
      const answers: unknown[] = [];
      const send = async (n: number, text: string, message: Record<string, unknown>) => {
        const { body } = await postJson(target(n), '/message:send', v1Send(text, message), V1_HEADERS);
        answers.push(content(body));
        return body;
      };
      await send(0, 'What is the weather today?', { messageId: 'ids-1' });
      const booking = await send(1, 'Book me a flight', { messageId: 'ids-2' });
      await send(2, 'From Paris to Rome', { messageId: 'ids-3', taskId: booking.task.id });
      await send(3, 'What is the weather today?', { messageId: 'ids-1' });
      await send(4, 'Hello there', { messageId: 'ids-4' });
      return answers;
    };
    try {
      const shared = await converse((n) => urls[n % urls.length]!);
      const alone = await converse(() => memory.url);
      expect(shared).toEqual(alone);
      expect(JSON.stringify(shared)).toContain('TASK_STATE_COMPLETED');
    } finally {
      await memory.close();
    }
  });

  it('applies a reset and a chaos change made through one replica to all, and shows every replica the journal and push configs', async () => {
    const {
      urls: [a, b],
    } = await replicas(2);
    const sent = await postJson(a!, '/message:send', v1Send('What is the weather today?'), V1_HEADERS);
    // A request is journaled once its response is done, after the client has read the answer.
    const shownOnB = async () => {
      const requests = (await admin(b!, 'GET', '/requests')).body.requests as {
        taskId?: string;
        replica?: string;
      }[];
      return requests.find((r) => r.taskId === sent.body.task.id);
    };
    await until(async () => (await shownOnB()) !== undefined);
    expect((await shownOnB())?.replica).toMatch(/\S/);

    const taskId = sent.body.task.id as string;
    const hook = { url: 'http://127.0.0.1:9/hook', id: 'hook-1' };
    expect((await postJson(a!, `/tasks/${taskId}/pushNotificationConfigs`, hook, V1_HEADERS)).status).toBe(
      201,
    );
    const configs = await getJson(b!, `/tasks/${taskId}/pushNotificationConfigs`, V1_HEADERS);
    expect(configs.body.configs.map((c: { id: string }) => c.id)).toEqual(['hook-1']);

    expect((await admin(a!, 'PUT', '/chaos', { chaos: 'flaky-mobile' })).status).toBe(200);
    expect((await admin(b!, 'GET', '/chaos')).body.active).toBe('flaky-mobile');
    expect((await admin(b!, 'PUT', '/chaos', { chaos: null })).status).toBe(200);
    expect((await admin(a!, 'GET', '/chaos')).body.active).toBeNull();

    expect((await admin(b!, 'POST', '/reset')).body.removed).toBe(1);
    expect((await admin(a!, 'GET', '/tasks')).body.tasks).toEqual([]);
    expect((await getJson(a!, `/tasks/${sent.body.task.id}`, V1_HEADERS)).status).toBe(404);
    // Presence is renewed every third of a lease: the newest replica may not be counted yet.
    await until(async () => (await admin(a!, 'GET', '/health')).body.store.replicas === 2);
    expect((await admin(a!, 'GET', '/health')).body.store).toMatchObject({ kind: 'redis', up: true });
  });
});

describe('a Redis that goes away', () => {
  it('makes calls fail with the protocol error and health say so, until it is back', async () => {
    const {
      urls: [a, b],
    } = await replicas(2);
    await redis.stop();
    try {
      const rest = await postJson(a!, '/message:send', v1Send('What is the weather today?'), V1_HEADERS);
      expect(rest.status).toBe(503);
      expect(rest.body.error.status).toBe('UNAVAILABLE');
      expect(rest.body.error.message).toContain('shared store');
      expect(rest.headers.get('retry-after')).toBe('1');
      const rpc = await postJson(
        b!,
        '/',
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'GetTask',
          params: { id: 'any' },
        },
        V1_HEADERS,
      );
      expect(rpc.body.error.code).toBe(-32000);
      const health = await callJson(a!, 'GET', '/_sim/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'store-unavailable', store: { up: false } });
    } finally {
      await redis.start();
    }
    // Back: the replicas reconnect by themselves.
    await until(async () => (await callJson(a!, 'GET', '/_sim/health')).status === 200);
    await until(async () => (await callJson(b!, 'GET', '/_sim/health')).status === 200);
    const sent = await postJson(a!, '/message:send', v1Send('What is the weather today?'), V1_HEADERS);
    expect(sent.status).toBe(200);
    expect((await getJson(b!, `/tasks/${sent.body.task.id}`, V1_HEADERS)).body.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });
});

/** Polls `condition` until it holds: a reconnect has no event to wait on from outside the process. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the condition did not hold within 10 s');
}
