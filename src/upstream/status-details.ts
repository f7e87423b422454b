/**
 * What an agent's error says beyond its code or status: the `google.rpc` details (§3) that both a
 * JSON-RPC error's `data` and a REST `google.rpc.Status` carry, read into what an A2AError keeps.
 * Shared by rpc-errors.ts and rest-errors.ts.
 */
import { isRecord } from '../lib/objects.js';
import { describe } from '../bindings/shared/wire-reader.js';
import {
  ERROR_TABLE,
  type A2AErrorDetails,
  type A2AErrorType,
  type FieldViolation,
} from '../domain/errors.js';

export const ERROR_TYPES = Object.keys(ERROR_TABLE) as A2AErrorType[];

const TYPE_BY_REASON: ReadonlyMap<string, A2AErrorType> = new Map(
  ERROR_TYPES.map((type): [string, A2AErrorType] => [ERROR_TABLE[type].reason, type]),
);

export function typeOfReason(reason: string | undefined): A2AErrorType | undefined {
  return reason === undefined ? undefined : TYPE_BY_REASON.get(reason);
}

export interface StatusDetails {
  /** The ErrorInfo reason. */
  reason?: string;
  metadata?: Record<string, string | number>;
  fieldViolations?: FieldViolation[];
}

/**
 * ErrorInfo's reason and metadata, BadRequest's violations. v1.0 sends a list of details; v0.3's
 * `data` is free-form, and the simulator's own v0.3 binding (like other servers) sends one object
 * holding the reason beside what the error is about: `{"reason": "TASK_NOT_FOUND", "taskId": "t1"}`.
 * Details are extra information: what cannot be read is passed over, not held against the agent.
 */
export function readStatusDetails(details: unknown): StatusDetails {
  if (isRecord(details) && details['@type'] === undefined) return readFreeFormData(details);
  const found: StatusDetails = {};
  for (const detail of Array.isArray(details) ? details : [details]) {
    if (!isRecord(detail) || typeof detail['@type'] !== 'string') continue;
    if (detail['@type'].endsWith('google.rpc.ErrorInfo') && found.reason === undefined) {
      if (typeof detail['reason'] === 'string' && detail['reason']) found.reason = detail['reason'];
      const metadata = aboutEntries(detail['metadata']);
      if (metadata) found.metadata = metadata;
    } else if (detail['@type'].endsWith('google.rpc.BadRequest')) {
      found.fieldViolations = [
        ...(found.fieldViolations ?? []),
        ...readViolations(detail['fieldViolations']),
      ];
    }
  }
  return found;
}

function readFreeFormData(data: Record<string, unknown>): StatusDetails {
  const { reason, fieldViolations, ...about } = data;
  const metadata = aboutEntries(about);
  const violations = readViolations(fieldViolations);
  return {
    ...(typeof reason === 'string' && reason && { reason }),
    ...(metadata && { metadata }),
    ...(violations.length && { fieldViolations: violations }),
  };
}

function readViolations(value: unknown): FieldViolation[] {
  return (Array.isArray(value) ? value : []).filter(
    (v): v is FieldViolation =>
      isRecord(v) && typeof v['field'] === 'string' && typeof v['description'] === 'string',
  );
}

/**
 * The details worth relaying to the simulator's own client; a reason outside the table (e.g.
 * EVENTS_EXPIRED) is kept as sent, since a client may act on it.
 */
export function relayedDetails(found: StatusDetails): A2AErrorDetails {
  const customReason = found.reason !== undefined && !TYPE_BY_REASON.has(found.reason);
  return {
    ...(found.metadata && { metadata: found.metadata }),
    ...(found.fieldViolations?.length && {
      fieldViolations: found.fieldViolations.map(({ field, description }) => ({ field, description })),
    }),
    ...(customReason && { reason: found.reason }),
  };
}

/** What the error is about: ErrorInfo metadata holds strings; free-form data may hold numbers too. */
function aboutEntries(value: unknown): Record<string, string | number> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string | number] =>
      typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** A received value, briefly, for an error message. */
export function show(value: unknown): string {
  return value === undefined ? 'nothing' : describe(value);
}
