/**
 * How each error is told on the wire by status: its HTTP status (HTTP+JSON) and its gRPC status code
 * name (gRPC, and the `status` of an HTTP+JSON `google.rpc.Status` body), per error-code profile.
 * The JSON-RPC codes never changed between the profiles; they live with the JSON-RPC envelope.
 *
 * Two profiles, because the spec changed its §5.4 table in a patch release and clients are pinned
 * to either: `1.0.1` is the current text; `1.0.0` is the v1.0.0 release, which suites and SDKs
 * written against it still expect (409, 415, 502, and UNIMPLEMENTED for three errors).
 */
import type { A2AErrorType } from './errors.js';

export const ERROR_CODE_PROFILES = Object.freeze(['1.0.1', '1.0.0'] as const);
export type ErrorCodeProfile = (typeof ERROR_CODE_PROFILES)[number];

/** `google.rpc.Code` names, as gRPC and the HTTP+JSON `status` field spell them. */
export type GrpcCodeName =
  | 'NOT_FOUND'
  | 'FAILED_PRECONDITION'
  | 'INVALID_ARGUMENT'
  | 'INTERNAL'
  | 'RESOURCE_EXHAUSTED'
  | 'UNIMPLEMENTED'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'UNAVAILABLE'
  | 'ABORTED';

export interface WireStatus {
  http: number;
  grpc: GrpcCodeName;
}

/** The current table (A2A 1.0.1 §5.4), and for errors outside it, what HTTP and gRPC say. */
const CURRENT = Object.freeze({
  TaskNotFoundError: { http: 404, grpc: 'NOT_FOUND' },
  TaskNotCancelableError: { http: 400, grpc: 'FAILED_PRECONDITION' },
  PushNotificationNotSupportedError: { http: 400, grpc: 'FAILED_PRECONDITION' },
  UnsupportedOperationError: { http: 400, grpc: 'FAILED_PRECONDITION' },
  ContentTypeNotSupportedError: { http: 400, grpc: 'INVALID_ARGUMENT' },
  InvalidAgentResponseError: { http: 500, grpc: 'INTERNAL' },
  ExtendedAgentCardNotConfiguredError: { http: 400, grpc: 'FAILED_PRECONDITION' },
  ExtensionSupportRequiredError: { http: 400, grpc: 'FAILED_PRECONDITION' },
  VersionNotSupportedError: { http: 400, grpc: 'FAILED_PRECONDITION' },
  // The v1.1 draft's §5.4 row (only with `--preview generation`).
  TaskGenerationMismatchError: { http: 409, grpc: 'ABORTED' },
  ParseError: { http: 400, grpc: 'INVALID_ARGUMENT' },
  InvalidRequestError: { http: 400, grpc: 'INVALID_ARGUMENT' },
  // What gRPC answers a message over its size limit.
  PayloadTooLargeError: { http: 413, grpc: 'RESOURCE_EXHAUSTED' },
  // An unknown HTTP+JSON path (a gRPC server answers an unknown method UNIMPLEMENTED by itself).
  MethodNotFoundError: { http: 404, grpc: 'NOT_FOUND' },
  // As grpc-gateway answers a path that exists for other HTTP methods: google.rpc has no "method not
  // allowed", and UNIMPLEMENTED is its "not supported by this service" (INVALID_ARGUMENT would blame
  // the request's content, which may be fine).
  MethodNotAllowedError: { http: 405, grpc: 'UNIMPLEMENTED' },
  InvalidParamsError: { http: 400, grpc: 'INVALID_ARGUMENT' },
  InternalError: { http: 500, grpc: 'INTERNAL' },
  UnauthenticatedError: { http: 401, grpc: 'UNAUTHENTICATED' },
  PermissionDeniedError: { http: 403, grpc: 'PERMISSION_DENIED' },
  AgentNotFoundError: { http: 404, grpc: 'NOT_FOUND' },
  UnavailableError: { http: 503, grpc: 'UNAVAILABLE' },
  ResourceExhaustedError: { http: 429, grpc: 'RESOURCE_EXHAUSTED' },
} as const satisfies Record<A2AErrorType, WireStatus>);

/** Where A2A 1.0.0's §5.4 differs from the current table; every other error is the same in both. */
const V1_0_0_CHANGES = Object.freeze({
  TaskNotCancelableError: { http: 409, grpc: 'FAILED_PRECONDITION' },
  PushNotificationNotSupportedError: { http: 400, grpc: 'UNIMPLEMENTED' },
  UnsupportedOperationError: { http: 400, grpc: 'UNIMPLEMENTED' },
  ContentTypeNotSupportedError: { http: 415, grpc: 'INVALID_ARGUMENT' },
  InvalidAgentResponseError: { http: 502, grpc: 'INTERNAL' },
  VersionNotSupportedError: { http: 400, grpc: 'UNIMPLEMENTED' },
} as const satisfies Partial<Record<A2AErrorType, WireStatus>>);

const PROFILES: Readonly<Record<ErrorCodeProfile, Readonly<Record<A2AErrorType, WireStatus>>>> =
  Object.freeze({
    '1.0.1': CURRENT,
    '1.0.0': Object.freeze({ ...CURRENT, ...V1_0_0_CHANGES }),
  });

/** The profile a server answers with unless told otherwise: the current spec. */
export const DEFAULT_ERROR_CODES: ErrorCodeProfile = '1.0.1';

/**
 * An error's HTTP status and gRPC code under a profile.
 * @example statusOf('TaskNotCancelableError', '1.0.0') // { http: 409, grpc: 'FAILED_PRECONDITION' }
 */
export function statusOf(type: A2AErrorType, profile: ErrorCodeProfile = DEFAULT_ERROR_CODES): WireStatus {
  return PROFILES[profile][type];
}

/** The errors whose status the profiles disagree on (for documentation and tests). */
export const PROFILE_DIFFERENCES = Object.freeze(Object.keys(V1_0_0_CHANGES) as A2AErrorType[]);
