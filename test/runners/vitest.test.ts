/**
 * `a2a-sim/vitest` and `a2a-sim/testing` from the sources: the hooks `useA2aSim` registers give a
 * test a started simulator on loopback and virtual time, and a reset between tests leaves nothing
 * of the last test behind (tasks, journal, verdicts, scenarios it added, chaos it set).
 * test/e2e/docs-examples.test.ts runs the same entry points from the built package, as a user does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  registerA2aSim,
  useA2aSim,
  VirtualClock,
  type A2aSim,
  type TestHooks,
} from '../../src/runners/vitest.js';
import { admin, postJson, v1Send, V1_HEADERS } from '../helpers/wire.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const CANNED = 'id: canned\nmatch:\n  - keywords: [canned]\nreply:\n  message: A canned answer\n';

const send = (a2a: A2aSim, text: string) =>
  a2a.drive(postJson(a2a, '/message:send', v1Send(text), { ...V1_HEADERS, 'X-Sim-Client': 'runner-test' }));

describe('useA2aSim', () => {
  const a2a = useA2aSim({ seed: 'runners' });

  it('gives the test a started simulator on 127.0.0.1, on a virtual clock', async () => {
    expect(a2a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(a2a.sim.url).toBe(a2a.url);
    expect(a2a.clock).toBeInstanceOf(VirtualClock);
    const { body } = await send(a2a, 'What is the weather today?');
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('registerA2aSim', () => {
  /** The hooks a runner would call, kept to be called by hand. */
  const collect = () => {
    const hooks: Record<'beforeAll' | 'afterEach' | 'afterAll', () => Promise<unknown>> = {
      beforeAll: async () => undefined,
      afterEach: async () => undefined,
      afterAll: async () => undefined,
    };
    const register = (name: keyof typeof hooks) => (fn: () => Promise<unknown>) => void (hooks[name] = fn);
    return {
      hooks,
      runner: {
        beforeAll: register('beforeAll'),
        afterEach: register('afterEach'),
        afterAll: register('afterAll'),
      },
    };
  };

  it('starts before the tests, resets after each to how it started, and stops after them', async () => {
    const { hooks, runner } = collect();
    const a2a = registerA2aSim(runner, { chaos: 'latency-per-event=0..5ms' });
    expect(() => a2a.url).toThrow(/not started\. Call start\(\) first/);
    await hooks.beforeAll();
    try {
      await expect(a2a.start()).rejects.toThrow(/already started/);
      // What a test leaves behind: a scenario, a task, a journal, verdicts, another chaos.
      await a2a.use(CANNED);
      expect((await send(a2a, 'Something canned, please')).body.message.parts[0].text).toBe(
        'A canned answer',
      );
      await send(a2a, 'What is the weather today?');
      await a2a.sim.setChaos('flaky-mobile');
      expect((await admin(a2a, 'GET', '/chaos')).body.active).toBe('flaky-mobile');
      expect(a2a.sim.store.size).toBe(1);
      expect(a2a.sim.journal.list()).toHaveLength(2);
      expect(a2a.verdicts('runner-test')).toHaveLength(1);

      await hooks.afterEach();
      expect(a2a.sim.store.size).toBe(0);
      expect(a2a.sim.journal.list()).toEqual([]);
      expect(a2a.verdicts()).toEqual([]);
      expect(a2a.sim.scenarios().map((s) => s.id)).not.toContain('canned');
      expect((await admin(a2a, 'GET', '/chaos')).body.active).toBe('latency-per-event=0..5ms');
      expect((await send(a2a, 'Something canned, please')).body.message?.parts[0].text).not.toBe(
        'A canned answer',
      );
    } finally {
      await hooks.afterAll();
    }
    expect(() => a2a.sim).toThrow(/not started/);
    await expect(a2a.stop()).resolves.toBeUndefined();
  });

  it("takes node:test's hooks as they are (a check tsc makes)", () => {
    expectTypeOf<typeof import('node:test').before>().toExtend<TestHooks['beforeAll']>();
    expectTypeOf<typeof import('node:test').afterEach>().toExtend<TestHooks['afterEach']>();
    expectTypeOf<typeof import('node:test').after>().toExtend<TestHooks['afterAll']>();
  });

  it('rejects a chaos setting with a mistake, and keeps the one it had', async () => {
    const { hooks, runner } = collect();
    const a2a = registerA2aSim(runner);
    await hooks.beforeAll();
    try {
      await expect(a2a.sim.setChaos('no-such-profile')).rejects.toThrow(/no chaos profile "no-such-profile"/);
      expect((await admin(a2a, 'GET', '/chaos')).body.active).toBeNull();
    } finally {
      await hooks.afterAll();
    }
  });
});

it('imports vitest only in src/runners/vitest.ts: it is an optional peer dependency', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? files(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [join(dir, entry.name)]
          : [],
    );
  const importers = files(SRC)
    .filter((file) => /from\s+'vitest(\/[^']*)?'/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(SRC, file));
  expect(importers).toEqual(['runners/vitest.ts']);
});
