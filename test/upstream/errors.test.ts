/**
 * The errors a real agent answers with, read as the A2AError of the same type so the proxy can relay
 * them: JSON-RPC error objects (rpc-errors.ts, both dialects) and REST google.rpc.Status bodies
 * (rest-errors.ts). What the simulator's own bindings write must read back as what they meant.
 */
import { describe, expect, it } from 'vitest';
import { toRpcError as toV03RpcError } from '../../src/bindings/jsonrpc-v03/errors.js';
import { toRpcError as toV1RpcError } from '../../src/bindings/jsonrpc-v1/errors.js';
import { toRestStatus } from '../../src/bindings/rest-v1/errors.js';
import { A2AError, ERROR_TABLE, type A2AErrorType } from '../../src/domain/errors.js';
import { invalidAgentResponse } from '../../src/upstream/dialect.js';
import { V03_DIALECT } from '../../src/upstream/dialect-v03.js';
import { V1_DIALECT } from '../../src/upstream/dialect-v1.js';
import { restError } from '../../src/upstream/rest-errors.js';

const overTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function expectInvalidAgentResponse(error: A2AError, ...says: string[]): void {
  expect([error.type, error.details.httpStatus]).toEqual(['InvalidAgentResponseError', 502]);
  expect(error.message).toMatch(/^Invalid agent response: /);
  for (const text of says) expect(error.message).toContain(text);
}

const DIALECTS = [
  { name: 'v1.0', dialect: V1_DIALECT, toRpcError: toV1RpcError },
  { name: 'v0.3', dialect: V03_DIALECT, toRpcError: toV03RpcError },
] as const;

describe.each(DIALECTS)('$name rpcError', ({ dialect, toRpcError }) => {
  it('reads what the JSON-RPC binding answers, every type of the table, as the same error', () => {
    for (const type of Object.keys(ERROR_TABLE) as A2AErrorType[]) {
      const sent = new A2AError(type, `Failed: ${type}`, { metadata: { taskId: 't1' } });
      const envelope = overTheWire(toRpcError(1, sent)) as { error: unknown };
      const got = dialect.rpcError(envelope.error);
      expect([got.type, got.message, got.reason], type).toEqual([type, sent.message, sent.reason]);
      expect(got.details.metadata, type).toEqual({ taskId: 't1' });
    }
  });

  it.each([
    [{ code: -32001, message: 'Task not found: t9' }, 'TaskNotFoundError'],
    [{ code: -32006, message: 'The model answered nonsense' }, 'InvalidAgentResponseError'],
    // Not an A2A error, but an error all the same: the agent failed.
    [{ code: 4711, message: 'Quota of the month used up' }, 'InternalError'],
    [{ code: -32000, message: 'Server error' }, 'InternalError'],
    [{ code: -32601, message: 'No such method' }, 'MethodNotFoundError'],
  ] as const)('%j is %s, its message kept', (error, type) => {
    const got = dialect.rpcError(error);
    expect([got.type, got.message]).toEqual([type, error.message]);
  });

  it('lets the ErrorInfo reason pick among the types sharing a code, or name the type of an unknown code', () => {
    const errorInfo = (reason: string) => [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }];
    expect(
      dialect.rpcError({ code: -32000, message: 'Slow down', data: errorInfo('RESOURCE_EXHAUSTED') }).type,
    ).toBe('ResourceExhaustedError');
    expect(
      dialect.rpcError({ code: -32601, message: 'GET only', data: errorInfo('METHOD_NOT_ALLOWED') }).type,
    ).toBe('MethodNotAllowedError');
    expect(dialect.rpcError({ code: -31000, message: 'Gone', data: errorInfo('TASK_NOT_FOUND') }).type).toBe(
      'TaskNotFoundError',
    );
    // The code is the normative signal: a reason that contradicts it does not win.
    expect(
      dialect.rpcError({ code: -32001, message: 'Not found', data: errorInfo('UNAVAILABLE') }).type,
    ).toBe('TaskNotFoundError');
  });

  it('keeps a reason outside the table, and the violations', () => {
    const got = dialect.rpcError({
      code: -32602,
      message: 'Too late',
      data: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'EVENTS_EXPIRED', domain: 'x' },
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'afterSeq', description: 'expired' }],
        },
      ],
    });
    expect([got.type, got.reason, got.details.fieldViolations]).toEqual([
      'InvalidParamsError',
      'EVENTS_EXPIRED',
      [{ field: 'afterSeq', description: 'expired' }],
    ]);
  });

  it.each([['not an error'], [{ code: 'x', message: 'm' }], [{ code: -32001 }], [undefined]])(
    'refuses %j as an error object',
    (error) => expectInvalidAgentResponse(dialect.rpcError(error), 'error'),
  );
});

