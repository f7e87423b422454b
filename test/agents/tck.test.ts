/**
 * The agent under test of the A2A conformance suite (a2a-tck, 1.0-dev), played from
 * `scenarios/tck/`: every behaviour its messageId prefixes ask for, over REST and JSON-RPC 1.0,
 * with the long-running one on the virtual clock.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getSse, postSse, type SseEvent, type SseReader } from '../helpers/sse.js';
import { getJson, postJson, rpcEnvelope, rpcStream, V1_HEADERS, v1Message } from '../helpers/wire.js';

const TCK_DIR = fileURLToPath(new URL('../../scenarios/tck', import.meta.url));

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ scenarioDirs: [TCK_DIR] });
  expect(t.sim.issues).toEqual([]);
});
afterAll(() => t.close());

let sequence = 0;
/** A message as the TCK writes it: `tck-<behaviour>-<session>`. */
const message = (prefix: string, extra: Record<string, unknown> = {}) =>
  v1Message('TCK test message', { messageId: `${prefix}-${++sequence}`, ...extra });

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.drive(postJson(t, path, body, { ...V1_HEADERS, ...headers }));

interface Binding {
  name: string;
  /** The SendMessageResponse (`{task}` or `{message}`), or the error answer as it came. */
  send(agent: string, msg: unknown, headers?: Record<string, string>): Promise<{ result?: any; error?: any }>;
  stream(agent: string, msg: unknown): Promise<SseReader>;
  subscribe(agent: string, taskId: string): Promise<SseReader>;
  /** A frame's StreamResponse, without the binding's envelope. */
  payload(event: SseEvent): any;
  /** An error answer's code and message, and its ErrorInfo reason. */
  refusal(error: any): [number, string, string];
}

const BINDINGS: Binding[] = [
  {
    name: 'REST',
    send: async (agent, msg, headers) => {
      const { status, body } = await post(`/agents/${agent}/message:send`, { message: msg }, headers);
      return status === 200 ? { result: body } : { error: { status, ...body.error } };
    },
    stream: (agent, msg) => postSse(`${t.url}/agents/${agent}/message:stream`, { message: msg }, V1_HEADERS),
    subscribe: (agent, taskId) => getSse(`${t.url}/agents/${agent}/tasks/${taskId}:subscribe`, V1_HEADERS),
    payload: (event) => event.json,
    refusal: (error) => [error.code, error.message, error.details[0].reason],
  },
  {
    name: 'JSON-RPC',
    send: async (agent, msg, headers) => {
      const { body } = await post(`/agents/${agent}/`, rpcEnvelope('SendMessage', { message: msg }), headers);
      return body.error ? { error: body.error } : { result: body.result };
    },
    stream: (agent, msg) =>
      rpcStream(t, 'SendStreamingMessage', { message: msg }, { path: `/agents/${agent}/`, version: '1.0' }),
    subscribe: (agent, taskId) =>
      rpcStream(t, 'SubscribeToTask', { id: taskId }, { path: `/agents/${agent}/`, version: '1.0' }),
    payload: (event) => event.json.result,
    refusal: (error) => [error.code, error.message, error.data[0].reason],
  },
];

/** What a stream's frames are: `task`, a status's state, or `artifact`. */
function kinds(payloads: any[]): string[] {
  return payloads.map((p) =>
    p.task
      ? 'task'
      : p.statusUpdate
        ? p.statusUpdate.status.state
        : p.artifactUpdate
          ? 'artifact'
          : 'message',
  );
}

const textOf = (msg: any) => msg.parts.map((p: any) => p.text).join('');

