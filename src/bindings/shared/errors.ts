/**
 * The parts of an error body every binding shares: the `google.rpc` detail objects, and the rule
 * that anything that is not an A2AError is an internal error (logged, never leaked as a crash).
 */
import type { ServerResponse } from 'node:http';
import { ConnectionFault } from '../../calls/wire.js';
import { A2AError, invalidParams } from '../../domain/errors.js';

export const ERROR_DOMAIN = 'a2a-protocol.org';

/**
 * `[ErrorInfo, BadRequest?, RetryInfo?]`: ErrorInfo always, since SDK clients map errors by its
 * `reason`; RetryInfo when the error asks the client to wait, since a JSON-RPC transport may not
 * show the client the `Retry-After` header (§9.5 and §11.6 allow further detail objects).
 */
export function errorDetails(error: A2AError): Record<string, unknown>[] {
  const { metadata, fieldViolations, retryAfterMs } = error.details;
  const details = [errorInfo(error.reason, metadata)];
  if (fieldViolations?.length) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations });
  }
  if (retryAfterMs !== undefined) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: protoDuration(retryAfterMs),
    });
  }
  return details;
}

/**
 * A `google.protobuf.Duration` in ProtoJSON: seconds with 0 or 3 fractional digits.
 * @example protoDuration(1500) // '1.500s'
 */
export function protoDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  return whole % 1000 === 0 ? `${whole / 1000}s` : `${(whole / 1000).toFixed(3)}s`;
}

/** A `google.rpc.ErrorInfo` detail; its metadata is a map of strings. */
function errorInfo(reason: string, metadata?: Record<string, string | number>): Record<string, unknown> {
  return {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason,
    domain: ERROR_DOMAIN,
    ...(metadata && {
      metadata: Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, String(value)])),
    }),
  };
}

/**
 * Any thrown value as an A2AError: a request the HTTP layer refused is the client's error; anything
 * else unexpected becomes InternalError and is reported.
 */
export function asA2AError(error: unknown, report: (error: unknown) => void): A2AError {
  if (error instanceof A2AError) return error;
  const refused = requestError(error);
  if (refused) return refused;
  report(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new A2AError(
    'InternalError',
    `Internal error: ${reason}. This is a simulator bug; please report it.`,
  );
}

/**
 * What express and its middleware throw at a bad request, following the http-errors convention of a
 * 4xx `status`: the router decodes `:params` in paths, and `%ZZ` there throws a URIError.
 */
function requestError(error: unknown): A2AError | undefined {
  if (!(error instanceof Error)) return undefined;
  const status = (error as { status?: unknown }).status;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (error instanceof URIError) {
    return invalidParams([
      { field: 'path', description: `${error.message}: not valid percent-encoding (write "%" as %25)` },
    ]);
  }
  return new A2AError('InvalidRequestError', `Invalid request: ${error.message}.`, { httpStatus: status });
}

/**
 * How every binding ends a call that failed: a connection fault drops the connection as chaos asked;
 * an answer already under way (a stream) just ends; anything else is answered by `answer` in the
 * binding's own error shape.
 */
export function answerFailure(
  res: ServerResponse,
  error: unknown,
  report: (error: unknown) => void,
  answer: (error: A2AError) => void,
): void {
  if (error instanceof ConnectionFault) {
    dropConnection(res, error.mode);
    return;
  }
  const failure = asA2AError(error, report);
  if (res.headersSent) res.end();
  else answer(failure);
}

/** Ends the connection without an answer: closed empty, or reset. */
function dropConnection(res: ServerResponse, mode: 'empty' | 'reset'): void {
  if (mode === 'reset') res.socket?.resetAndDestroy();
  else res.socket?.end();
}
