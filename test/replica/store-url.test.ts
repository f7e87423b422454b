/** `--store` as the user writes it, and what a store that cannot be used does to the start. */
import { describe, expect, it } from 'vitest';
import { readStoreUrl } from '../../src/replica/store-url.js';
import { createSimulator } from '../../src/index.js';
import { serveRefused } from '../helpers/cli.js';

describe('--store', () => {
  it('reads memory, and a Redis URL with its database and sharing parameters', () => {
    expect(readStoreUrl('memory')).toEqual({ kind: 'memory' });
    expect(readStoreUrl('redis://cache.internal')).toMatchObject({
      kind: 'redis',
      host: 'cache.internal',
      port: 6379,
      db: 0,
      prefix: 'a2a-sim:',
      lease: 3_000,
      logSize: 200_000,
      logBytes: 256 * 1024 ** 2,
      entryBytes: 8 * 1024 ** 2,
    });
    expect(
      readStoreUrl(
        'redis://u:s3cret@10.0.0.5:6380/2?prefix=demo:&lease=1500ms&log=5000&log-bytes=64MiB&entry-bytes=2MiB',
      ),
    ).toMatchObject({
      shown:
        'redis://u:***@10.0.0.5:6380/2?prefix=demo:&lease=1500ms&log=5000&log-bytes=64MiB&entry-bytes=2MiB',
      port: 6380,
      db: 2,
      username: 'u',
      password: 's3cret',
      prefix: 'demo:',
      lease: 1_500,
      logSize: 5_000,
      logBytes: 64 * 1024 ** 2,
      entryBytes: 2 * 1024 ** 2,
    });
    // A small log takes entries of a quarter of it at most, unless told otherwise.
    expect(readStoreUrl('redis://h?log-bytes=1MiB')).toMatchObject({ entryBytes: 256 * 1024 });
  });

  it.each([
    ['postgres://db', 'it must be memory or redis://HOST'],
    ['redis://', 'it must be memory or redis://HOST'],
    ['redis://h/x', 'the database must be a number, got "x"'],
    ['redis://h?lease=soon', 'lease must be a duration of 100ms or more'],
    ['redis://h?leese=1s', 'unknown parameter "leese"'],
    ['redis://h?log=5', 'log must be an integer of 100 or more'],
    ['redis://h?log-bytes=lots', 'log-bytes must be a size of 64KiB or more'],
    ['redis://h?log-bytes=1KiB', 'log-bytes must be a size of 64KiB or more'],
    ['redis://h?log-bytes=1MiB&entry-bytes=512KiB', 'entry-bytes must be a size of 1KiB or more'],
  ])('refuses %s: %s', (value, why) => {
    expect(() => readStoreUrl(value)).toThrow(why);
  });

  it('never shows the password of a URL it refuses', () => {
    expect(() => readStoreUrl('redis://:hunter2@h/x')).toThrow('redis://:***@h/x');
  });

  it('refuses a proxy on a shared store: a proxied agent runs in one process', async () => {
    await expect(
      createSimulator({ port: 0, store: 'redis://127.0.0.1:1', proxy: { url: 'http://127.0.0.1:2' } }),
    ).rejects.toThrow('a proxied or recorded agent runs in one process');
  });

  it('stops the start, naming the store, when Redis cannot be reached (flag or A2A_SIM_STORE)', async () => {
    const flagged = await serveRefused(['serve', '--port', '0', '--store', 'redis://127.0.0.1:1']);
    expect(flagged.code).not.toBe(0);
    expect(flagged.stderr).toContain('Failed to start: cannot use the store redis://127.0.0.1:1: ');
    expect(flagged.stderr).toContain('ECONNREFUSED');
    const fromEnv = await serveRefused(['serve', '--port', '0'], { A2A_SIM_STORE: 'redis://127.0.0.1:1/3' });
    expect(fromEnv.stderr).toContain('cannot use the store redis://127.0.0.1:1/3');
  });
});