describe.each(BINDINGS)('the TCK agent over $name', (binding) => {
  const send = (prefix: string, extra: Record<string, unknown> = {}) =>
    binding.send('tck', message(prefix, extra));
  const taskOf = async (prefix: string) => {
    const { result } = await send(prefix);
    expect(result?.task, JSON.stringify(result)).toBeDefined();
    return result.task;
  };

  it('tck-complete-task: completes with the message "Hello from TCK"', async () => {
    const task = await taskOf('tck-complete-task');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.status.message)).toBe('Hello from TCK');
  });

  it.each([
    ['tck-artifact-text', { text: 'Generated text content' }],
    ['tck-artifact-file', { raw: 'dGNr', filename: 'output.txt', mediaType: 'text/plain' }],
    [
      'tck-artifact-file-url',
      { url: 'https://example.com/output.txt', filename: 'output.txt', mediaType: 'text/plain' },
    ],
    ['tck-artifact-data', { data: { key: 'value', count: 42 } }],
  ])('%s: completes with one artifact holding that part', async (prefix, part) => {
    const task = await taskOf(prefix);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0].artifactId).toEqual(expect.any(String));
    expect(task.artifacts[0].parts).toEqual([part]);
  });

  it('tck-message-response: answers with a message, not a task', async () => {
    const { result } = await send('tck-message-response');
    expect(result.task).toBeUndefined();
    expect(result.message).toMatchObject({
      role: 'ROLE_AGENT',
      parts: [{ text: 'Direct message response' }],
    });
  });

  it('tck-input-required: waits without a status message, again and again, until told to complete', async () => {
    const task = await taskOf('tck-input-required');
    expect(task.status).not.toHaveProperty('message');
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    for (const text of ['TCK history message 1', 'TCK history message 2']) {
      const again = await binding.send(
        'tck',
        message('tck-input-required', { taskId: task.id, parts: [{ text }] }),
      );
      expect(again.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    }
    const done = (await send('tck-complete-task', { taskId: task.id })).result.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(done.status.message)).toBe('Hello from TCK');
    const said = done.history.filter((m: any) => m.role === 'ROLE_USER').map(textOf);
    expect(said).toEqual([
      'TCK test message',
      'TCK history message 1',
      'TCK history message 2',
      'TCK test message',
    ]);
  });

  it('tck-reject-task: answers with an error and creates no task', async () => {
    const before = t.sim.store.size;
    const { error } = await send('tck-reject-task');
    const [code, text, reason] = binding.refusal(error);
    expect(code).toBe(binding.name === 'REST' ? 500 : -32603);
    expect([text, reason]).toEqual(['rejected', 'INTERNAL']);
    expect(t.sim.store.size).toBe(before);
  });

  it('an unknown prefix completes with a message naming the messageId', async () => {
    const msg = message('tck-dm-test-001');
    const task = (await binding.send('tck', msg)).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.status.message)).toBe(`Unhandled messageId prefix: ${msg.messageId}`);
  });

  it.each([
    ['tck-stream-001', 'Stream hello from TCK'],
    ['tck-stream-003', 'Stream task lifecycle'],
    ['tck-stream-ordering-001', 'Ordered output'],
    ['tck-stream-artifact-text', 'Streamed text content'],
  ])('%s: streams the task, working, a text artifact, completed', async (prefix, text) => {
    const events = (await t.drive(binding.stream('tck', message(prefix)).then((s) => s.rest()))).map(
      binding.payload,
    );
    expect(kinds(events)).toEqual(['task', 'TASK_STATE_WORKING', 'artifact', 'TASK_STATE_COMPLETED']);
    expect(events[2].artifactUpdate.artifact.parts).toEqual([{ text }]);
  });

  it('tck-stream-002: streams the task, then completed', async () => {
    const events = await t.drive(binding.stream('tck', message('tck-stream-002')).then((s) => s.rest()));
    expect(kinds(events.map(binding.payload))).toEqual(['task', 'TASK_STATE_COMPLETED']);
  });

  it('tck-stream-artifact-file: streams a file part with its filename and media type', async () => {
    const events = (
      await t.drive(binding.stream('tck', message('tck-stream-artifact-file')).then((s) => s.rest()))
    ).map(binding.payload);
    expect(kinds(events)).toEqual(['task', 'TASK_STATE_WORKING', 'artifact', 'TASK_STATE_COMPLETED']);
    expect(events[2].artifactUpdate.artifact.parts).toEqual([
      { raw: 'dGNr', filename: 'output.txt', mediaType: 'text/plain' },
    ]);
  });

  it('tck-stream-artifact-chunked: streams one artifact in two appending chunks, the last one flagged', async () => {
    const events = (
      await t.drive(binding.stream('tck', message('tck-stream-artifact-chunked')).then((s) => s.rest()))
    ).map(binding.payload);
    expect(kinds(events)).toEqual([
      'task',
      'TASK_STATE_WORKING',
      'artifact',
      'artifact',
      'TASK_STATE_COMPLETED',
    ]);
    const [first, last] = [events[2].artifactUpdate, events[3].artifactUpdate];
    expect([first.artifact.parts, first.append, first.lastChunk ?? false]).toEqual([
      [{ text: 'chunk-1 ' }],
      true,
      false,
    ]);
    expect([last.artifact.parts, last.append, last.lastChunk]).toEqual([[{ text: 'chunk-2' }], true, true]);
    expect(last.artifact.artifactId).toBe(first.artifact.artifactId);
  });

  it('test-resubscribe-message-id: works for 4 s, long enough to subscribe to it again', async () => {
    const stream = await binding.stream('tck', message('test-resubscribe-message-id'));
    const opened = [binding.payload((await stream.next())!), binding.payload((await stream.next())!)];
    expect(kinds(opened)).toEqual(['task', 'TASK_STATE_WORKING']);
    const taskId = opened[0].task.id;

    t.clock.advance(3_999);
    const again = await binding.subscribe('tck', taskId);
    const first = binding.payload((await again.next())!);
    expect(first.task).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_WORKING' } });
    t.clock.advance(1);
    expect(kinds((await again.rest()).map(binding.payload))).toEqual(['TASK_STATE_COMPLETED']);
    expect(kinds((await stream.rest()).map(binding.payload))).toEqual(['TASK_STATE_COMPLETED']);
  });
});

describe('the TCK agent behind a required extension (CORE-CAP-004)', () => {
  const URI = 'urn:a2a:tck:required-extension';

  it('declares the extension as required on its card', async () => {
    const card = (await getJson(t, '/agents/tck-extensions/.well-known/agent-card.json', V1_HEADERS)).body;
    expect(card.capabilities.extensions).toEqual([expect.objectContaining({ uri: URI, required: true })]);
  });

  it.each(BINDINGS)('refuses a call without it over $name, and serves one with it', async (binding) => {
    const { error } = await binding.send('tck-extensions', message('tck-complete-task'));
    expect(binding.refusal(error)[2]).toBe('EXTENSION_SUPPORT_REQUIRED');
    const { result } = await binding.send('tck-extensions', message('tck-complete-task'), {
      'A2A-Extensions': URI,
    });
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe("the TCK agent's card", () => {
  it('offers streaming and push notifications, the tck skill, and text/plain modes', async () => {
    const card = (await getJson(t, '/agents/tck/.well-known/agent-card.json', V1_HEADERS)).body;
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(card.capabilities).not.toHaveProperty('extensions');
    expect(card.skills).toEqual([expect.objectContaining({ id: 'tck', tags: ['tck'] })]);
    expect([card.defaultInputModes, card.defaultOutputModes]).toEqual([['text/plain'], ['text/plain']]);
  });
});
