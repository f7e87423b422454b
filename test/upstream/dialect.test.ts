/**
 * The client-side codecs the proxy talks to a real agent with. What the server's encoders write, the
 * dialects must read back unchanged (the simulator is the reference agent); what no agent may send,
 * they refuse with a 502 naming the path.
 */
import { describe, expect, it } from 'vitest';
import * as v03Codec from '../../src/bindings/jsonrpc-v03/codec.js';
import * as v1Codec from '../../src/bindings/v1/codec.js';
import type { DataItem } from '../../src/calls/wire.js';
import { A2AError } from '../../src/domain/errors.js';
import type { Artifact, Message, SendRequest, Task, TaskEvent, TaskStatus } from '../../src/domain/types.js';
import { ABSENT_TIMESTAMP } from '../../src/upstream/agent-objects.js';
import { V03_DIALECT } from '../../src/upstream/dialect-v03.js';
import { V1_DIALECT } from '../../src/upstream/dialect-v1.js';

/** Through JSON and back, as over a connection. */
const overTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const question: Message = {
  messageId: 'm2',
  role: 'agent',
  parts: [{ kind: 'text', text: 'Which date?' }],
  taskId: 't1',
  contextId: 'c1',
};

const status: TaskStatus = {
  state: 'input-required',
  message: question,
  timestamp: '2026-01-01T00:00:01.000Z',
};

// v0.3 has no media type or file name on text and data parts, so only file parts carry them here.
const artifact: Artifact = {
  artifactId: 'a1',
  name: 'itinerary',
  description: 'The flight, as booked',
  parts: [
    { kind: 'text', text: 'Flight LH 400' },
    { kind: 'bytes', bytes: 'aGVsbG8=', filename: 'ticket.pdf', mediaType: 'application/pdf' },
    { kind: 'url', url: 'https://example.com/boarding-pass.png', mediaType: 'image/png' },
    { kind: 'data', data: { seats: 2, window: true }, metadata: { schema: 'seating' } },
    { kind: 'data', data: [1, 2, 3] },
  ],
  metadata: { final: true },
};

const task: Task = {
  id: 't1',
  contextId: 'c1',
  status,
  artifacts: [artifact],
  history: [
    {
      messageId: 'm1',
      role: 'user',
      parts: [{ kind: 'text', text: 'Book a flight to Frankfurt' }],
      contextId: 'c1',
      referenceTaskIds: ['t0'],
      extensions: ['https://example.com/ext/v1'],
    },
  ],
  metadata: { priority: 'high' },
};

const logged = (event: TaskEvent, last?: true): DataItem => ({
  kind: 'event',
  event: { seq: 3, taskId: 't1', contextId: 'c1', atMs: 0, event },
  ...(last && { last }),
});

const CODECS = [
  { name: 'v1.0', dialect: V1_DIALECT, codec: v1Codec },
  { name: 'v0.3', dialect: V03_DIALECT, codec: v03Codec },
] as const;

describe.each(CODECS)('$name: what the server encoders write reads back the same', ({ dialect, codec }) => {
  it('a task with text, bytes, url and data parts, history, metadata and a status message', () => {
    expect(dialect.task(overTheWire(codec.toWireTask(task)))).toEqual(task);
  });

  it('each stream item: snapshot, task, message, status, artifact chunks', () => {
    const ids = { taskId: 't1', contextId: 'c1' };
    const cases: [DataItem, unknown][] = [
      [
        { kind: 'snapshot', task },
        { kind: 'task', task },
      ],
      [logged({ kind: 'task', task }), { kind: 'task', task }],
      [
        { kind: 'message', message: question },
        { kind: 'message', message: question },
      ],
      [logged({ kind: 'status', status }, true), { kind: 'status', ...ids, status }],
      ...[true, false].map((flag): [DataItem, unknown] => [
        logged({ kind: 'artifact', artifact, append: flag, lastChunk: flag }),
        { kind: 'artifact', ...ids, artifact, append: flag, lastChunk: flag },
      ]),
    ];
    for (const [item, expected] of cases) {
      expect(dialect.streamItem(overTheWire(codec.toWireStreamResponse(item)))).toEqual(expected);
    }
  });

  it('a send result: the task or the message', () => {
    // v1.0 wraps it in a SendMessageResponse; v0.3 sends it bare, tagged by its kind.
    const wrap = (member: string, item: object) => (dialect === V1_DIALECT ? { [member]: item } : item);
    const taskResult = wrap('task', codec.toWireTask(task));
    const messageResult = wrap('message', codec.toWireMessage(question));
    expect(dialect.sendResult(overTheWire(taskResult))).toEqual({ kind: 'task', task });
    expect(dialect.sendResult(overTheWire(messageResult))).toEqual({ kind: 'message', message: question });
  });

  it('send params the server codec reads as the same request, less its push config and blocking', () => {
    const request: SendRequest = {
      message: { messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }], taskId: 't1' },
      configuration: {
        acceptedOutputModes: ['text/plain'],
        historyLength: 2,
        returnImmediately: true,
        pushConfig: { url: 'https://hooks.example.com/a2a' },
      },
      metadata: { trace: 'x' },
    };
    for (const blocking of [true, false]) {
      const params = overTheWire(dialect.sendParams(request, blocking));
      expect(codec.fromWireSendRequest(params)).toEqual({
        ...request,
        configuration: {
          acceptedOutputModes: ['text/plain'],
          historyLength: 2,
          returnImmediately: !blocking,
        },
      });
    }
  });
});

