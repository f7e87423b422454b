/**
 * How a replica reads the shared log, from a real `redis-server`: the writes it holds, each one
 * stream entry of one or more entries, and the single entries of logs written before batches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKeys } from '../../src/replica/keys.js';
import { SharedLogReader, type LogFollower } from '../../src/replica/log-reader.js';
import type { Entry } from '../../src/replica/mirror.js';
import { RedisLink } from '../../src/replica/redis.js';
import { readStoreUrl, type RedisStoreSettings } from '../../src/replica/store-url.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

let redis: RedisServer;
let link: RedisLink;
let settings: RedisStoreSettings;

beforeAll(async () => {
  redis = await startRedis();
  settings = readStoreUrl(`${redis.url}/0?prefix=reader:`) as RedisStoreSettings;
  link = await RedisLink.connect(settings);
});

afterAll(async () => {
  link?.close();
  await redis?.stop();
});

const request = (path: string): Entry => ({
  kind: 'request',
  request: { path } as Extract<Entry, { kind: 'request' }>['request'],
});

describe('the shared log reader', () => {
  it("applies each entry of another replica's writes with its count, old single entries too, and never its own", async () => {
    const { log } = storeKeys(settings.prefix);
    const writes: string[][] = [
      // A log written before batches: one entry a stream entry.
      ['r', 'b-replica', 'k', 'request', 'n', '1', 'd', JSON.stringify(request('/one'))],
      ['r', 'b-replica', 'n', '2', 'c', '2', 'b', JSON.stringify([request('/two'), request('/three')])],
      // Its own, applied when it made them: counted, not handed on.
      [
        'r',
        'a-replica',
        'n',
        '4',
        'c',
        '3',
        'b',
        JSON.stringify([request('/four'), request('/five'), request('/six')]),
      ],
      ['r', 'b-replica', 'n', '7', 'c', '1', 'b', JSON.stringify([request('/seven')])],
    ];
    let last = '';
    for (const fields of writes) last = (await link.requests.xadd(log, '*', ...fields))!;
    const applied: string[] = [];
    const follower: LogFollower = {
      applies: (from) => from !== 'a-replica',
      entry: (from, entry, covered) => {
        if (entry.kind === 'request') applied.push(`${from} ${entry.request.path} ${covered}`);
      },
      rebuild: () => Promise.reject(new Error('nothing was trimmed')),
      behind: () => {
        throw new Error('nothing was trimmed');
      },
    };
    const warnings: string[] = [];
    // Started after the last write: the log is one kept from before.
    const liveSince = Number(last.split('-')[0]) + 1;
    const reader = new SharedLogReader(link, log, follower, (message) => warnings.push(message), liveSince);
    reader.start();
    try {
      await reader.catchUp();
    } finally {
      reader.stop();
    }
    expect(applied).toEqual([
      'b-replica /one false',
      'b-replica /two false',
      'b-replica /three false',
      'b-replica /seven false',
    ]);
    // Entry 7 came after its own 4 to 6: no count was missing, nothing to rebuild. The single entry
    // was in the log before the reader started: no running replica wrote it.
    expect(warnings).toEqual([]);
  });

  it('names once a running replica that writes one entry at a time, as older versions did', async () => {
    const { log } = storeKeys('older:');
    const follower: LogFollower = {
      applies: () => true,
      entry: () => {},
      rebuild: () => Promise.reject(new Error('nothing was trimmed')),
      behind: () => {
        throw new Error('nothing was trimmed');
      },
    };
    const warnings: string[] = [];
    // A connection of its own: the last test's reader may still block on the other one.
    const own = await RedisLink.connect(settings);
    // Live since the epoch: every write is a running replica's.
    const reader = new SharedLogReader(own, log, follower, (message) => warnings.push(message), 0);
    reader.start();
    try {
      for (const n of ['1', '2']) {
        await link.requests.xadd(log, '*', 'r', 'old-replica', 'n', n, 'd', JSON.stringify(request(`/${n}`)));
        await reader.catchUp();
      }
      await link.requests.xadd(
        log,
        '*',
        'r',
        'new-replica',
        'n',
        '3',
        'c',
        '1',
        'b',
        JSON.stringify([request('/3')]),
      );
      await reader.catchUp();
    } finally {
      reader.stop();
      own.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('replica old-replica writes the shared log one entry at a time');
  });
});
