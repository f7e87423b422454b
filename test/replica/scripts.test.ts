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
  const common = [keys.log, keys.count, keys.bytes, keys.marks, keys.chaos, keys.tasks];
  const commonArgs = (replica: string) => [
    replica,
    settings.logSize,
    settings.logBytes,
    settings.entryBytes,
    settings.lease,
  ];
  /** One entry written alone: its count, or the reason it was refused, thrown. */
  const write = async (replica: string, entryKeys: string[], entryArgs: string[]) => {
    const all = [...common, ...entryKeys];
    const [answer] = (await requests.writeEntries(
      all.length,
      ...all,
      ...commonArgs(replica),
      ...entryArgs,
    )) as (number | string)[];
    if (typeof answer === 'string') throw new Error(answer);
    return answer;
  };
  const taskKeys = (taskId: string) => [keys.lease(taskId), keys.task(taskId), keys.events(taskId)];
  /** Entries written as one batch: each one's count, or the reason it was refused. */
  const batch = async (replica: string, entries: (readonly [readonly string[], readonly string[]])[]) => {
    const all = [...common, ...entries.flatMap(([entryKeys]) => entryKeys)];
    const args = [...commonArgs(replica), ...entries.flatMap(([, entryArgs]) => entryArgs)];
    return (await requests.writeEntries(all.length, ...all, ...args)) as (number | string)[];
  };
  return {
    batch,
    keys,
    requests,
    write,
    taskKeys,
    hold: async (replica: string, taskId: string) =>
      (
        (await requests.hold(2, keys.lease(taskId), keys.task(taskId), replica, settings.lease)) as number[]
      )[0],
    append: (replica: string, taskId: string, entry: Record<string, unknown> & { kind: string }) =>
      write(replica, taskKeys(taskId), ['append', entry.kind, JSON.stringify(entry), taskId]),
    /** A task's first event: takes the lease if free, and lists the task among the snapshots. */
    create: (replica: string, taskId: string) =>
      write(replica, taskKeys(taskId), ['create', 'event', JSON.stringify(event(taskId, 1)), taskId]),
    publish: (replica: string, data: string) =>
      write(replica, [keys.chaos, keys.chaos, keys.chaos], ['publish', 'request', data, '']),
    /**
     * What the log holds: the counts of its entries, in order; the bytes of their data; and the
     * stream entries, one a write, that carry them.
     */
    log: async () => {
      const writes = await requests.xrange(keys.log, '-', '+');
      const counts: number[] = [];
      let bytes = 0;
      for (const [, fields] of writes) {
        const field = (name: string) => fields[fields.indexOf(name) + 1]!;
        const [n, count, text] = [Number(field('n')), Number(field('c')), field('b')];
        for (let i = 0; i < count; i++) counts.push(n + i);
        // The texts, without the array's brackets and commas.
        bytes += text.length - 2 - (count - 1);
      }
      return { counts, bytes, writes: writes.length };
    },
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
    expect((await log()).counts).toEqual([1]);
  });

  it('keeps with each entry what a replica that fell behind rebuilds from', async () => {
    const { create, append, requests, publish } = await store();
    await publish('a', '{"kind":"request"}');
    await create('a', 't1');
    await append('a', 't1', { kind: 'turn', taskId: 't1', turn: { seed: 's', turn: 1 } });
    await create('a', 't2');
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

describe('a batch of entries', () => {
  it("creates a task by taking its free lease, never another replica's", async () => {
    const { create, hold, requests, keys } = await store();
    expect(await create('a', 't1')).toBe(1);
    expect(await requests.get(keys.lease('t1'))).toBe('a');
    expect(await hold('b', 't2')).toBe(1);
    await expect(create('a', 't2')).rejects.toThrow('LEASE_LOST held by b');
    expect(await requests.zrange(keys.tasks, 0, -1)).toEqual(['t1']);
  });

  it('answers each entry on its own: one refused does not stop the others', async () => {
    const { keys, taskKeys, hold, log, batch, requests } = await store('&entry-bytes=4KiB');
    expect(await hold('b', 't2')).toBe(1);
    const answers = await batch('a', [
      [taskKeys('t1'), ['create', 'event', JSON.stringify(event('t1', 1)), 't1']],
      [taskKeys('t2'), ['append', 'event', JSON.stringify(event('t2', 2)), 't2']],
      [
        [keys.chaos, keys.chaos, keys.chaos],
        ['publish', 'request', 'x'.repeat(4 * 1024 + 1), ''],
      ],
      [taskKeys('t1'), ['append', 'end', JSON.stringify({ kind: 'end', taskId: 't1' }), 't1']],
      [taskKeys('t2'), ['release', '', '', 't2']],
    ]);
    expect(answers).toEqual([
      1,
      'LEASE_LOST held by b',
      'ENTRY_TOO_BIG 4097 bytes, over entry-bytes 4096',
      2,
      0,
    ]);
    expect((await log()).counts).toEqual([1, 2]);
    // The end gave a's lease up; b's lease was not a's to release.
    expect(await requests.get(keys.lease('t1'))).toBeNull();
    expect(await requests.get(keys.lease('t2'))).toBe('b');
  });

  it("removes a task's snapshot in the batch with the entries before it: forget", async () => {
    const { keys, taskKeys, batch, requests } = await store();
    const answers = await batch('a', [
      [taskKeys('t1'), ['create', 'event', JSON.stringify(event('t1', 1)), 't1']],
      [taskKeys('t2'), ['create', 'event', JSON.stringify(event('t2', 1)), 't2']],
      [taskKeys('t1'), ['append', 'end', JSON.stringify({ kind: 'end', taskId: 't1' }), 't1']],
      [taskKeys('t1'), ['forget', '', '', 't1']],
    ]);
    expect(answers).toEqual([1, 2, 3, 0]);
    expect(await requests.exists(keys.task('t1'), keys.events('t1'))).toBe(0);
    expect(await requests.zrange(keys.tasks, 0, -1)).toEqual(['t2']);
    expect(await requests.llen(keys.events('t2'))).toBe(1);
  });

  it("refuses what follows a task's end or release in the same batch", async () => {
    const { taskKeys, batch, requests, keys } = await store();
    const turn = (taskId: string) => JSON.stringify({ kind: 'turn', taskId, turn: { seed: 's', turn: 1 } });
    const answers = await batch('a', [
      [taskKeys('t1'), ['create', 'event', JSON.stringify(event('t1', 1)), 't1']],
      [taskKeys('t1'), ['append', 'end', JSON.stringify({ kind: 'end', taskId: 't1' }), 't1']],
      [taskKeys('t1'), ['append', 'turn', turn('t1'), 't1']],
      [taskKeys('t2'), ['create', 'event', JSON.stringify(event('t2', 1)), 't2']],
      [taskKeys('t2'), ['release', '', '', 't2']],
      [taskKeys('t2'), ['append', 'turn', turn('t2'), 't2']],
    ]);
    expect(answers).toEqual([1, 2, 'LEASE_LOST the task has ended', 3, 0, 'LEASE_LOST no replica holds it']);
    expect(await requests.get(keys.count)).toBe('3');
  });
});

describe('a batch that fails halfway', () => {
  it('keeps the count with the entries it wrote, so the next ones do not reuse a count', async () => {
    const { create, batch, taskKeys, requests, keys, log } = await store();
    await create('a', 't1');
    // Made to fail after the entry is in the log: its task's events are not a list.
    await requests.set(keys.events('t2'), 'not a list');
    await expect(
      batch('a', [[taskKeys('t2'), ['create', 'event', JSON.stringify(event('t2', 1)), 't2']]]),
    ).rejects.toThrow('WRONGTYPE');
    expect(await requests.get(keys.count)).toBe('2');
    await create('a', 't3');
    expect((await log()).counts).toEqual([1, 2, 3]);
  });
});

describe('the log', () => {
  it('keeps about log-bytes, trimming the oldest entries past it', async () => {
    const { publish, log } = await store('&log-bytes=64KiB');
    const big = 'x'.repeat(4 * 1024);
    for (let i = 0; i < 100; i++) await publish('a', big);
    const { counts, bytes } = await log();
    // 400 KiB written; the budget, give or take one mark's step (1/32 of it) and an entry.
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(bytes).toBeGreaterThan(64 * 1024 - 2 * 1024 - 2 * big.length);
    expect(counts.at(-1)).toBe(100);
    expect(counts).toEqual(counts.map((_, i) => 100 - counts.length + 1 + i));
  });

  it('keeps about log-bytes when the entries come in batches', async () => {
    const { batch, log, keys, requests } = await store('&log-bytes=64KiB');
    const big = 'x'.repeat(4 * 1024);
    const entry = [
      [keys.chaos, keys.chaos, keys.chaos],
      ['publish', 'request', big, ''],
    ] as const;
    // Batches of a quarter of the budget, the most the writer makes (writer.ts).
    for (let i = 0; i < 25; i++)
      await batch(
        'a',
        Array.from({ length: 4 }, () => entry),
      );
    const { counts, bytes, writes } = await log();
    // Whole batches are kept or trimmed: at most a batch under the budget.
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(bytes).toBeGreaterThan(64 * 1024 - 2 * 1024 - 4 * big.length);
    expect(counts).toEqual(counts.map((_, i) => 100 - counts.length + 1 + i));
    expect(writes).toBe(counts.length / 4);
    expect(await requests.get(keys.count)).toBe('100');
    expect(Number(await requests.get(keys.bytes))).toBe(
      100 * (big.length + 'a'.length + 'request'.length + 64),
    );
  });

  it('refuses an entry over entry-bytes, adding nothing', async () => {
    const { publish, log, requests, keys } = await store('&log-bytes=64KiB&entry-bytes=4KiB');
    await publish('a', 'small');
    await expect(publish('a', 'x'.repeat(4 * 1024 + 1))).rejects.toThrow('ENTRY_TOO_BIG 4097 bytes');
    await publish('a', 'x'.repeat(4 * 1024));
    expect((await log()).counts).toEqual([1, 2]);
    expect(await requests.get(keys.count)).toBe('2');
  });
});

describe('the repeat counts', () => {
  /** Counts one more of each base, `most` bases a generation. */
  const counter = async () => {
    const { requests, keys } = await store();
    const count = async (most: number, ...bases: string[]) =>
      (await requests.countOccurrences(
        2,
        keys.occurrences,
        keys.previousOccurrences,
        most,
        ...bases,
      )) as number[];
    const held = async () =>
      (await requests.hlen(keys.occurrences)) + (await requests.hlen(keys.previousOccurrences));
    return { count, held };
  };

  it('counts each base on, across a generation, and forgets those not repeated for two', async () => {
    const { count } = await counter();
    expect(await count(3, 'a', 'a', 'b')).toEqual([1, 2, 1]);
    // The third base fills the generation: it becomes the previous one.
    expect(await count(3, 'c')).toEqual([1]);
    // Repeated, a base carries its count on into the new generation.
    expect(await count(3, 'a', 'd', 'e')).toEqual([3, 1, 1]);
    // b was in neither of the last two generations: it starts again.
    expect(await count(3, 'b', 'a')).toEqual([1, 4]);
  });

  it('holds at most two generations of bases, however many distinct requests come', async () => {
    const { count, held } = await counter();
    for (let i = 0; i < 50; i++) await count(10, ...Array.from({ length: 20 }, (_, j) => `base-${i}-${j}`));
    expect(await held()).toBeLessThanOrEqual(20);
  });
});