describe('restError', () => {
  it('reads a 404 TASK_NOT_FOUND status as TaskNotFoundError, message and metadata kept', () => {
    const body = {
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: 'Task not found: t9',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
            metadata: { taskId: 't9' },
          },
        ],
      },
    };
    const got = restError(404, body);
    expect([got.type, got.message, got.details.metadata]).toEqual([
      'TaskNotFoundError',
      'Task not found: t9',
      { taskId: 't9' },
    ]);
  });

  it('reads a 429 with Retry-After as ResourceExhaustedError that says when to retry', () => {
    const got = restError(
      429,
      { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Slow down' } },
      '3',
    );
    expect([got.type, got.message, got.details.retryAfterMs]).toEqual([
      'ResourceExhaustedError',
      'Slow down',
      3000,
    ]);
    expect(
      restError(429, { error: { message: 'Slow down' } }, 'Wed, 21 Oct 2026 07:28:00 GMT').details
        .retryAfterMs,
    ).toBe(undefined);
  });

  it('falls back on the HTTP status where no reason is known', () => {
    const cases: [number, A2AErrorType][] = [
      [400, 'InvalidParamsError'],
      [401, 'UnauthenticatedError'],
      [403, 'PermissionDeniedError'],
      [404, 'TaskNotFoundError'],
      [409, 'InvalidRequestError'],
      [429, 'ResourceExhaustedError'],
      [502, 'InternalError'],
      [503, 'UnavailableError'],
    ];
    for (const [status, type] of cases) {
      const got = restError(status, {
        error: { code: status, message: '', details: [{ '@type': 'x', reason: 'Y' }] },
      });
      expect([status, got.type, got.message]).toEqual([status, type, ERROR_TABLE[type].message]);
    }
  });

  it('reads what the REST binding answers, every type of the table, as the same error', () => {
    for (const type of Object.keys(ERROR_TABLE) as A2AErrorType[]) {
      const sent = new A2AError(type, `Failed: ${type}`);
      const { httpStatus, body } = toRestStatus(sent);
      const got = restError(httpStatus, overTheWire(body));
      expect([got.type, got.message], type).toEqual([type, sent.message]);
    }
  });

  it.each<[status: number, body: unknown, ...says: string[]]>([
    [
      502,
      '<html>Bad Gateway</html>',
      'HTTP 502 with a body that is not a google.rpc.Status',
      'got "<html>Bad Gateway</html>"',
    ],
    [500, undefined, 'HTTP 500', 'got nothing'],
    [400, { error: 'bad' }, 'HTTP 400'],
    [404, { message: 'not found' }, 'HTTP 404'],
  ])('refuses an HTTP %i with %j', (status, body, ...says) =>
    expectInvalidAgentResponse(restError(status, body), ...says),
  );
});

it('invalidAgentResponse is a 502 InvalidAgentResponseError', () => {
  const error = invalidAgentResponse('nothing usable');
  expect([error.type, error.message, error.details.httpStatus, error.reason]).toEqual([
    'InvalidAgentResponseError',
    'Invalid agent response: nothing usable',
    502,
    'INVALID_AGENT_RESPONSE',
  ]);
});
