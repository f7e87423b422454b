/**
 * The agent under test of the v0.3 conformance suite (a2a-tck 0.3.x), played from
 * `scenarios/tck-v03/` at the root: any message starts a task that waits for the next one, which
 * the suite continues, gets and cancels over v0.3 JSON-RPC.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';

const TCK_V03_DIR = fileURLToPath(new URL('../../scenarios/tck-v03', import.meta.url));

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ builtinScenarios: false, scenarioDirs: [TCK_V03_DIR] });
  expect(t.sim.issues).toEqual([]);
});
afterAll(() => t.close());

let id = 0;
async function rpc(method: string, params: unknown): Promise<any> {
  const response = await t.drive(
    fetch(t.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    }),
  );
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  return body.result;
}

const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  message: {
    kind: 'message',
    messageId: `msg-${++id}`,
    role: 'user',
    parts: [{ kind: 'text', text }],
    ...extra,
  },
});

it('keeps every task open: it waits for input, answers each follow-up and waits again', async () => {
  const task = await rpc('message/send', userMessage('Hello from TCK!'));
  expect(task).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
  expect(task.status.message.parts[0].text).toBe(
    'Received "Hello from TCK!". Send a follow-up with this taskId, or cancel the task.',
  );
  for (const text of ['Follow-up message for the existing task', 'and another']) {
    const next = await rpc('message/send', userMessage(text, { taskId: task.id, contextId: task.contextId }));
    expect(next).toMatchObject({ id: task.id, status: { state: 'input-required' } });
  }
  const got = await rpc('tasks/get', { id: task.id, historyLength: 2 });
  expect(got.history).toHaveLength(2);
  const canceled = await rpc('tasks/cancel', { id: task.id });
  expect(canceled.status.state).toBe('canceled');
});

it('starts such a task for a message with a file part and no text', async () => {
  const task = await rpc('message/send', {
    message: {
      kind: 'message',
      messageId: 'file-1',
      role: 'user',
      parts: [{ kind: 'file', file: { name: 'a.txt', mimeType: 'text/plain', bytes: 'aGVsbG8=' } }],
    },
  });
  expect(task.status.state).toBe('input-required');
});
