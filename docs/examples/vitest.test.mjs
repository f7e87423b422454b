// A complete vitest file against a2a-sim: one simulator on a virtual clock for the file, a
// scenario of the test's own for one test, and the helpers that run the clock.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createSimulator, drive, VirtualClock, waitForTask } from 'a2a-sim';

let clock;
let sim;
beforeAll(async () => {
  clock = new VirtualClock();
  sim = await createSimulator({ port: 0, clock, logLevel: 'silent' });
});
afterEach(() => sim.resetScenarios());
afterAll(() => sim.close());

/**
 * A blocking message:send, with the virtual clock run until it is answered. `continues` is the task
 * a follow-up belongs to; `extra` adds request members (a configuration, say).
 */
const send = (text, { continues, extra = {} } = {}) =>
  drive(
    clock,
    fetch(`${sim.url}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        message: {
          role: 'ROLE_USER',
          parts: [{ text }],
          messageId: crypto.randomUUID(),
          ...(continues && { taskId: continues.id, contextId: continues.contextId }),
        },
        ...extra,
      }),
    }).then((response) => response.json()),
  );

it('books a flight in two turns', async () => {
  const { task } = await send('Book me a flight');
  expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  const followUp = await send('From Oslo to Rome on Friday', { continues: task });
  expect(followUp.task.id).toBe(task.id);
  expect(followUp.task.status.state).toBe('TASK_STATE_COMPLETED');
});

it('shows the answer only after a slow agent is done', async () => {
  await sim.use({
    id: 'slow-weather',
    match: [{ keywords: ['weather'] }],
    steps: [
      { status: 'working', message: 'Looking outside…' },
      { artifact: { parts: [{ text: 'Rain' }] }, after: '30s' },
      { status: 'completed' },
    ],
  });
  const { task } = await send('What is the weather today?', {
    extra: { configuration: { returnImmediately: true } },
  });
  expect(task.status.state).not.toBe('TASK_STATE_COMPLETED');
  const done = await waitForTask(sim, task.id, 'completed');
  expect(done.artifacts[0].parts[0]).toMatchObject({ text: 'Rain' });
});