/** The error `decode` throws, which must be the agent's fault. */
function refusal(decode: () => unknown): A2AError {
  try {
    decode();
  } catch (error) {
    if (error instanceof A2AError) return error;
    throw error;
  }
  throw new Error('expected the value to be refused');
}

/** What the refusal must say, the call that must refuse, and the value it gets. */
type RefusalCase = [says: string, call: 'task' | 'sendResult' | 'streamItem', value: unknown];

function expectRefused(decode: () => unknown, says: string): void {
  const error = refusal(decode);
  expect(error.type).toBe('InvalidAgentResponseError');
  expect(error.details.httpStatus).toBe(502);
  expect(error.message).toMatch(/^Invalid agent response: /);
  expect(error.message).toContain(says);
}

/** What `encode` writes for the test task, with `change` made to it. */
function changed(encode: (t: Task) => unknown, change: (wire: any) => void): unknown {
  const wire = overTheWire(encode(task));
  change(wire);
  return wire;
}

describe('v1.0 refuses what no agent may send, naming the path', () => {
  const taskWith = (change: (wire: any) => void) => changed(v1Codec.toWireTask, change);
  const update = { taskId: 't1', contextId: 'c1' };

  it.each<RefusalCase>([
    ['task: expected an object, got "a task"', 'task', 'a task'],
    ['task.id: is required', 'task', taskWith((t) => delete t.id)],
    ['task.status: is required', 'task', taskWith((t) => delete t.status)],
    [
      'task.status.state: expected one of TASK_STATE_UNSPECIFIED',
      'task',
      taskWith((t) => (t.status.state = 'WORKING')),
    ],
    [
      'task.status.timestamp: expected an RFC 3339 timestamp',
      'task',
      taskWith((t) => (t.status.timestamp = 'today')),
    ],
    [
      'task.artifacts[0].parts[0]: expected exactly one of text, raw, url, data; got text, url',
      'task',
      taskWith((t) => (t.artifacts[0].parts[0].url = 'https://example.com')),
    ],
    [
      'task.artifacts[0].parts[1].raw: expected base64-encoded bytes',
      'task',
      taskWith((t) => (t.artifacts[0].parts[1].raw = '!')),
    ],
    ['task.history: expected a list', 'task', taskWith((t) => (t.history = {}))],
    [
      'message.role: is required; message.parts: needs at least one part',
      'sendResult',
      { message: { messageId: 'm1', parts: [] } },
    ],
    [
      'message.role: expected one of ROLE_USER, ROLE_AGENT, got "agent"',
      'sendResult',
      { message: { messageId: 'm1', role: 'agent', parts: [{ text: 'hi' }] } },
    ],
    [
      'StreamResponse: expected exactly one of task, message, statusUpdate, artifactUpdate; got task, message',
      'streamItem',
      { task: {}, message: {} },
    ],
    [
      'StreamResponse: expected exactly one of task, message, statusUpdate, artifactUpdate; got none',
      'streamItem',
      { kind: 'task' },
    ],
    // An update is no answer to SendMessage, and v1.0 never sends a bare Task there.
    [
      'SendMessageResponse: expected exactly one of task, message; got none',
      'sendResult',
      { statusUpdate: { ...update, status: { state: 2 } } },
    ],
    [
      'SendMessageResponse: expected exactly one of task, message; got none',
      'sendResult',
      taskWith(() => {}),
    ],
    [
      'statusUpdate.taskId: is required',
      'streamItem',
      { statusUpdate: { contextId: 'c1', status: { state: 2 } } },
    ],
    [
      'artifactUpdate.append: expected true or false, got "yes"',
      'streamItem',
      { artifactUpdate: { ...update, artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, append: 'yes' } },
    ],
    ['artifactUpdate.artifact: is required', 'streamItem', { artifactUpdate: update }],
  ])('refuses, saying %s', (says, call, value) => expectRefused(() => V1_DIALECT[call](value), says));

  it('lists every violation at once', () => {
    expectRefused(
      () => V1_DIALECT.task({ contextId: 'c1', status: { state: 'DONE' } }),
      'task.id: is required; task.status.state: expected one of',
    );
  });
});

