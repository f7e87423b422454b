// A complete vitest file against a2a-sim: `useA2aSim()` starts one simulator for the file on a
// virtual clock (beforeAll), resets it after each test and stops it at the end (afterAll).
import { expect, it } from 'vitest';
import { useA2aSim } from 'a2a-sim/vitest';

const a2a = useA2aSim({ seed: 'docs-example' });

/**
 * A blocking message:send, with the virtual clock run until it is answered. `continues` is the task
 * a follow-up belongs to; `extra` adds request members (a configuration, say).
 */
const send = (text, { continues, extra = {} } = {}) =>
  a2a.drive(
    fetch(`${a2a.url}/message:send`, {
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
  // For this test only: the reset after it forgets the scenario.
  await a2a.use({
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
  const done = await a2a.waitForTask(task.id, 'completed');
  expect(done.artifacts[0].parts[0]).toMatchObject({ text: 'Rain' });
});
