/**
 * The `a2a-sim` command as users and the Dockerfile run it: the built `dist/cli/main.js` in a child
 * process (`npm test` builds first). `serve` is started exactly as the Dockerfile starts it, with the
 * port and host moved by environment variables.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { run, serve } from '../helpers/cli.js';
import { startSim } from '../helpers/sim.js';
import { getJson, postJson, v1Send } from '../helpers/wire.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-sim-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BROKEN = `description: A scenario with a typo in its delay
match:
  - text: hello
steps:
  - status: working
  - wait: soon
  - status: completed
`;

describe.concurrent('a2a-sim validate', () => {
  it('rejects a broken scenario with its file, line and path, and exits 2', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(file, BROKEN);
    const result = await run(['validate', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.yaml:6:5 steps\[1\]\.wait: .*duration/);
    expect(result.stderr).toContain('1 problem(s) found; 0 scenario(s) valid.');
  });

  it('rejects a broken agent file with its file, line and path, and exits 2', async () => {
    const file = join(dir, 'shop.agent.yaml');
    await writeFile(file, 'name: Shop\ndescription: Sells things\nscenarios: [weather, wether]\n');
    const result = await run(['validate', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/shop\.agent\.yaml:3:\d+ scenarios\[1\]: no scenario "wether" is loaded/);
    expect(result.stderr).toContain('1 problem(s) found; 0 scenario(s), 0 agent(s) valid.');
  });

  it('reports a file it cannot read instead of crashing', async () => {
    const result = await run(['validate', join(dir, 'missing.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing\.yaml.*cannot read/);
  });

  it('accepts the built-in scenarios, agents and chaos profiles', async () => {
    const result = await run(['validate', fileURLToPath(new URL('../../scenarios', import.meta.url))]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok: \d+ scenario\(s\), 1 agent\(s\), \d+ chaos profile\(s\) valid\.\n$/);
  });
});

describe.concurrent('a2a-sim list', () => {
  it('lists the built-in scenarios and agents as JSON', async () => {
    const result = await run(['list', '--json']);
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { scenarios: { id: string }[]; agents: { id: string }[] };
    expect(listed.agents.map((a) => a.id)).toEqual(['explore']);
    const ids = listed.scenarios.map((s) => s.id);
    expect(ids).toEqual(
      expect.arrayContaining(['weather', 'flight-booking', 'failure', 'slow-cancel', 'greeting', 'fallback']),
    );
  });
});

describe.concurrent('a2a-sim schema', () => {
  it('prints the JSON Schema committed as scenarios/scenario.schema.json', async () => {
    const result = await run(['schema']);
    expect(result.code).toBe(0);
    const committed = await readFile(
      new URL('../../scenarios/scenario.schema.json', import.meta.url),
      'utf8',
    );
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(committed));
  });

  it('prints the agent JSON Schema committed as scenarios/agent.schema.json with --agent', async () => {
    const result = await run(['schema', '--agent']);
    expect(result.code).toBe(0);
    const committed = await readFile(new URL('../../scenarios/agent.schema.json', import.meta.url), 'utf8');
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(committed));
  });
});

describe.concurrent('a2a-sim --help', () => {
  it('documents the commands and the environment prefix', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['serve', 'validate', 'list', 'schema'])
      expect(result.stdout).toContain(`a2a-sim ${command}`);
    expect(result.stdout).toContain('A2A_SIM_<OPTION>');
  });

  it('documents every serve option', async () => {
    const result = await run(['serve', '--help']);
    expect(result.code).toBe(0);
    for (const option of [
      '--port',
      '--host',
      '--scenario-dirs',
      '--seed',
      '--speed',
      '--public-url',
      '--builtin-scenarios',
      '--api-keys',
      '--push',
      '--push-block-private',
      '--push-timeout',
      '--push-max-attempts',
      '--push-backoff',
      '--push-max-queue',
      '--max-tasks',
      '--terminal-ttl',
      '--max-events-per-task',
      '--event-ttl',
      '--max-store-bytes',
      '--keep-alive',
      '--card-format',
      '--max-body-bytes',
      '--close-stream-on-auth-required',
    ]) {
      expect(result.stdout).toContain(option);
    }
  });

  it('refuses an unknown option with a message, not a stack trace', async () => {
    const result = await run(['serve', '--sped', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown option --sped. Did you mean --speed?');
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});

describe.concurrent('a2a-sim serve (the Dockerfile start command)', () => {
  it('listens, prints the card URL and a curl line, serves the card and health, and stops on SIGTERM', async () => {
    const server = serve(['serve'], {
      A2A_SIM_PORT: '0',
      A2A_SIM_HOST: '127.0.0.1',
      A2A_SIM_SEED: 'cli-test',
    });
    const url = await server.url;
    expect(server.banner()).toContain(`${url}/.well-known/agent-card.json`);
    expect(server.banner()).toContain(`curl -s -X POST ${url}/message:send`);
    expect(server.banner()).toContain('seed        "cli-test"');

    const card = (await getJson(url, '/.well-known/agent-card.json')).body as {
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(
      expect.arrayContaining(['JSONRPC', 'HTTP+JSON']),
    );
    const health = await getJson(url, '/_sim/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });

    expect(await server.stop()).toBe(0);
  });

  it('skips a broken scenario file with a warning and serves the rest', async () => {
    const scenarios = await mkdtemp(join(dir, 'scenarios-'));
    await writeFile(join(scenarios, 'broken.yaml'), BROKEN);
    const server = serve(['serve', '-s', scenarios, '--port', '0'], {});
    const url = await server.url;
    expect(server.banner()).toMatch(/scenarios .*weather.*\(1 problem\(s\), see above\)/);
    const reply = await postJson(
      url,
      '/message:send',
      v1Send('Say hello', { messageId: 'm-1', metadata: { scenario: 'greeting' } }),
    );
    expect(reply.status).toBe(200);
    await server.stop();
    expect(server.stderr()).toMatch(/broken\.yaml:6:5 steps\[1\]\.wait/);
  });

  it('refuses a retention that is not a duration before starting', async () => {
    const result = await run(['serve', '--event-ttl', 'soon']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      '--event-ttl must be a duration like "500ms", "10m" or "24h", got "soon"',
    );
  });

  it('turns push notifications off with --no-push (or A2A_SIM_PUSH=false)', async () => {
    for (const [args, env] of [
      [['serve', '--port', '0', '--no-push'], {}],
      [['serve', '--port', '0'], { A2A_SIM_PUSH: 'false' }],
    ] as const) {
      const server = serve([...args], env);
      const url = await server.url;
      expect(server.banner()).toContain('push        off');
      const card = (await getJson(url, '/.well-known/agent-card.json')).body;
      expect(card.capabilities.pushNotifications).toBe(false);
      const list = await getJson(url, '/tasks/t/pushNotificationConfigs');
      expect(list.status).toBe(400);
      await server.stop();
    }
  });

  it.each([
    [['--push-max-attempts', '0'], '--push-max-attempts must be a whole number of 1 or more, got "0"'],
    [
      ['--push-timeout', 'soon'],
      '--push-timeout must be a duration like "500ms", "10m" or "24h", got "soon"',
    ],
    [['--push-timeout', '0'], '--push-timeout must be at least 1ms, got "0"'],
    [['--keep-alive', 'often'], '--keep-alive must be a duration like "500ms", "10m" or "24h", got "often"'],
  ])('refuses %j before starting', async (args, message) => {
    const result = await run(['serve', ...args]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });

  it.each([
    [['-s', 'no/such/dir'], 'Failed to start: the scenario directory "no/such/dir" does not exist.'],
    [['-s', 'package.json'], '"package.json" is not a directory'],
    [['--no-builtin-scenarios'], '--no-builtin-scenarios leaves nothing to serve'],
    [['--speed', 'abc'], '--speed must be a number of 0 or more, got "abc"'],
    [['--seed'], 'Not enough arguments following: seed'],
    [['--card-format', 'v2'], 'Argument: card-format, Given: "v2"'],
    [
      ['--max-body-bytes', 'lots'],
      '--max-body-bytes must be a size like "512KiB", "4MiB" or a number of bytes, got "lots"',
    ],
    [['--max-store-bytes', '0'], '--max-store-bytes must be a size'],
  ])('refuses %j with a message and a non-zero exit, serving nothing', async (args, message) => {
    const result = await run(['serve', '--port', '0', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).not.toContain('listening');
  });

  it('names the value it refuses when it comes from the environment', async () => {
    const result = await run(['serve', '--port', '0'], { A2A_SIM_SPEED: 'fast' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--speed must be a number of 0 or more, got "fast"');
  });

  it('refuses an A2A_SIM_* variable that names no option, by its name', async () => {
    const result = await run(['serve', '--port', '0'], { A2A_SIM_PROT: '8080' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown environment variable: A2A_SIM_PROT');
    expect(result.stdout).not.toContain('listening');
  });

  it("leaves a variable to the commands that take it: the image's A2A_SIM_PORT does not stop list", async () => {
    const result = await run(['list', '--json'], { A2A_SIM_PORT: '8080', A2A_SIM_HOST: '0.0.0.0' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('reads no variable for a flag that steers one command (--json), and refuses it by its name', async () => {
    const result = await run(['list'], { A2A_SIM_JSON: 'true' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown environment variable: A2A_SIM_JSON');
  });

  it('takes a flag over its variable, and the variable over the default', async () => {
    const seedOf = async (args: string[], env: Record<string, string>) =>
      (
        JSON.parse((await run(['replay', 'Book me a flight', '--json', ...args], env)).stdout) as {
          taskId: string;
        }[]
      )[0]!.taskId;
    const byFlag = await seedOf(['--seed', 'flag'], {});
    const byVariable = await seedOf([], { A2A_SIM_SEED: 'variable' });
    expect(await seedOf(['--seed', 'flag'], { A2A_SIM_SEED: 'variable' })).toBe(byFlag);
    expect(byVariable).not.toBe(byFlag);
    expect(byVariable).not.toBe(await seedOf([], {}));
  });

  it('refuses an invalid port before starting', async () => {
    const result = await run(['serve', '--port', '70000']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--port must be a whole number from 0 to 65535, got "70000"');
  });
});

describe.concurrent('a2a-sim exam', () => {
  it('refuses a --speed that is not a number, as serve does', async () => {
    const result = await run(['exam', '--speed', 'abc', '--', 'true']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--speed must be a number of 0 or more, got "abc"');
  });
});

describe.concurrent('a2a-sim replay', () => {
  it('prints the timeline serve would play with the same seed: the same task, states and texts', async () => {
    const t = await startSim({ seed: 'replay-1' });
    try {
      const sent = await t.drive(
        postJson(t, '/message:send', v1Send('Book me a flight', { messageId: 'm-1' })),
      );
      const { task } = sent.body as {
        task: { id: string; status: { message: { parts: { text: string }[] } } };
      };
      const result = await run(['replay', 'Book me a flight', '--seed', 'replay-1', '--json']);
      expect(result.stderr).toBe('');
      const events = JSON.parse(result.stdout) as {
        taskId: string;
        event: { kind: string; status?: unknown };
      }[];
      expect(events[0]!.taskId).toBe(task.id);
      expect(events.at(-1)!.event).toMatchObject({
        kind: 'status',
        status: {
          state: 'input-required',
          message: { parts: [{ text: task.status.message.parts[0]!.text }] },
        },
      });

      const text = await run([
        'replay',
        'Book me a flight',
        '--then',
        'From Oslo to Rome',
        '--seed',
        'replay-1',
      ]);
      expect(text.stdout).toMatch(/#3 +input-required +"I need more details/);
      expect(text.stdout).toMatch(/completed\s*\n$/);
      expect(text.stdout).toContain('from Oslo to Rome');
    } finally {
      await t.close();
    }
  });

  it('refuses a message no scenario matches with one line naming what is loaded, and exits 2', async () => {
    const fixtures = fileURLToPath(new URL('../verdicts/fixtures/scenarios', import.meta.url));
    const none = await run(['replay', 'zzz nothing', '--no-builtin-scenarios', '-s', fixtures]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      'a2a-sim: Failed to replay "zzz nothing": no scenario matches this message and no fallback scenario is loaded; loaded: never-ends.\n',
    );
    // A scenario skipped for its problems would have matched: it is named.
    const broken = await mkdtemp(join(dir, 'replay-'));
    await writeFile(join(broken, 'broken.yaml'), BROKEN);
    const skipped = await run(['replay', 'hello', '--no-builtin-scenarios', '-s', broken]);
    expect(skipped.code).toBe(2);
    expect(skipped.stderr).toMatch(
      /^a2a-sim: Failed to replay "hello": no scenario matches .*; loaded: \(none\); skipped for their problems \(see a2a-sim validate\): \S*broken\.yaml\.\n$/,
    );
  });

  it('prints what played before a refused follow-up, then the refusal on one line, and exits 2', async () => {
    const result = await run(['replay', 'What is the weather today?', '--then', 'again']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/completed\s*\n$/);
    expect(result.stderr).toMatch(/^a2a-sim: Failed to replay "again": .*already completed[^\n]*\n$/);
  });
});
