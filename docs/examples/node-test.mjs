// A complete node:test file against a2a-sim: `node --test docs/examples/node-test.mjs`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSimulator, drive, VirtualClock, waitForTask } from 'a2a-sim';

const clock = new VirtualClock();
let sim;
before(async () => {
  sim = await createSimulator({ port: 0, clock, logLevel: 'silent' });
});
after(() => sim.close());

test('a task on virtual time: submitted at once, completed once the clock has run', async () => {
  const response = await drive(
    clock,
    fetch(`${sim.url}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        message: { role: 'ROLE_USER', parts: [{ text: 'What is the weather today?' }], messageId: 'm-1' },
        configuration: { returnImmediately: true },
      }),
    }),
  );
  const { task } = await response.json();
  assert.equal(task.status.state, 'TASK_STATE_SUBMITTED');
  const done = await waitForTask(sim, task.id, 'completed');
  assert.equal(done.artifacts[0].name, 'Weather Report');
});

test('a scenario of the test’s own, forgotten afterwards', async () => {
  await sim.use('id: canned\nmatch:\n  - keywords: [canned]\nreply:\n  message: A canned answer\n');
  const response = await drive(
    clock,
    fetch(`${sim.url}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        message: { role: 'ROLE_USER', parts: [{ text: 'Something canned, please' }], messageId: 'm-2' },
      }),
    }),
  );
  assert.equal((await response.json()).message.parts[0].text, 'A canned answer');
  sim.resetScenarios();
});