describe('v1.0 reads leniently where ProtoJSON allows', () => {
  it('takes snake_case, enum numbers and unknown fields; reads absent lists and context as empty', () => {
    const got = V1_DIALECT.task({
      id: 't1',
      status: {
        state: 6,
        timestamp: '2026-01-01T02:00:01+02:00',
        message: { message_id: 'm2', role: 2, parts: [{ text: 'Which date?', media_type: 'text/plain' }] },
      },
      unknownField: { ignored: true },
    });
    expect(got).toEqual({
      id: 't1',
      contextId: '',
      status: {
        state: 'input-required',
        // Normalised to the domain's form: the instant is kept.
        timestamp: '2026-01-01T00:00:01.000Z',
        message: {
          messageId: 'm2',
          role: 'agent',
          parts: [{ kind: 'text', text: 'Which date?', mediaType: 'text/plain' }],
        },
      },
      artifacts: [],
      history: [],
    });
  });

  it('stands the epoch in for a status timestamp the agent left out', () => {
    expect(V1_DIALECT.task({ id: 't1', status: { state: 'TASK_STATE_WORKING' } }).status).toEqual({
      state: 'working',
      timestamp: ABSENT_TIMESTAMP,
    });
  });

  it('takes a nanosecond timestamp and TASK_STATE_UNSPECIFIED', () => {
    const got = V1_DIALECT.streamItem({
      status_update: {
        task_id: 't1',
        context_id: 'c1',
        status: { state: 'TASK_STATE_UNSPECIFIED', timestamp: '2026-01-01T00:00:01.123456789Z' },
      },
    });
    expect(got).toEqual({
      kind: 'status',
      taskId: 't1',
      contextId: 'c1',
      status: { state: 'unknown', timestamp: '2026-01-01T00:00:01.123Z' },
    });
  });
});

describe('v0.3 refuses what no agent may send, naming the path', () => {
  const taskWith = (change: (wire: any) => void) => changed(v03Codec.toWireTask, change);
  const statusUpdate = { kind: 'status-update', taskId: 't1', contextId: 'c1', status: { state: 'working' } };

  it.each<RefusalCase>([
    ['result: expected an object, got a list', 'streamItem', [1]],
    [
      'result.kind: expected one of task, message, status-update, artifact-update, got "event"',
      'streamItem',
      taskWith((t) => (t.kind = 'event')),
    ],
    ['result.kind: expected one of task, message, got none', 'sendResult', taskWith((t) => delete t.kind)],
    ['result.kind: expected one of task, message, got "status-update"', 'sendResult', statusUpdate],
    ['task.id: is required', 'task', taskWith((t) => (t.id = ''))],
    // v0.3 requires it, unlike v1.0.
    ['result.contextId: is required', 'sendResult', taskWith((t) => delete t.contextId)],
    [
      'result.status.state: expected one of submitted, working',
      'sendResult',
      taskWith((t) => (t.status.state = 'TASK_STATE_WORKING')),
    ],
    [
      'task.artifacts[0].parts[1].file: expected exactly one of bytes, uri',
      'task',
      taskWith((t) => (t.artifacts[0].parts[1].file.uri = 'https://x')),
    ],
    [
      'task.artifacts[0].parts[0].kind: expected one of text, file, data, got undefined',
      'task',
      taskWith((t) => (t.artifacts[0].parts[0] = { text: 'v1.0 part' })),
    ],
    [
      'task.history[0].kind: expected "message", got "task"',
      'task',
      taskWith((t) => (t.history[0].kind = 'task')),
    ],
    ['result.final: expected true or false, got "no"', 'streamItem', { ...statusUpdate, final: 'no' }],
  ])('refuses, saying %s', (says, call, value) => expectRefused(() => V03_DIALECT[call](value), says));

  it('forgives a nested message without its kind tag, and a status-update without final', () => {
    expect(V03_DIALECT.task(taskWith((t) => delete t.history[0].kind))).toEqual(task);
    expect(V03_DIALECT.streamItem({ ...statusUpdate, status: { state: 'unknown' } })).toEqual({
      kind: 'status',
      taskId: 't1',
      contextId: 'c1',
      status: { state: 'unknown', timestamp: ABSENT_TIMESTAMP },
    });
  });
});
