/**
 * A REST error from a real agent, a `google.rpc.Status` body (§3), as the A2AError of the same type,
 * so the proxy relays what the agent said rather than an error of its own.
 */
import { isRecord } from '../lib/objects.js';
import { A2AError, ERROR_TABLE, type A2AErrorType } from '../domain/errors.js';
import { invalidAgentResponse } from './dialect.js';
import { readStatusDetails, relayedDetails, show, typeOfReason } from './status-details.js';

/**
 * Where the body names no reason the simulator knows. 400 reads as invalid params, the commonest
 * A2A 400 (the SDK's INVALID_PARAMS); 404 as a task not found, since every A2A REST path with an id
 * names a task; any other 4xx as an invalid request, anything else as an internal error.
 */
const TYPE_BY_HTTP_STATUS: ReadonlyMap<number, A2AErrorType> = new Map<number, A2AErrorType>([
  [400, 'InvalidParamsError'],
  [401, 'UnauthenticatedError'],
  [403, 'PermissionDeniedError'],
  [404, 'TaskNotFoundError'],
  [405, 'MethodNotAllowedError'],
  [413, 'PayloadTooLargeError'],
  [429, 'ResourceExhaustedError'],
  [500, 'InternalError'],
  [503, 'UnavailableError'],
]);

/**
 * The type whose reason the ErrorInfo names, else the one the HTTP status suggests; the agent's
 * message is kept. `retryAfter` is the response's `Retry-After` in seconds; its HTTP-date form is
 * ignored, since reading it would take the wall clock.
 *
 * @example restError(429, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Slow down' } }, '3')
 */
export function restError(httpStatus: number, body: unknown, retryAfter?: string | null): A2AError {
  const status = isRecord(body) ? body['error'] : undefined;
  if (!isRecord(status) || typeof status['message'] !== 'string') {
    return invalidAgentResponse(
      `HTTP ${httpStatus} with a body that is not a google.rpc.Status ` +
        `{"error": {code, status, message, details}}, got ${show(body)}`,
    );
  }
  const found = readStatusDetails(status['details']);
  const type =
    typeOfReason(found.reason) ??
    TYPE_BY_HTTP_STATUS.get(httpStatus) ??
    (httpStatus >= 400 && httpStatus < 500 ? 'InvalidRequestError' : 'InternalError');
  const retryAfterMs = retryAfterSeconds(retryAfter);
  return new A2AError(type, status['message'] || ERROR_TABLE[type].message, {
    ...relayedDetails(found),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

function retryAfterSeconds(retryAfter: string | null | undefined): number | undefined {
  const seconds = retryAfter?.trim();
  return seconds && /^\d+$/.test(seconds) ? Number(seconds) * 1000 : undefined;
}
