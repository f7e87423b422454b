/**
 * Requests of every binding as fast-check arbitraries, built from the real request shapes (a
 * SendMessageRequest in v1.0 and v0.3, the params of each JSON-RPC method) and then mutated, and
 * JSON-RPC envelopes around them with ids of every type, wrong versions, batches.
 */
import fc from 'fast-check';
import { hostileValue, mutated, nested, oddText, TASK_STATES } from './arbitraries.js';

/** What the built-in scenarios answer to, and some they do not. */
export const messageText = fc.oneof(
  fc.constantFrom(
    'What is the weather today?',
    'Book me a flight',
    'From San Francisco to New York',
    'Please fail this task',
    'Check my calendar',
    'Hello there',
    'Write a long report on climate change',
  ),
  oddText,
);

/** Task ids: ones the suite created (`known`), and ones nobody did. */
export const taskId = (known: () => readonly string[]) =>
  fc.oneof(
    fc.nat().map((n) => known()[n % Math.max(1, known().length)] ?? 'none'),
    oddText,
    fc.uuid(),
  );

/** Webhook URLs that never leave this machine (the discard port refuses at once), and broken ones. */
export const hookUrl = fc.constantFrom(
  'http://127.0.0.1:9/hook',
  'http://[::1]:9/hook',
  'https://127.0.0.1:9/h',
  'ftp://127.0.0.1/x',
  'not a url',
  'javascript:alert(1)',
  '',
);

/** Present one time in four, else undefined (and left out of the JSON). */
function rarely<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(value, { nil: undefined, freq: 4 });
}

