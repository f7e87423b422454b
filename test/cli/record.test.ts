/**
 * `a2a-sim record` and `serve --proxy` as a user runs them: the built CLI in a child process in
 * front of a real @a2a-js/sdk agent.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, run, serve, serveRefused } from '../helpers/cli.js';
import { startUpstreamAgent, type UpstreamAgent } from '../helpers/upstream-agent.js';
import { callJson } from '../helpers/wire.js';

let agent: UpstreamAgent;
let out: string;
beforeAll(async () => {
  agent = await startUpstreamAgent({ stepMs: 5 });
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-cli-record-'));
});
afterAll(async () => {
  await agent.close();
  await rm(out, { recursive: true, force: true });
});

/** A client as a team would write it: it finds the simulator in A2A_URL. */
const CLIENT = `
const send = (text) => fetch(process.env.A2A_URL + '/message:send', {
  method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ message: { role: 'ROLE_USER', messageId: crypto.randomUUID(), parts: [{ text }] } }),
}).then((r) => r.json());
const answer = await send('What is the weather in Oslo?');
console.log('client saw', answer.task.status.state);
`;

const message = (text: string) => ({
  message: { role: 'ROLE_USER', messageId: `m-${text.length}`, parts: [{ text }] },
});

describe('a2a-sim record', () => {
  it('runs the client command against the stand-in and writes what it said when the command ends', async () => {
    const dir = join(out, 'command');
    const exit = await run([
      'record',
      '--target',
      agent.url,
      '--port',
      '0',
      '--out',
      dir,
      '--log-level',
      'warn',
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      CLIENT,
    ]);
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
    expect(exit.stdout).toContain('client saw TASK_STATE_COMPLETED');
    expect(exit.stdout).toContain('Recorded 1 conversation(s) into 1 scenario(s) and an agent file');
    expect((await readdir(dir)).sort()).toEqual([
      'travel-desk.agent.yaml',
      'what-is-the-weather-in-oslo.yaml',
    ]);
    const validate = await run(['validate', dir]);
    expect(validate.stdout).toContain('ok: 1 scenario(s), 1 agent(s) valid');
  });

  it("ends with the client command's exit code, so a failing client fails the run", async () => {
    const dir = join(out, 'failing');
    const exit = await run([
      'record',
      '--target',
      agent.url,
      '--port',
      '0',
      '--out',
      dir,
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ]);
    expect(exit.code).toBe(3);
    expect(exit.stdout).toContain('Recorded 0 conversation(s)');
  });

  it('writes the files and ends on POST /_sim/record/stop, and on SIGTERM', async () => {
    for (const stop of ['route', 'signal'] as const) {
      const dir = join(out, stop);
      const recorder = serve([
        'record',
        '--target',
        agent.url,
        '--port',
        '0',
        '--out',
        dir,
        '--log-level',
        'warn',
      ]);
      const url = await recorder.url;
      expect((await callJson(url, 'POST', '/message:send', { body: message('Please fail') })).status).toBe(
        200,
      );
      if (stop === 'route') {
        const stopped = await callJson(url, 'POST', '/_sim/record/stop', { body: {} });
        expect(stopped.body.conversations).toBe(1);
        expect(await recorder.stop()).toBe(0);
      } else {
        expect(await recorder.stop()).toBe(0);
      }
      expect(await readdir(dir)).toContain('please-fail.yaml');
    }
  });

  it('on SIGTERM, passes it on to the client command, and writes the files once the command is gone', async () => {
    const dir = join(out, 'interrupted');
    const hanging = `${CLIENT}\nconsole.log('pid client', process.pid);\nsetTimeout(() => {}, 3_600_000);\n`;
    const recorder = spawn(process.execPath, [
      CLI,
      'record',
      '--target',
      agent.url,
      '--port',
      '0',
      '--out',
      dir,
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      hanging,
    ]);
    let stdout = '';
    const closed = new Promise<number | null>((resolve) => recorder.on('close', resolve));
    const pid = await new Promise<number>((resolve, reject) => {
      recorder.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = /^pid client (\d+)$/m.exec(stdout);
        if (match) resolve(Number(match[1]));
      });
      void closed.then(() => reject(new Error(`record ended first: ${stdout}`)));
    });
    recorder.kill('SIGTERM');
    // Ended by the signal passed on: a failed run, with what it recorded written.
    expect(await closed).toBe(1);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(stdout).toContain('Recorded 1 conversation(s) into 1 scenario(s) and an agent file');
    expect(await readdir(dir)).toContain('what-is-the-weather-in-oslo.yaml');
  });

  it('refuses to start without an agent, or with an agent it cannot read', async () => {
    const none = await run(['record', '--out', join(out, 'none')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'record needs --target URL (the agent) or --target-gateway URL --agent-code CODE',
    );
    const gone = await run(['record', '--target', 'http://127.0.0.1:9', '--port', '0']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain(
      'Failed to read the agent card at http://127.0.0.1:9/.well-known/agent-card.json',
    );
  });
});

describe('a2a-sim serve --proxy', () => {
  it('plays its scenarios and sends the rest to the agent', async () => {
    const sim = serve(['--proxy', agent.url, '--port', '0', '--speed', '0', '--log-level', 'warn']);
    try {
      const url = await sim.url;
      expect(sim.banner()).toContain(`proxy       messages no scenario matches → ${agent.url}`);
      const local = await callJson(url, 'POST', '/message:send', {
        body: message('What is the weather today?'),
      });
      expect(local.body.task.artifacts[0].name).toBe('Weather Report');
      const proxied = await callJson(url, 'POST', '/message:send', { body: message('Translate bonjour') });
      expect(JSON.stringify(proxied.body.task.artifacts)).toContain('You said: Translate bonjour');
    } finally {
      await sim.stop();
    }
  });

  it('refuses --proxy-all without an agent, and a header that is not "Name: value"', async () => {
    const all = await serveRefused(['--proxy-all', '--port', '0']);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain('--proxy-all needs --proxy URL or --proxy-gateway URL');
    const header = await serveRefused(['--proxy', agent.url, '--proxy-header', 'oops', '--port', '0']);
    expect(header.code).toBe(2);
    expect(header.stderr).toContain('--proxy-header expects "Name: value", got "oops"');
  });
});
