/**
 * A replica that falls behind the shared log: paused (SIGSTOP) while the others play its tasks and
 * the log is trimmed past what it had read, then let go on (SIGCONT). It must not serve what it
 * had: it refuses until it has rebuilt from the store, then answers as the others do.
 */
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { getSse, SseReader, type SseEvent } from '../helpers/sse.js';
import {
  admin,
  callJson,
  cursorHeader,
  getJson,
  postJson,
  RETURN_IMMEDIATELY,
  V1_HEADERS,
  v1Send,
} from '../helpers/wire.js';

const REPORT = 'Write a long report on climate change';
const TASKS = 20;
/** More than the entries of one write: what C's read waiting at the stop can bring it. */
const READ_WHILE_STOPPED = 100;
/** The replica's reads count as stale past 3 s; the pause outlasts that. */
const PAUSE_MS = 3_500;

let redis: RedisServer;
let client: Redis;
const processes: ReturnType<typeof serve>[] = [];

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis({ port: redis.port, host: '127.0.0.1' });
});

afterAll(async () => {
  client?.disconnect();
  await Promise.all(processes.map((p) => p.stop()));
  await redis?.stop();
});

describe('a replica paused past the trim of the shared log', () => {
  it('refuses until rebuilt, then serves the true final states; a cut stream resumes to the end', async () => {
    const prefix = 'behind:';
    const store = `${redis.url}/0?prefix=${prefix}&lease=500ms&log=100`;
    const started = [0, 1, 2].map(() =>
      serve([
        'serve',
        '--port',
        '0',
        '--store',
        store,
        '--seed',
        'behind',
        '--speed',
        '10',
        '--log-level',
        'warn',
      ]),
    );
    processes.push(...started);
    const [a, b, c] = await Promise.all(started.map((p) => p.url));
    const paused = started[2]!;
    const name = (await admin(c!, 'GET', '/health')).body.store.replica as string;
    const pid = Number(/-(\d+)-[0-9a-f]{4}$/.exec(name)![1]);

    // Tasks started through each replica in turn: C plays some of them when it stops.
    const targets = [a!, b!, c!];
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const sent = await postJson(
        targets[i % 3]!,
        '/message:send',
        v1Send(REPORT, {}, RETURN_IMMEDIATELY),
        V1_HEADERS,
      );
      ids.push(sent.body.task.id as string);
    }
    // A client follows a task on C from its start.
    const followed = new SseReader(
      await fetch(`${c}/tasks/${ids[0]}:subscribe`, {
        headers: { Accept: 'text/event-stream', ...V1_HEADERS, ...cursorHeader(0) },
      }),
    );
    const before: SseEvent[] = [(await followed.next())!];

    const count = async () => Number(await client.get(`${prefix}log:count`));
    const readUpTo = await count();
    process.kill(pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    try {
      const states = () =>
        Promise.all(ids.map(async (id) => (await getJson(a!, `/tasks/${id}`, V1_HEADERS)).body.status.state));
      await until(async () => (await states()).every((s) => s === 'TASK_STATE_COMPLETED'));
      // More entries until the log no longer holds one that C never saw. The read C had waiting when
      // it stopped is answered meanwhile, with the entries of the first write after the stop (a
      // send's, ~10): those reach C when it goes on, so the log must have lost entries past them.
      const oldest = async () => {
        const [first] = await client.xrange(`${prefix}log`, '-', '+', 'COUNT', 1);
        return Number(first![1][first![1].indexOf('n') + 1]);
      };
      await until(async () => {
        if ((await oldest()) > readUpTo + 1 + READ_WHILE_STOPPED) return true;
        await postJson(a!, '/message:send', v1Send('What is the weather today?'), V1_HEADERS);
        return false;
      });
      await until(async () => Date.now() - stoppedAt > PAUSE_MS);
    } catch (error) {
      process.kill(pid, 'SIGCONT');
      throw error;
    }
    // Asked while C is still stopped, answered as soon as it runs: before it could rebuild.
    const first = await askedBeforeResuming(`${c}/_sim/health`, () => process.kill(pid, 'SIGCONT'));
    expect(first.status).toBe(503);
    expect(first.body.status).toBe('store-behind');

    // Until C answers health with 200, every call is refused; from then on it answers what A does.
    await until(async () => {
      const healthy = (await callJson(c!, 'GET', '/_sim/health')).status === 200;
      const got = await getJson(c!, `/tasks/${ids[1]}`, V1_HEADERS);
      if (got.status !== 200) {
        expect(got.status).toBe(503);
        expect(got.body.error.status).toBe('UNAVAILABLE');
      }
      return healthy;
    });
    for (const id of ids) {
      const [onA, onB, onC] = [
        await getJson(a!, `/tasks/${id}`, V1_HEADERS),
        await getJson(b!, `/tasks/${id}`, V1_HEADERS),
        await getJson(c!, `/tasks/${id}`, V1_HEADERS),
      ];
      expect(onC.status).toBe(200);
      expect(onC.body).toEqual(onA.body);
      expect(onB.body).toEqual(onA.body);
      expect(onC.body.status.state).toBe('TASK_STATE_COMPLETED');
      // Each seq written once, whoever played the task and whoever took it over.
      const seqs = (await client.lrange(`${prefix}events:${id}`, 0, -1)).map((e) => JSON.parse(e).event.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    expect(paused.stderr()).toContain('fell behind the shared log');

    // The stream C served when it stopped ended with the error rather than hang; resumed on C from
    // its last event, it reaches the end with no gap and no duplicate.
    const cut = [...before, ...(await followed.rest())];
    expect(cut.at(-1)!.json.error.status).toBe('UNAVAILABLE');
    const delivered = cut.filter((e) => e.id !== undefined);
    const rest = await (
      await getSse(`${c}/tasks/${ids[0]}:subscribe`, {
        ...V1_HEADERS,
        ...cursorHeader(Number(delivered.at(-1)!.id)),
      })
    ).rest();
    const seqs = [...delivered, ...rest].map((e) => Number(e.id));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(rest.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('a replica started after the shared log was trimmed', () => {
  it('reads the tasks from the store first, and serves every one of them', async () => {
    const prefix = 'late:';
    const store = `${redis.url}/0?prefix=${prefix}&lease=500ms&log=100`;
    const args = ['serve', '--port', '0', '--store', store, '--seed', 'late', '--speed', '100'];
    args.push('--log-level', 'warn');
    const first = serve(args);
    processes.push(first);
    const a = await first.url;
    const ids: string[] = [];
    const oldest = async () => {
      const [entry] = await client.xrange(`${prefix}log`, '-', '+', 'COUNT', 1);
      return entry ? Number(entry[1][entry[1].indexOf('n') + 1]) : 1;
    };
    // Tasks until the log no longer holds its first entry.
    for (let sent = 0; sent < 500 && (await oldest()) === 1; sent++) {
      const { body } = await postJson(a, '/message:send', v1Send('What is the weather today?'), V1_HEADERS);
      ids.push(body.task.id as string);
    }
    expect(await oldest()).toBeGreaterThan(1);
    const late = serve(args);
    processes.push(late);
    const b = await late.url;
    const listed = (await getJson(b, '/tasks?pageSize=100', V1_HEADERS)).body.tasks as { id: string }[];
    expect(listed.map((t) => t.id).sort()).toEqual([...ids].sort());
    for (const id of [ids[0]!, ids.at(-1)!]) {
      const [onA, onB] = [
        await getJson(a, `/tasks/${id}`, V1_HEADERS),
        await getJson(b, `/tasks/${id}`, V1_HEADERS),
      ];
      expect(onB.body).toEqual(onA.body);
    }
  });
});

/** GETs `url`, calls `resume` once the request is with the kernel, and answers the response. */
function askedBeforeResuming(url: string, resume: () => void): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const asked = request(url, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    asked.on('error', reject);
    asked.on('finish', resume);
    asked.end();
  });
}

/** Polls `condition` until it holds, for at most 20 s: the processes have no event to wait on from here. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the condition did not hold within 20 s');
}
