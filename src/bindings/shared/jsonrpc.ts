/**
 * The JSON-RPC 2.0 envelope, shared by every JSON-RPC dialect: parse and check a request, and
 * build results and errors that echo the request's `id` with its type unchanged (§9.1).
 */
import { A2AError, type A2AErrorType } from '../../domain/errors.js';
import { parseJson } from './http.js';

export type JsonRpcId = string | number | null;

/**
 * Error codes, the same in every dialect; -32008 and -32009 are v1.0 additions, -32010 the v1.1
 * draft's (only with `--preview generation`).
 */
export const JSONRPC_CODE = Object.freeze({
  TaskNotFoundError: -32001,
  TaskNotCancelableError: -32002,
  PushNotificationNotSupportedError: -32003,
  UnsupportedOperationError: -32004,
  ContentTypeNotSupportedError: -32005,
  InvalidAgentResponseError: -32006,
  ExtendedAgentCardNotConfiguredError: -32007,
  ExtensionSupportRequiredError: -32008,
  VersionNotSupportedError: -32009,
  TaskGenerationMismatchError: -32010,
  ParseError: -32700,
  InvalidRequestError: -32600,
  PayloadTooLargeError: -32600,
  MethodNotFoundError: -32601,
  MethodNotAllowedError: -32601,
  InvalidParamsError: -32602,
  InternalError: -32603,
  // Implementation-defined (-32000 to -32099), unused by A2A.
  UnauthenticatedError: -32000,
  PermissionDeniedError: -32000,
  AgentNotFoundError: -32000,
  UnavailableError: -32000,
  ResourceExhaustedError: -32000,
} as const satisfies Record<A2AErrorType, number>);

/** HTTP statuses a JSON-RPC error keeps; the others travel with 200. */
const KEPT_HTTP_STATUS: Partial<Record<A2AErrorType, number>> = {
  UnauthenticatedError: 401,
  PermissionDeniedError: 403,
  ResourceExhaustedError: 429,
  UnavailableError: 503,
};

/** JSON-RPC errors travel with HTTP 200, except auth failures and overload, which keep HTTP's meaning (§3). */
export function jsonRpcHttpStatus(error: A2AError): number {
  return error.details.httpStatus ?? KEPT_HTTP_STATUS[error.type] ?? 200;
}

export interface JsonRpcRequest {
  id: JsonRpcId;
  method: string;
  params: unknown;
  /** The whole request object, for dialects that read members beside the standard ones. */
  envelope: Readonly<Record<string, unknown>>;
}

/** An envelope problem, answered with the `id` when one could be read (else null). */
export class EnvelopeError extends Error {
  constructor(
    readonly error: A2AError,
    readonly id: JsonRpcId,
  ) {
    super(error.message);
  }
}

export function parseJsonRpcRequest(text: string): JsonRpcRequest {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new EnvelopeError(new A2AError('ParseError', `Parse error: ${parsed.error}.`), null);
  const body = parsed.value;
  if (Array.isArray(body)) {
    throw new EnvelopeError(
      new A2AError(
        'InvalidRequestError',
        'Invalid request: batch requests are not supported; send one request object.',
      ),
      null,
    );
  }
  if (body === null || typeof body !== 'object') {
    throw new EnvelopeError(
      new A2AError('InvalidRequestError', 'Invalid request: expected a JSON-RPC request object.'),
      null,
    );
  }
  const request = body as Record<string, unknown>;
  const rawId = request['id'];
  const idValid =
    rawId === null || typeof rawId === 'string' || (typeof rawId === 'number' && Number.isFinite(rawId));
  const id = idValid ? (rawId as JsonRpcId) : null;
  const invalid = (reason: string) =>
    new EnvelopeError(new A2AError('InvalidRequestError', `Invalid request: ${reason}.`), id);
  if (request['jsonrpc'] !== '2.0') throw invalid('"jsonrpc" must be "2.0"');
  if (!('id' in request)) throw invalid('"id" is required (A2A methods always answer)');
  if (!idValid) throw invalid('"id" must be a string, a number or null');
  if (typeof request['method'] !== 'string' || request['method'] === '')
    throw invalid('"method" must be a non-empty string');
  const params = request['params'];
  if (params !== undefined && (params === null || typeof params !== 'object')) {
    throw invalid('"params" must be an object');
  }
  if (Array.isArray(params)) {
    throw new EnvelopeError(
      new A2AError(
        'InvalidParamsError',
        'Invalid parameters: A2A methods take named params (an object), not a list.',
      ),
      id,
    );
  }
  return { id, method: request['method'], params: params ?? {}, envelope: request };
}

export function rpcResult(id: JsonRpcId, result: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result };
}

export function rpcError(
  id: JsonRpcId,
  code: number,
  message: string,
  data?: unknown,
): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } };
}
