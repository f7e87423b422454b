/** The programmatic example of docs/api.md, as written there: createSimulator on a virtual clock. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { createSimulator, VirtualClock } from '../../src/index.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it('plays a task on virtual time: submitted at once, completed after advancing the clock', async () => {
  const clock = new VirtualClock();
  const sim = await createSimulator({ port: 0, clock, seed: 'my-test', logLevel: 'silent' });
  try {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const sent = await fetch(`${sim.url}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        message: { role: 'ROLE_USER', parts: [{ text: 'What is the weather today?' }], messageId: 'm-1' },
        configuration: { returnImmediately: true },
      }),
    });
    const { task } = (await sent.json()) as { task: { id: string; status: { state: string } } };
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');

    clock.advance(5_000);
    const done = (await (await fetch(`${sim.url}/tasks/${task.id}`)).json()) as {
      status: { state: string };
      artifacts: { name: string }[];
    };
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts.map((a) => a.name)).toEqual(['Weather Report']);
    expect(clock.pending).toBe(0);
  } finally {
    await sim.close();
  }
});

it('is imported by its package name, which exposes the API and nothing behind it', async () => {
  // Node itself, in a child process, imports the package by name through its `exports` map, as
  // an installed copy is imported.
  const script = `
    const api = await import('a2a-sim');
    const deep = await import('a2a-sim/dist/store/task-store.js').then(() => 'importable', (e) => e.code);
    const schema = await import('a2a-sim/scenario.schema.json', { with: { type: 'json' } });
    console.log(JSON.stringify({ names: Object.keys(api).sort(), deep, title: schema.default.title }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  expect(JSON.parse(stdout)).toEqual({
    names: [
      'DEFAULTS',
      'PortInUseError',
      'RealClock',
      'VERSION',
      'VirtualClock',
      'createSimulator',
      'drive',
      'formatIssue',
      'loadScenarioFile',
      'waitForTask',
    ],
    deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    title: 'a2a-sim scenario',
  });
});
