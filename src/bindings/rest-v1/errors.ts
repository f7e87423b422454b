/** A2A errors as HTTP+JSON responses: a `google.rpc.Status` body with ErrorInfo (§3). */
import type { A2AError, A2AErrorType } from '../../domain/errors.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorDetails } from '../shared/errors.js';
import { errorHeaders, sendJson } from '../shared/http.js';
import { responseMediaType } from './media-type.js';

export const HTTP_STATUS = Object.freeze({
  TaskNotFoundError: [404, 'NOT_FOUND'],
  TaskNotCancelableError: [400, 'FAILED_PRECONDITION'],
  PushNotificationNotSupportedError: [400, 'FAILED_PRECONDITION'],
  UnsupportedOperationError: [400, 'FAILED_PRECONDITION'],
  ContentTypeNotSupportedError: [400, 'INVALID_ARGUMENT'],
  InvalidAgentResponseError: [500, 'INTERNAL'],
  ExtendedAgentCardNotConfiguredError: [400, 'FAILED_PRECONDITION'],
  ExtensionSupportRequiredError: [400, 'FAILED_PRECONDITION'],
  VersionNotSupportedError: [400, 'FAILED_PRECONDITION'],
  ParseError: [400, 'INVALID_ARGUMENT'],
  InvalidRequestError: [400, 'INVALID_ARGUMENT'],
  // What gRPC answers a message over its size limit.
  PayloadTooLargeError: [413, 'RESOURCE_EXHAUSTED'],
  MethodNotFoundError: [404, 'NOT_FOUND'],
  // As grpc-gateway answers a path that exists for other HTTP methods: google.rpc has no "method not
  // allowed", and UNIMPLEMENTED is its "not supported by this service" (INVALID_ARGUMENT would blame
  // the request's content, which may be fine).
  MethodNotAllowedError: [405, 'UNIMPLEMENTED'],
  InvalidParamsError: [400, 'INVALID_ARGUMENT'],
  InternalError: [500, 'INTERNAL'],
  UnauthenticatedError: [401, 'UNAUTHENTICATED'],
  PermissionDeniedError: [403, 'PERMISSION_DENIED'],
  AgentNotFoundError: [404, 'NOT_FOUND'],
  UnavailableError: [503, 'UNAVAILABLE'],
  ResourceExhaustedError: [429, 'RESOURCE_EXHAUSTED'],
} as const satisfies Record<A2AErrorType, readonly [number, string]>);

/** `{"error": {code, status, message, details}}`. */
export function toRestStatus(error: A2AError): {
  httpStatus: number;
  body: { error: Record<string, unknown> };
} {
  const [tableStatus, status] = HTTP_STATUS[error.type];
  const httpStatus = error.details.httpStatus ?? tableStatus;
  return {
    httpStatus,
    body: { error: { code: httpStatus, status, message: error.message, details: errorDetails(error) } },
  };
}

/** Answers `error` as a REST error body, in the JSON media type the client used (media-type.ts). */
export function sendRestError(req: IncomingMessage, res: ServerResponse, error: A2AError): void {
  const { httpStatus, body } = toRestStatus(error);
  sendJson(res, httpStatus, body, responseMediaType(req), errorHeaders(error));
}
