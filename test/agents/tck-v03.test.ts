/**
 * The agent under test of the v0.3 conformance suite (a2a-tck 0.3.x), played from
 * `scenarios/tck-v03/` at the root: any message starts a task that waits for the next one, which
 * the suite continues, gets and cancels over v0.3 JSON-RPC.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { rpc, v03Send } from '../helpers/wire.js';

const TCK_V03_DIR = fileURLToPath(new URL('../../scenarios/tck-v03', import.meta.url));

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ builtinScenarios: false, scenarioDirs: [TCK_V03_DIR] });
  expect(t.sim.issues).toEqual([]);
});
afterAll(() => t.close());

let id = 0;
/** A v0.3 call on the running clock; its result, failing the test on an error answer. */
async function call(method: string, params: unknown): Promise<any> {
  const { body } = await t.drive(rpc(t, method, params, { id: ++id }));
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  return body.result;
}

it('keeps every task open: it waits for input, answers each follow-up and waits again', async () => {
  const task = await call('message/send', v03Send('Hello from TCK!'));
  expect(task).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
  expect(task.status.message.parts[0].text).toBe(
    'Received "Hello from TCK!". Send a follow-up with this taskId, or cancel the task.',
  );
  for (const text of ['Follow-up message for the existing task', 'and another']) {
    const next = await call('message/send', v03Send(text, { taskId: task.id, contextId: task.contextId }));
    expect(next).toMatchObject({ id: task.id, status: { state: 'input-required' } });
  }
  const got = await call('tasks/get', { id: task.id, historyLength: 2 });
  expect(got.history).toHaveLength(2);
  const canceled = await call('tasks/cancel', { id: task.id });
  expect(canceled.status.state).toBe('canceled');
});

it('starts such a task for a message with a file part and no text', async () => {
  const task = await call('message/send', {
    message: {
      kind: 'message',
      messageId: 'file-1',
      role: 'user',
      parts: [{ kind: 'file', file: { name: 'a.txt', mimeType: 'text/plain', bytes: 'aGVsbG8=' } }],
    },
  });
  expect(task.status.state).toBe('input-required');
});
