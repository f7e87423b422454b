/**
 * The scripts that write the shared log, run in a real `redis-server`: who may write about a task,
 * and how much the log keeps. Each test has a key prefix of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKeys } from '../../src/replica/keys.js';
import { RedisLink } from '../../src/replica/redis.js';
import { readSnapshot } from '../../src/replica/snapshot.js';
import { readStoreUrl, type RedisStoreSettings } from '../../src/replica/store-url.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
const links: RedisLink[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const link of links) link.close();
  await redis?.stop();
});

/** A connection with the scripts, and the calls of two replicas, `a` and `b`, through them. */
async function store(query = '') {
  const settings = readStoreUrl(
    `${redis.url}/0?prefix=t${++prefixes}:&lease=10s${query}`,
  ) as RedisStoreSettings;
  const link = await RedisLink.connect(settings);
  links.push(link);
  const { requests } = link;
  const keys = storeKeys(settings.prefix);
  const logKeys = [keys.log, keys.count, keys.bytes, keys.marks];
  const logArgs = (replica: string, kind: string, data: string) => [
    replica,
    settings.logSize,
    settings.logBytes,
    settings.entryBytes,
    kind,
    data,
  ];
  return {
    keys,
    requests,
    hold: async (replica: string, taskId: string) =>
      (
        (await requests.hold(2, keys.lease(taskId), keys.task(taskId), replica, settings.lease)) as number[]
      )[0],
    append: (replica: string, taskId: string, entry: Record<string, unknown> & { kind: string }) => {
      const all = [...logKeys, keys.lease(taskId), keys.task(taskId), keys.events(taskId), keys.tasks];
      const creates = entry.kind === 'event' && (entry.event as { seq: number }).seq === 1;
      const args = [...logArgs(replica, entry.kind, JSON.stringify(entry)), taskId, creates ? '1' : ''];
      return requests.appendHeld(all.length, ...all, ...args);
    },
    publish: (replica: string, data: string) => {
      const all = [...logKeys, keys.chaos, keys.chaos, keys.chaos];
      return requests.publish(all.length, ...all, ...logArgs(replica, 'request', data), '');
    },
    /** The log's entries: their counts and the bytes of their data. */
    log: async () =>
      (await requests.xrange(keys.log, '-', '+')).map(([, fields]) => ({
        n: Number(fields[fields.indexOf('n') + 1]),
        bytes: fields[fields.indexOf('d') + 1]!.length,
      })),
  };
}

const event = (taskId: string, seq: number) => ({
  kind: 'event',
  ...(seq === 1 && { place: {}, scenario: 'weather' }),
  event: {
    seq,
    taskId,
    contextId: 'c1',
    atMs: seq,
    event:
      seq === 1
        ? { kind: 'task', task: { id: taskId, contextId: 'c1', status: { state: 'submitted' } } }
        : { kind: 'status', status: { state: 'completed' } },
  },
});

describe('the lease scripts', () => {
  it('never let a replica take the lease of an ended task again, nor write about it', async () => {
    const { hold, append, requests, keys } = await store();
    expect(await hold('a', 't1')).toBe(1);
    await append('a', 't1', event('t1', 1));
    await append('a', 't1', event('t1', 2));
    await append('a', 't1', { kind: 'end', taskId: 't1' });
    // The end gave the lease up: free, and still no one's to take.
    expect(await requests.get(keys.lease('t1'))).toBeNull();
    expect(await hold('b', 't1')).toBe(-1);
    expect(await requests.get(keys.lease('t1'))).toBeNull();
    await expect(append('b', 't1', event('t1', 2))).rejects.toThrow('LEASE_LOST the task has ended');
    await expect(append('a', 't1', event('t1', 3))).rejects.toThrow('LEASE_LOST the task has ended');
    expect(await requests.llen(keys.events('t1'))).toBe(2);
  });

  it('refuses an append by a replica that does not hold the lease, and never takes a free one', async () => {
    const { hold, append, requests, keys, log } = await store();
    await expect(append('a', 't1', event('t1', 1))).rejects.toThrow('LEASE_LOST no replica holds it');
    expect(await requests.get(keys.lease('t1'))).toBeNull();
    expect(await hold('b', 't1')).toBe(1);
    await expect(append('a', 't1', event('t1', 1))).rejects.toThrow('LEASE_LOST held by b');
    expect(await requests.get(keys.lease('t1'))).toBe('b');
    expect(await hold('a', 't1')).toBe(0);
    await append('b', 't1', event('t1', 1));
    expect((await log()).map((e) => e.n)).toEqual([1]);
  });

  it('keeps with each entry what a replica that fell behind rebuilds from', async () => {
    const { hold, append, requests, publish } = await store();
    await publish('a', '{"kind":"request"}');
    expect(await hold('a', 't1')).toBe(1);
    await append('a', 't1', event('t1', 1));
    await append('a', 't1', { kind: 'turn', taskId: 't1', turn: { seed: 's', turn: 1 } });
    expect(await hold('a', 't2')).toBe(1);
    await append('a', 't2', event('t2', 1));
    await append('a', 't2', event('t2', 2));
    await append('a', 't2', { kind: 'end', taskId: 't2' });
    const snapshot = await readSnapshot(requests, storeKeys(`t${prefixes}:`));
    expect(snapshot.covers).toBe(6);
    expect(snapshot.tasks.map((t) => [t.taskId, t.events.length, t.ended, t.play?.player])).toEqual([
      ['t1', 1, false, 'a'],
      ['t2', 2, true, undefined],
    ]);
  });
});

describe('the log', () => {
  it('keeps about log-bytes, trimming the oldest entries past it', async () => {
    const { publish, log } = await store('&log-bytes=64KiB');
    const big = 'x'.repeat(4 * 1024);
    for (let i = 0; i < 100; i++) await publish('a', big);
    const kept = await log();
    const bytes = kept.reduce((sum, e) => sum + e.bytes, 0);
    // 400 KiB written; the budget, give or take one mark's step (1/32 of it) and an entry.
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(bytes).toBeGreaterThan(64 * 1024 - 2 * 1024 - 2 * big.length);
    expect(kept.at(-1)!.n).toBe(100);
    expect(kept.map((e) => e.n)).toEqual(kept.map((_, i) => 100 - kept.length + 1 + i));
  });

  it('refuses an entry over entry-bytes, adding nothing', async () => {
    const { publish, log, requests, keys } = await store('&log-bytes=64KiB&entry-bytes=4KiB');
    await publish('a', 'small');
    await expect(publish('a', 'x'.repeat(4 * 1024 + 1))).rejects.toThrow('ENTRY_TOO_BIG 4097 bytes');
    await publish('a', 'x'.repeat(4 * 1024));
    expect((await log()).map((e) => e.n)).toEqual([1, 2]);
    expect(await requests.get(keys.count)).toBe('2');
  });
});
