/**
 * The old spellings of flags and options still work, each meaning what it meant: `--scenarios`,
 * `--builtins`, `--max-events`, `--push-attempts`, `--api-key`, their variables
 * (`A2A_SIM_SCENARIOS`, `A2A_SIM_API_KEY`, …), and the `keepAliveMs` and `retention.eventTtlMs`
 * options of createSimulator.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/compose/settings.js';
import { run, serve } from '../helpers/cli.js';
import { cursorHeader, getJson, postJson, rpc, v1Send } from '../helpers/wire.js';

/** The gateway's endpoint, as agent `explore`. */
const GATEWAY = { path: '/agents/a2a', envelope: { agent_code: 'explore' } };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-sim-aliases-'));
  await writeFile(
    join(dir, 'echo.yaml'),
    'description: Echoes.\nfallback: true\nreply:\n  message: "{{input.text}}"\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The scenario ids `list` would load with these arguments and variables. */
async function listed(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const result = await run(['list', '--json', ...args], env);
  expect(result.stderr).toBe('');
  return (JSON.parse(result.stdout) as { scenarios: { id: string }[] }).scenarios.map((s) => s.id);
}

describe('scenario directories and the built-ins', () => {
  it('reads --scenarios and --no-builtins as --scenario-dirs and --no-builtin-scenarios', async () => {
    const now = await listed(['--scenario-dirs', dir, '--no-builtin-scenarios']);
    expect(now).toEqual(['echo']);
    expect(await listed(['--scenarios', dir, '--no-builtins'])).toEqual(now);
    expect(await listed(['-s', dir, '--builtins'])).toContain('weather');
  });

  it('reads A2A_SIM_SCENARIOS as A2A_SIM_SCENARIO_DIRS', async () => {
    const env = { A2A_SIM_BUILTIN_SCENARIOS: 'false' };
    expect(await listed([], { ...env, A2A_SIM_SCENARIO_DIRS: dir })).toEqual(['echo']);
    expect(await listed([], { ...env, A2A_SIM_SCENARIOS: dir })).toEqual(['echo']);
  });
});

describe('serve', () => {
  it('takes --max-events, --push-attempts and --api-key for --max-events-per-task, --push-max-attempts and --api-keys', async () => {
    const server = serve([
      'serve',
      '--port',
      '0',
      '--max-events',
      '2',
      '--push-attempts',
      '1',
      '--api-key',
      'k1',
    ]);
    try {
      const url = await server.url;
      // The API key: the gateway refuses a call without it.
      const gateway = await rpc(url, 'tasks/get', { id: 'x' }, GATEWAY);
      expect(gateway.status).toBe(401);
      // Two events kept per task: a weather task logs more, so a cursor at the start has expired.
      const sent = await postJson(
        url,
        '/message:send',
        v1Send(
          'What is the weather today?',
          { messageId: 'a-1' },
          { configuration: { taskPushNotificationConfig: { url: 'http://127.0.0.1:9/hook' } } },
        ),
      );
      const { task } = sent.body as { task: { id: string } };
      const resumed = await getJson(url, `/tasks/${task.id}:subscribe`, cursorHeader(0));
      expect(resumed.body as object).toMatchObject({
        error: { details: [{ reason: 'EVENTS_EXPIRED' }] },
      });
      // One attempt per delivery: the unreachable webhook is given up on after its first.
      const deliveries = (await getJson(url, `/_sim/deliveries?taskId=${task.id}`)).body as {
        deliveries: { attempt: number; outcome: string }[];
      };
      expect(deliveries.deliveries.length).toBeGreaterThan(0);
      expect(Math.max(...deliveries.deliveries.map((d) => d.attempt))).toBe(1);
    } finally {
      await server.stop();
    }
  });
});

describe('API keys from the environment', () => {
  it.each(['A2A_SIM_API_KEYS', 'A2A_SIM_API_KEY'])('takes one key from %s', async (variable) => {
    const server = serve(['serve', '--port', '0'], { [variable]: 'demo-key' });
    try {
      const url = await server.url;
      const call = (headers: Record<string, string>) =>
        rpc(url, 'tasks/get', { id: 'no-such-task' }, { ...GATEWAY, headers });
      expect((await call({})).status).toBe(401);
      const keyed = await call({ 'X-API-Key': 'demo-key', 'X-Workspace-ID': 'ws-1' });
      expect(keyed.body.error.code).toBe(-32001);
    } finally {
      await server.stop();
    }
  });
});

describe('createSimulator', () => {
  it('reads keepAliveMs and retention.eventTtlMs as before, the new names first', () => {
    const settings = resolveSettings({ keepAliveMs: 1000, retention: { eventTtlMs: 2000 } });
    expect(settings.keepAlive).toBe(1000);
    expect(settings.retention.eventTtl).toBe(2000);
    const both = resolveSettings({
      keepAlive: '3s',
      keepAliveMs: 1000,
      retention: { eventTtl: 4000, eventTtlMs: 2000 },
    });
    expect(both.keepAlive).toBe(3000);
    expect(both.retention.eventTtl).toBe(4000);
  });

  it('takes every duration as milliseconds or as written in flags and files', () => {
    const settings = resolveSettings({
      keepAlive: '15s',
      retention: { eventTtl: '10m', terminalTtl: 60_000 },
      push: { timeout: '2s', backoff: '250ms' },
    });
    expect(settings.keepAlive).toBe(15_000);
    expect(settings.retention).toMatchObject({ eventTtl: 600_000, terminalTtl: 60_000 });
    expect(settings.push).toMatchObject({ timeout: 2000, backoff: 250 });
    expect(() => resolveSettings({ keepAlive: 'often' })).toThrow(/keepAlive expected a duration/);
  });
});
