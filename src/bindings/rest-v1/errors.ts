/** A2A errors as HTTP+JSON responses: a `google.rpc.Status` body with ErrorInfo (§3). */
import type { A2AError } from '../../domain/errors.js';
import { statusOf, type ErrorCodeProfile } from '../../domain/error-codes.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorDetails } from '../shared/errors.js';
import { errorHeaders, sendJson } from '../shared/http.js';
import { responseMediaType } from './media-type.js';

/**
 * `{"error": {code, status, message, details}}`, with the HTTP status and `status` name of the
 * error-code profile (domain/error-codes.ts); the current spec's unless one is given.
 */
export function toRestStatus(
  error: A2AError,
  profile?: ErrorCodeProfile,
): {
  httpStatus: number;
  body: { error: Record<string, unknown> };
} {
  const { http, grpc } = statusOf(error.type, profile);
  const httpStatus = error.details.httpStatus ?? http;
  return {
    httpStatus,
    body: { error: { code: httpStatus, status: grpc, message: error.message, details: errorDetails(error) } },
  };
}

/** Answers `error` as a REST error body, in the JSON media type the client used (media-type.ts). */
export function sendRestError(
  req: IncomingMessage,
  res: ServerResponse,
  error: A2AError,
  profile?: ErrorCodeProfile,
): void {
  const { httpStatus, body } = toRestStatus(error, profile);
  sendJson(res, httpStatus, body, responseMediaType(req), errorHeaders(error));
}