const metadata = fc.option(
  fc.record(
    {
      scenario: fc.oneof(fc.constantFrom('weather', 'flight-booking', 'failure', 'slow-cancel'), oddText),
      skillId: oddText,
      chaos: fc.oneof(
        fc.constantFrom('drop-after-events=1', 'duplicate-probability=1', 'latency-per-event=0..5ms'),
        oddText,
      ),
      note: hostileValue,
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

export function v1SendRequest(known: () => readonly string[]) {
  const part = fc.oneof(
    messageText.map((text) => ({ text })),
    fc.constant({ raw: 'aGVsbG8=', mediaType: 'application/octet-stream', filename: 'a.bin' }),
    fc.constant({ url: 'https://example.invalid/a.png', mediaType: 'image/png' }),
    fc.constant({ data: { a: 1 }, mediaType: 'application/json' }),
  );
  return mutated(
    fc.record(
      {
        message: fc.record(
          {
            messageId: fc.oneof(fc.uuid(), oddText),
            role: fc.oneof(
              { weight: 8, arbitrary: fc.constant<unknown>('ROLE_USER') },
              fc.constantFrom<unknown>('ROLE_AGENT', 'ROLE_UNSPECIFIED', 1, 2, 'user'),
            ),
            parts: fc.array(part, { minLength: 1, maxLength: 3 }),
            contextId: rarely(fc.oneof(fc.uuid(), oddText)),
            taskId: rarely(taskId(known)),
            metadata,
          },
          { requiredKeys: ['messageId', 'role', 'parts', 'contextId', 'taskId'] },
        ),
        configuration: fc.record(
          {
            acceptedOutputModes: fc.array(fc.constantFrom('text/plain', 'application/json', '*/*', 'x')),
            historyLength: fc.oneof(fc.integer({ min: -2, max: 5 }), hostileValue),
            returnImmediately: fc.boolean(),
            taskPushNotificationConfig: fc.record(
              { url: hookUrl, token: oddText, authentication: fc.record({ scheme: oddText }) },
              { requiredKeys: ['url'] },
            ),
          },
          { requiredKeys: [] },
        ),
        metadata,
        tenant: oddText,
      },
      { requiredKeys: ['message'] },
    ),
  );
}

export function v03SendRequest(known: () => readonly string[]) {
  const part = fc.oneof(
    messageText.map((text) => ({ kind: 'text', text })),
    fc.constant({
      kind: 'file',
      file: { bytes: 'aGVsbG8=', name: 'a.bin', mimeType: 'application/octet-stream' },
    }),
    fc.constant({ kind: 'file', file: { uri: 'https://example.invalid/a.png' } }),
    fc.constant({ kind: 'data', data: { a: 1 } }),
    fc.constant({ kind: 'data', data: { value: 5 }, metadata: { data_part_compat: true } }),
  );
  return mutated(
    fc.record(
      {
        message: fc.record(
          {
            kind: fc.oneof(
              { weight: 8, arbitrary: fc.constant('message') },
              fc.constantFrom('task', 'status-update'),
            ),
            messageId: fc.oneof(fc.uuid(), oddText),
            role: fc.oneof(
              { weight: 8, arbitrary: fc.constant('user') },
              fc.constantFrom('agent', 'ROLE_USER'),
            ),
            parts: fc.array(part, { minLength: 1, maxLength: 3 }),
            contextId: rarely(fc.oneof(fc.uuid(), oddText)),
            taskId: rarely(taskId(known)),
            metadata,
          },
          { requiredKeys: ['messageId', 'role', 'parts', 'contextId', 'taskId'] },
        ),
        configuration: fc.record(
          {
            blocking: fc.boolean(),
            historyLength: fc.integer({ min: -2, max: 5 }),
            acceptedOutputModes: fc.array(fc.constantFrom('text/plain', 'application/json')),
            pushNotificationConfig: fc.record(
              { url: hookUrl, token: oddText, authentication: fc.record({ schemes: fc.array(oddText) }) },
              { requiredKeys: ['url'] },
            ),
          },
          { requiredKeys: [] },
        ),
        metadata,
      },
      { requiredKeys: ['message'] },
    ),
  );
}

/** `[method, params]` for every v1.0 JSON-RPC method, params from its real shape, mutated. */
export function v1Call(known: () => readonly string[]): fc.Arbitrary<[string, unknown]> {
  const id = taskId(known);
  const tenant = fc.option(oddText, { nil: undefined });
  const page = { pageSize: fc.oneof(fc.integer({ min: -1, max: 120 }), hostileValue), pageToken: oddText };
  const calls: fc.Arbitrary<[string, unknown]>[] = [
    fc.tuple(fc.constantFrom('SendMessage', 'SendStreamingMessage'), v1SendRequest(known)),
    fc.tuple(fc.constantFrom('SendMessage', 'SendStreamingMessage'), v1SendRequest(known)),
    fc.tuple(
      fc.constant('GetTask'),
      mutated(fc.record({ id, historyLength: fc.integer({ min: -1, max: 3 }), tenant })),
    ),
    fc.tuple(
      fc.constant('ListTasks'),
      mutated(
        fc.record(
          {
            contextId: oddText,
            status: fc.oneof(fc.constantFrom(...TASK_STATES, 0, 3, 99), oddText),
            historyLength: fc.integer({ min: -1, max: 3 }),
            includeArtifacts: fc.boolean(),
            statusTimestampAfter: fc.constantFrom(
              '2026-01-01T00:00:00Z',
              'yesterday',
              '2026-13-45T99:99:99Z',
            ),
            tenant,
            ...page,
          },
          { requiredKeys: [] },
        ),
      ),
    ),
    fc.tuple(fc.constantFrom('CancelTask', 'SubscribeToTask'), mutated(fc.record({ id, tenant }))),
    fc.tuple(
      fc.constant('CreateTaskPushNotificationConfig'),
      mutated(
        fc.record({ taskId: id, url: hookUrl, token: oddText, tenant }, { requiredKeys: ['taskId', 'url'] }),
      ),
    ),
    fc.tuple(
      fc.constantFrom('GetTaskPushNotificationConfig', 'DeleteTaskPushNotificationConfig'),
      mutated(fc.record({ taskId: id, id: oddText, tenant })),
    ),
    fc.tuple(fc.constant('ListTaskPushNotificationConfigs'), mutated(fc.record({ taskId: id, ...page }))),
    fc.tuple(fc.constant('GetExtendedAgentCard'), fc.constant({})),
  ];
  return fc.oneof(...calls);
}

/** `[method, params]` for every v0.3 JSON-RPC method. */
export function v03Call(known: () => readonly string[]): fc.Arbitrary<[string, unknown]> {
  const id = taskId(known);
  const calls: fc.Arbitrary<[string, unknown]>[] = [
    fc.tuple(fc.constantFrom('message/send', 'message/stream'), v03SendRequest(known)),
    fc.tuple(fc.constantFrom('message/send', 'message/stream'), v03SendRequest(known)),
    fc.tuple(
      fc.constantFrom('tasks/get', 'tasks/cancel'),
      mutated(fc.record({ id, historyLength: fc.nat(3) })),
    ),
    fc.tuple(
      fc.constant('tasks/resubscribe'),
      mutated(
        fc.record({ id, taskId: id, afterSeq: fc.integer({ min: -2, max: 20 }) }, { requiredKeys: [] }),
      ),
    ),
    fc.tuple(
      fc.constant('tasks/pushNotificationConfig/set'),
      mutated(fc.record({ taskId: id, pushNotificationConfig: fc.record({ url: hookUrl, id: oddText }) })),
    ),
    fc.tuple(
      fc.constantFrom('tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/delete'),
      mutated(fc.record({ id, pushNotificationConfigId: oddText }, { requiredKeys: ['id'] })),
    ),
    fc.tuple(fc.constant('tasks/pushNotificationConfig/list'), mutated(fc.record({ id }))),
    fc.tuple(fc.constantFrom('agent/getAuthenticatedExtendedCard', 'tasks/list'), fc.constant({})),
  ];
  return fc.oneof(...calls);
}

/** JSON-RPC ids of every JSON type, valid or not, written as JSON text (`1e400`, `-0`). */
export const rpcIdText: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.oneof(fc.integer(), fc.uuid(), fc.string({ maxLength: 8 })).map((id) => JSON.stringify(id)),
  },
  fc.constantFrom(
    'null',
    '-0',
    '1.5',
    '1e400',
    '-1e400',
    '12345678901234567890',
    'true',
    '{}',
    '[]',
    '[1]',
    '""',
  ),
  fc.constant(undefined),
);

/**
 * A JSON-RPC request body as text: an envelope (its `jsonrpc` sometimes wrong) around `call`, or a
 * batch of them, or text that is not JSON-RPC at all. `extra` adds top-level members (the gateway's
 * selector).
 */
export function rpcBody(
  call: fc.Arbitrary<[string, unknown]>,
  extra: fc.Arbitrary<Record<string, unknown>> = fc.constant({}),
): fc.Arbitrary<string> {
  const envelope = fc
    .tuple(
      call,
      rpcIdText,
      fc.oneof({ weight: 12, arbitrary: fc.constant('"2.0"') }, fc.constantFrom('"1.0"', '2', 'null')),
      fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, oddText),
      extra,
    )
    .map(([[method, params], id, version, otherMethod, members]) => {
      const fields = [
        ...Object.entries(members).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`),
        `"jsonrpc":${version}`,
        ...(id === undefined ? [] : [`"id":${id}`]),
        `"method":${JSON.stringify(otherMethod ?? method)}`,
        ...(params === undefined ? [] : [`"params":${JSON.stringify(params)}`]),
      ];
      return `{${fields.join(',')}}`;
    });
  return fc.oneof(
    { weight: 20, arbitrary: envelope },
    fc.array(envelope, { minLength: 0, maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc.constantFrom('', '{', 'null', '"x"', '42', '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}'),
    fc
      .integer({ min: 65, max: 80 })
      .map((depth) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: nested(depth) })),
  );
}
