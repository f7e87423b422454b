// A complete node:test file against a2a-sim: `node --test docs/examples/node-test.mjs`.
// registerA2aSim puts the simulator's lifecycle on node:test's hooks (Jest's: beforeAll, afterEach, afterAll).
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { registerA2aSim } from 'a2a-sim/testing';

const a2a = registerA2aSim({ beforeAll: before, afterEach, afterAll: after });

/** A message:send, with the virtual clock run until it is answered; `extra` adds request members. */
async function send(text, extra = {}) {
  const response = await a2a.drive(
    fetch(`${a2a.url}/message:send`, {
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
  const done = await a2a.waitForTask(task.id, 'completed');
  assert.equal(done.artifacts[0].name, 'Weather Report');
});

test('a scenario of the test’s own, gone after a reset with every task', async () => {
  await a2a.use('id: canned\nmatch:\n  - keywords: [canned]\nreply:\n  message: A canned answer\n');
  assert.equal((await send('Something canned, please')).message.parts[0].text, 'A canned answer');
  await a2a.reset(); // what afterEach does after every test
  assert.equal(a2a.sim.store.size, 0);
  const afterReset = await send('Something canned, please');
  assert.notEqual(afterReset.message?.parts[0].text, 'A canned answer');
});
