/**
 * Every error the simulator can answer with, in one table (§3 of the protocol digest). The domain
 * throws {@link A2AError}; each binding maps `type` to its own HTTP status or JSON-RPC code.
 */

export const ERROR_TABLE = Object.freeze({
  TaskNotFoundError: { reason: 'TASK_NOT_FOUND', message: 'Task not found' },
  TaskNotCancelableError: { reason: 'TASK_NOT_CANCELABLE', message: 'Task cannot be canceled' },
  PushNotificationNotSupportedError: {
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
    message: 'Push notifications are not supported',
  },
  UnsupportedOperationError: { reason: 'UNSUPPORTED_OPERATION', message: 'This operation is not supported' },
  ContentTypeNotSupportedError: {
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
    message: 'Incompatible content types',
  },
  InvalidAgentResponseError: { reason: 'INVALID_AGENT_RESPONSE', message: 'Invalid agent response' },
  ExtendedAgentCardNotConfiguredError: {
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    message: 'Extended agent card is not configured',
  },
  ExtensionSupportRequiredError: {
    reason: 'EXTENSION_SUPPORT_REQUIRED',
    message: 'A required extension is not supported by the client',
  },
  VersionNotSupportedError: { reason: 'VERSION_NOT_SUPPORTED', message: 'Protocol version not supported' },
  // v1.1 draft (§3.2.2, §5.4), with `--preview generation` only: a follow-up's ifGenerationMatch failed.
  TaskGenerationMismatchError: { reason: 'TASK_GENERATION_MISMATCH', message: 'Task generation mismatch' },
  ParseError: { reason: 'PARSE_ERROR', message: 'Invalid JSON payload' },
  InvalidRequestError: { reason: 'INVALID_REQUEST', message: 'Request payload validation error' },
  // An invalid request whose body is over the size limit: HTTP 413 where the binding uses HTTP statuses.
  PayloadTooLargeError: { reason: 'PAYLOAD_TOO_LARGE', message: 'Request body too large' },
  MethodNotFoundError: { reason: 'METHOD_NOT_FOUND', message: 'Method not found' },
  // HTTP+JSON only: the path exists, but not with this HTTP method.
  MethodNotAllowedError: { reason: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' },
  InvalidParamsError: { reason: 'INVALID_PARAMS', message: 'Invalid parameters' },
  InternalError: { reason: 'INTERNAL', message: 'Internal error' },
  // Outside A2A's own table (§3: auth failures are HTTP 401/403; §8: the gateway's envelope errors).
  UnauthenticatedError: { reason: 'UNAUTHENTICATED', message: 'Authentication required' },
  PermissionDeniedError: { reason: 'PERMISSION_DENIED', message: 'Permission denied' },
  AgentNotFoundError: { reason: 'AGENT_NOT_FOUND', message: 'Agent not found' },
  // What an overloaded server or a proxy answers (injected by chaos).
  UnavailableError: { reason: 'UNAVAILABLE', message: 'Service unavailable' },
  ResourceExhaustedError: { reason: 'RESOURCE_EXHAUSTED', message: 'Too many requests' },
} as const);

export type A2AErrorType = keyof typeof ERROR_TABLE;

export interface FieldViolation {
  field: string;
  description: string;
}

/**
 * The retry delay of a refusal whose end the simulator cannot foresee (a full store, a shared store
 * out of reach, a chaos error that names none): soon enough for a client to see the server recover,
 * not so soon that every client hammers it meanwhile.
 */
export const RETRY_SOON_MS = 1_000;

export interface A2AErrorDetails {
  /** What the error is about; `ErrorInfo.metadata` carries the values as strings. */
  metadata?: Record<string, string | number>;
  /** Goes into a `google.rpc.BadRequest` detail. */
  fieldViolations?: FieldViolation[];
  /** Overrides the table's reason, e.g. `EVENTS_EXPIRED` for a resume that came too late. */
  reason?: string;
  /** Overrides the binding's HTTP status (chaos: a JSON-RPC error behind an HTTP 500). */
  httpStatus?: number;
  /** Sent as `Retry-After`, in whole seconds. */
  retryAfterMs?: number;
}

export class A2AError extends Error {
  readonly reason: string;

  constructor(
    readonly type: A2AErrorType,
    message: string = ERROR_TABLE[type].message,
    readonly details: A2AErrorDetails = {},
  ) {
    super(message);
    this.name = type;
    this.reason = details.reason ?? ERROR_TABLE[type].reason;
  }
}

export function taskNotFound(taskId: string): A2AError {
  return new A2AError('TaskNotFoundError', `Task not found: no task "${taskId}" is visible here.`, {
    metadata: { taskId },
  });
}

export function invalidParams(violations: FieldViolation[]): A2AError {
  const summary = violations.map((v) => `${v.field}: ${v.description}`).join('; ');
  return new A2AError('InvalidParamsError', `Invalid parameters: ${summary}`, {
    fieldViolations: violations,
  });
}
