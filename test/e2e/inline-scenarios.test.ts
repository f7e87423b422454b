/**
 * Scenarios written in a test (MSW's handlers, for A2A): given to createSimulator, added to a
 * running simulator with use() and forgotten with resetScenarios(); and the exported helpers that
 * run the virtual clock until a request settles or a task reaches a state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, drive, VirtualClock, waitForTask, type Simulator } from '../../src/index.js';
import { postJson, RETURN_IMMEDIATELY, v1Send, V1_HEADERS } from '../helpers/wire.js';

const SLOW_WEATHER = {
  id: 'slow-weather',
  match: [{ keywords: ['weather'] }],
  steps: [
    { artifact: { parts: [{ text: 'Overcast, from the test' }] } },
    { status: 'completed', after: '30s' },
  ],
};

const YAML_REPLY = `description: A reply written as YAML text in the test
id: yaml-hello
match:
  - keywords: [hello]
reply:
  message: Hello from YAML
`;

let clock: VirtualClock;
let sim: Simulator;
beforeAll(async () => {
  clock = new VirtualClock();
  sim = await createSimulator({
    port: 0,
    clock,
    logLevel: 'silent',
    scenarios: [YAML_REPLY],
  });
});
afterAll(() => sim.close());

const send = (text: string, extra: object = {}) =>
  drive(clock, postJson(sim.url, '/message:send', { ...v1Send(text), ...extra }, V1_HEADERS));

describe('inline scenarios', () => {
  it('serves a scenario given to createSimulator as YAML text, ahead of the built-ins', async () => {
    const answer = await send('hello there');
    expect(answer.body.message.parts[0].text).toBe('Hello from YAML');
  });

  it('puts a scenario added with use() ahead of every other, and forgets it on resetScenarios()', async () => {
    await sim.use(SLOW_WEATHER);
    const started = clock.now();
    const task = (await send('What is the weather today?')).body.task;
    expect(task.artifacts[0].parts[0].text).toBe('Overcast, from the test');
    expect(clock.now() - started).toBeGreaterThanOrEqual(30_000);

    sim.resetScenarios();
    const builtin = (await send('What is the weather today?')).body.task;
    expect(builtin.artifacts[0].name).toBe('Weather Report');
    // What createSimulator was given stays.
    expect((await send('hello again')).body.message.parts[0].text).toBe('Hello from YAML');
  });

  it('refuses a scenario that does not load, with every problem and where it is', async () => {
    await expect(
      sim.use({ id: 'broken', steps: [{ status: 'pinging' }] }, 'id: also-broken\nsteps:\n  - wait: soon\n'),
    ).rejects.toThrow(
      /inline scenario "broken".*steps\[0\]\.status[\s\S]*inline scenario "also-broken":3:5 steps\[0\]\.wait/,
    );
    await expect(sim.use('steps: []\n')).rejects.toThrow(/needs a top-level "id: <name>" line/);
    await expect(sim.use({ id: '../etc', steps: [] } as never)).rejects.toThrow(/not a valid scenario id/);
  });

  it('stops createSimulator from starting with a scenario that does not load', async () => {
    await expect(
      createSimulator({ port: 0, logLevel: 'silent', scenarios: [{ id: 'nope', stepz: [] }] }),
    ).rejects.toThrow(/inline scenario "nope"/);
  });
});

describe('waitForTask', () => {
  it('runs the virtual clock until a task reaches the state, named either way', async () => {
    await sim.use(SLOW_WEATHER);
    const { task } = (await send('What is the weather now?', RETURN_IMMEDIATELY)).body;
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    const done = await waitForTask(sim, task.id, 'TASK_STATE_COMPLETED');
    expect(done.status.state).toBe('completed');
    expect((await waitForTask(sim, task.id, 'completed')).id).toBe(task.id);
    const booking = (await send('Book me a flight', RETURN_IMMEDIATELY)).body.task;
    const waiting = await waitForTask(sim, booking.id, 'TASK_STATE_INPUT_REQUIRED');
    expect(waiting.status.state).toBe('input-required');
    sim.resetScenarios();
  });

  it('rejects when the task ends in another state first, or does not exist', async () => {
    const { task } = (await send('What is the weather now?', RETURN_IMMEDIATELY)).body;
    await expect(waitForTask(sim, task.id, 'failed')).rejects.toThrow(/ended completed, not failed/);
    await expect(waitForTask(sim, 'no-such-task', 'completed')).rejects.toThrow(/no task no-such-task/);
  });
});
