/**
 * A duration longer than a timer can wait (2^31-1 ms, about 24.8 days) is refused where it is
 * written, naming the maximum: in a chaos pair (header, metadata, the admin API, `--chaos`), a chaos
 * profile file, a scenario file, the admin clock, a CLI flag. Before, `latency-first-byte=1000h` made the clock
 * re-arm every millisecond long after the client had gone.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChaosFile } from '../../src/chaos/catalog.js';
import { createSimulator } from '../../src/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { serveRefused } from '../helpers/cli.js';
import { admin, chaosHeader, getJson, postJson, rpc, v1Send } from '../helpers/wire.js';

const MAX = /longer than the maximum, 2147483647ms/;

let t: TestSim;
let dir: string;
beforeAll(async () => {
  t = await startSim({ speed: 0 });
  dir = await mkdtemp(join(tmpdir(), 'a2a-sim-durations-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('chaos pairs', () => {
  it.each([
    'latency-first-byte=1000h',
    'latency-per-event=0..597h',
    'errors-retry-after=2147483648',
    'drop-after-ms=99999999h',
    'delivery-delay=1000h',
  ])('refuses X-Sim-Chaos: %s with 400 on REST and -32602 on JSON-RPC, naming the maximum', async (chaos) => {
    const rest = await getJson(t, '/tasks', chaosHeader(chaos));
    expect(rest.status).toBe(400);
    expect(rest.body.error.message).toMatch(MAX);
    const { body } = await rpc(t, 'ListTasks', {}, { headers: chaosHeader(chaos) });
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(MAX);
  });

  it('refuses metadata.chaos latency-first-byte=1000h before creating a task', async () => {
    const before = t.sim.store.size;
    const request = v1Send('What is the weather today?', {
      messageId: 'm',
      metadata: { chaos: 'latency-first-byte=1000h' },
    });
    const response = await postJson(t, '/message:send', request);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(MAX);
    expect(t.sim.store.size).toBe(before);
  });

  it('takes the maximum itself', async () => {
    const response = await getJson(t, '/tasks', chaosHeader('drop-after-ms=2147483647'));
    expect(response.status).toBe(200);
  });

  it('refuses PUT /_sim/chaos and --chaos with latency-first-byte=1000h', async () => {
    const answer = await admin(t, 'PUT', '/chaos', { chaos: 'latency-first-byte=1000h' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(MAX);
    await expect(
      createSimulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', chaos: 'latency-first-byte=1000h' }),
    ).rejects.toThrow(MAX);
  });
});

describe('files', () => {
  it('reports a scenario delay past the maximum as a load issue with its line', async () => {
    const file = join(dir, 'sleepy.yaml');
    await writeFile(
      file,
      [
        'description: Waits too long.',
        'steps:',
        '  - status: working',
        '    after: 1000h',
        '  - wait: { mean: 1s, stddev: 597h }',
        '  - status: completed',
        '',
      ].join('\n'),
    );
    const { scenario, issues } = await loadScenarioFile(file);
    expect(scenario).toBeUndefined();
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [4, expect.stringMatching(MAX)],
      [5, expect.stringMatching(MAX)],
    ]);
  });

  it('reports a chaos profile delay past the maximum as a load issue', async () => {
    const file = join(dir, 'slow.chaos.yaml');
    await writeFile(file, 'latency:\n  firstByte: 1000h\nerrors:\n  retryAfter: 2147483648\n');
    const { profile, issues } = await loadChaosFile(file);
    expect(profile).toBeUndefined();
    expect(issues).toHaveLength(2);
    for (const issue of issues) expect(issue.message).toMatch(MAX);
  });
});

describe('the admin clock', () => {
  it.each([2 ** 31, 1e12, '1e400'])('refuses POST /_sim/clock/advance {"ms": %s} with 400', async (ms) => {
    const answer = await admin(t, 'POST', '/clock/advance', `{"ms": ${ms}}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  });

  it('advances by the maximum', async () => {
    const before = t.clock.now();
    expect((await admin(t, 'POST', '/clock/advance', { ms: 2 ** 31 - 1 })).status).toBe(200);
    expect(t.clock.now()).toBe(before + 2 ** 31 - 1);
  });
});

describe('the CLI', () => {
  it.each(['--event-ttl', '--push-timeout'])('refuses %s 1000h before serving', async (flag) => {
    const { code, stdout, stderr } = await serveRefused(['serve', '--port', '0', flag, '1000h']);
    const output = `${stdout}${stderr}`;
    expect(output).not.toContain('listening');
    expect(code).toBe(2);
    expect(output).toContain(`${flag}: "1000h" is longer than the maximum, 2147483647ms`);
  });

  it('refuses a --keep-alive interval no timer can wait', async () => {
    const { code, stderr } = await serveRefused(['serve', '--port', '0', '--keep-alive', String(2 ** 31)]);
    expect(code).toBe(2);
    expect(stderr).toContain('--keep-alive: 2147483648 is longer than the maximum, 2147483647ms');
  });
});
