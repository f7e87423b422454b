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

/** A message:send, with the virtual clock run until it is answered; `extra` adds request members. */
async function send(text, extra = {}) {
  const response = await drive(
    clock,
    fetch(`${sim.url}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        message: { role: 'ROLE_USER', parts: [{ text }], messageId: crypto.randomUUID() },
        ...extra,
      }),
    }),
  );
  return response.json();
}

test('a task on virtual time: submitted at once, completed once the clock has run', async () => {
  const { task } = await send('What is the weather today?', { configuration: { returnImmediately: true } });
  assert.equal(task.status.state, 'TASK_STATE_SUBMITTED');
  const done = await waitForTask(sim, task.id, 'completed');
  assert.equal(done.artifacts[0].name, 'Weather Report');
});

test('a scenario of the test’s own, forgotten afterwards', async () => {
  await sim.use('id: canned\nmatch:\n  - keywords: [canned]\nreply:\n  message: A canned answer\n');
  assert.equal((await send('Something canned, please')).message.parts[0].text, 'A canned answer');
  sim.resetScenarios();
  const after = await send('Something canned, please');
  assert.notEqual(after.message?.parts[0].text, 'A canned answer');
});
