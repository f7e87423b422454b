/**
 * The replica's writer, against a stand-in for the Redis connection that records its calls: how
 * entries are batched, and when a batch leaves against what node:http sends to clients.
 */
import { describe, expect, it } from 'vitest';
import { storeKeys } from '../../src/replica/keys.js';
import type { Entry } from '../../src/replica/mirror.js';
import type { ScriptedRedis } from '../../src/replica/redis.js';
import { readStoreUrl, type RedisStoreSettings } from '../../src/replica/store-url.js';
import { LogWriter } from '../../src/replica/writer.js';
import { createLogger } from '../../src/lib/log.js';

const settings = readStoreUrl('redis://127.0.0.1:6379/0?prefix=w:') as RedisStoreSettings;
const COMMON_KEYS = 6;
const COMMON_ARGS = 5;

/** A writer whose script calls are recorded in `order` as "redis N" (N entries), answered by `answer`. */
function writer(
  answer: (ops: string[]) => (number | string)[] = (ops) => ops.map((_, i) => i + 1),
  storeSettings = settings,
) {
  const order: string[] = [];
  const refused: string[] = [];
  const errors: string[] = [];
  const redis = {
    writeEntries: async (keyCount: number, ...rest: (string | number)[]) => {
      const args = rest.slice(keyCount + COMMON_ARGS);
      const ops = args.filter((_, i) => i % 4 === 0) as string[];
      expect(keyCount).toBe(COMMON_KEYS + ops.length * 3);
      order.push(`redis ${ops.join(',')}`);
      return answer(ops);
    },
  } as unknown as ScriptedRedis;
  const logger = createLogger({ level: 'error', format: 'json', write: (line) => errors.push(line) });
  const log = new LogWriter(redis, storeKeys(storeSettings.prefix), storeSettings, 'a', logger, (taskId) =>
    refused.push(taskId),
  );
  return { log, order, refused, errors };
}

const created = (taskId: string): Entry => ({
  kind: 'event',
  event: {
    seq: 1,
    taskId,
    contextId: 'c',
    atMs: 0,
    event: {
      kind: 'task',
      task: {
        id: taskId,
        contextId: 'c',
        status: { state: 'submitted', timestamp: '' },
        artifacts: [],
        history: [],
      },
    },
  },
});

describe('the replica writer', () => {
  it('sends what one run wrote as one batch, at the tick node:http sends what the run wrote to clients', async () => {
    const { log, order } = writer();
    log.appendHeld('t1', created('t1'));
    // A response written after the append: node:http sends it at the next tick.
    process.nextTick(() => order.push('client'));
    log.appendHeld('t1', { kind: 'turn', taskId: 't1', turn: {} as never });
    log.publish({ kind: 'cancel', taskId: 't2' }, 't2');
    log.release('t3');
    await log.flushed();
    expect(order).toEqual(['redis create,append,publish,release', 'client']);
  });

  it('weighs a batch in the bytes the log counts, not in characters: at most a quarter of log-bytes', async () => {
    const small = readStoreUrl('redis://127.0.0.1:6379/0?prefix=w:&log-bytes=64KiB') as RedisStoreSettings;
    const { log, order, errors } = writer(undefined, small);
    // ~6 KB each in UTF-8, ~2 K characters: three are 18 KB, over the quarter's 16 KiB.
    const request = (n: number): Entry => ({
      kind: 'request',
      request: { path: `/${n}`, body: '中'.repeat(2_000) } as Extract<Entry, { kind: 'request' }>['request'],
    });
    for (let n = 0; n < 3; n++) log.publish(request(n));
    await log.flushed();
    expect(errors).toEqual([]);
    expect(order).toEqual(['redis publish,publish', 'redis publish']);
  });

  it('sends what a later run wrote as a batch of its own', async () => {
    const { log, order } = writer();
    log.appendHeld('t1', created('t1'));
    await new Promise((resolve) => setImmediate(resolve));
    log.appendHeld('t1', { kind: 'end', taskId: 't1' });
    await log.flushed();
    expect(order).toEqual(['redis create', 'redis append']);
  });

  it('loses the task of an entry whose lease was refused, and logs any other refusal', async () => {
    const { log, refused, errors } = writer(() => ['LEASE_LOST held by b', 1, 'ENTRY_TOO_BIG 9 bytes']);
    log.appendHeld('t1', created('t1'));
    log.appendHeld('t2', created('t2'));
    log.publish({ kind: 'cancel', taskId: 't3' }, 't3');
    await log.flushed();
    expect(refused).toEqual(['t1']);
    expect(errors.join('\n')).toContain('a write to the store failed: ENTRY_TOO_BIG 9 bytes');
  });

  it('logs an answer it cannot read, once for the batch, and what waits on the batch still goes on', async () => {
    const { log, errors } = writer(() => 'OK' as never);
    log.appendHeld('t1', created('t1'));
    log.appendHeld('t2', created('t2'));
    await log.flushed();
    expect(errors.join('\n')).toContain('a write to the store failed');
    expect(errors).toHaveLength(1);
  });
});
