/**
 * The live feed under pressure and behind its access rule: a watcher that stops reading is dropped
 * with 1013 while the simulator goes on; who may open the feed, checked on upgrade.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/lib/log.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { admin, getJson } from '../helpers/wire.js';
import { ioUntil, nonLoopbackAddress, refusal, restSend, tempDir, watchFeed } from './helpers.js';

const WEATHER = 'What is the weather today?';

describe('a watcher that does not read', () => {
  // Large, but under the size past which a feed message is cut to a summary.
  const BIG = 'x'.repeat(20 * 1024);
  let t: TestSim;
  let dir: string;
  const warnings: string[] = [];
  beforeAll(async () => {
    dir = await tempDir('slow-feed');
    await writeFile(
      join(dir, 'big.yaml'),
      `description: A large artifact.\nmatch:\n  - keywords: [big]\nsteps:\n  - artifact:\n      name: Big\n      parts:\n        - text: ${BIG}\n  - status: completed\n`,
    );
    const logger: Logger = {
      error: (message) => warnings.push(message),
      warn: (message) => warnings.push(message),
      info: () => undefined,
      debug: () => undefined,
    };
    t = await startSim({ scenarioDirs: [dir], speed: 0, logger });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is dropped with 1013 "too slow: …" once 1 MiB waits for it, and the simulator goes on', async () => {
    const watcher = await watchFeed(t, '?types=task:event');
    const socket = (watcher.ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    const dropped = () => warnings.some((w) => w.includes('reads too slowly'));
    const before: string[] = [];
    while (!dropped()) {
      if (before.length > 500) throw new Error('the watcher was never dropped');
      before.push((await restSend(t, '', 'big one please', `big-${before.length}`)).id);
    }
    // Nothing more is sent to it, however much happens.
    const after: string[] = [];
    for (let i = 0; i < 5; i++) after.push((await restSend(t, '', 'big one please', `after-${i}`)).id);
    const weather = await restSend(t, '', WEATHER, 'still-serving');
    expect(weather.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await admin(t, 'GET', '/health')).status).toBe(200);

    // Reading again, the client finds the close frame behind what was already on its way.
    socket.resume();
    expect(await watcher.done).toEqual({ code: 1013, reason: expect.stringMatching(/^too slow: /) });
    const seen = new Set(watcher.messages.map((m: any) => m.taskId));
    expect(seen.has(before[0]!)).toBe(true);
    expect(after.filter((id) => seen.has(id))).toEqual([]);
    expect(seen.has(weather.id)).toBe(false);

    // A new watcher is served as usual.
    const next = await watchFeed(t, `?taskId=${weather.id}`);
    await ioUntil(() => next.messages.length > 0);
    await next.close();
  });
});

describe('who may watch', () => {
  describe('with --admin-token', () => {
    let t: TestSim;
    beforeAll(async () => (t = await startSim({ adminToken: 'feed-token' })));
    afterAll(() => t.close());

    it('refuses the upgrade without a token: 401 with a challenge', async () => {
      const refused = await refusal(watchFeed(t));
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(JSON.parse(refused.body).error.status).toBe('UNAUTHENTICATED');
    });

    it.each([
      ['?token=', '?token=nope', {}],
      ['Authorization: Bearer', '', { Authorization: 'Bearer nope' }],
    ])('refuses a wrong token in %s: 403', async (_how, query, headers) => {
      const refused = await refusal(watchFeed(t, query, { headers }));
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.status).toBe('PERMISSION_DENIED');
    });

    it.each([
      ['?token= (what a browser can send)', '?token=feed-token', {}],
      ['Authorization: Bearer', '', { Authorization: 'Bearer feed-token' }],
      ['X-Admin-Token', '', { 'X-Admin-Token': 'feed-token' }],
    ])('accepts the right token in %s', async (_how, query, headers) => {
      const watcher = await watchFeed(t, query, { headers });
      await watcher.close();
      expect(watcher.closed?.code).toBe(1005);
    });

    it('the token does not count as a filter', async () => {
      await restSend(t, '', WEATHER, 'tok-1');
      const watcher = await watchFeed(t, '?token=feed-token&types=task:created');
      await ioUntil(() => watcher.messages.length === 1);
      await watcher.close();
    });
  });

  describe('without a token, bound to 0.0.0.0', () => {
    const address = nonLoopbackAddress();
    let t: TestSim;
    beforeAll(async () => (t = await startSim({ host: '0.0.0.0' })));
    afterAll(() => t.close());

    it('accepts a loopback client', async () => {
      await (await watchFeed(t)).close();
    });

    it.skipIf(!address)(
      `refuses a client on a non-loopback address with 403 (${address ?? 'skipped: this machine has no non-loopback IPv4 address'})`,
      async () => {
        const refused = await refusal(watchFeed(t, '', { base: `http://${address}:${t.sim.port}` }));
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.body).error.message).toContain('--admin-token');
      },
    );
  });

  it('any other upgrade is refused with 404', async () => {
    const t = await startSim();
    try {
      for (const path of ['/message:stream', '/_sim/feedback', '/_sim/feed/']) {
        const refused = await refusal(watchFeed(t, '', { path }));
        expect(refused.status, path).toBe(404);
      }
      const other = await getJson(t, '/_sim/health');
      expect(other.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('watchers that join a large history and do not read (F15)', () => {
  const BIG = 'y'.repeat(20 * 1024);
  let t: TestSim;
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('feed-history');
    await writeFile(
      join(dir, 'big.yaml'),
      `description: A large artifact.\nmatch:\n  - keywords: [big]\nsteps:\n  - artifact:\n      name: Big\n      parts:\n        - text: ${BIG}\n  - status: completed\n`,
    );
    t = await startSim({ scenarioDirs: [dir], speed: 0 });
    for (let i = 0; i < 150; i++) await restSend(t, '', 'big one please', `history-${i}`);
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are sent the history only as fast as they read it: what waits stays under 1 MiB each', async () => {
    const watchers = await Promise.all([1, 2, 3].map(() => watchFeed(t, '?types=task:event')));
    for (const w of watchers) (w.ws as unknown as { _socket: Socket })._socket.pause();
    // Let the server write what it will.
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    const { body } = await admin(t, 'GET', '/health');
    expect(body.memory.feed.watchers).toBe(3);
    expect(body.memory.feed.bufferedBytes).toBeLessThanOrEqual(3 * (1024 * 1024 + 64 * 1024));
    // Read again: each gets the history, in order, with no gap.
    for (const w of watchers) (w.ws as unknown as { _socket: Socket })._socket.resume();
    await ioUntil(() => watchers.every((w) => w.messages.length >= 300), 'the whole history');
    for (const w of watchers) {
      const ns = w.messages.map((m) => m.n);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
      await w.close();
    }
  });
});
