/**
 * A2A errors as gRPC statuses (§10.6): the status code of the error-code profile
 * (domain/error-codes.ts: the 1.0.1 codes of §5.4 unless the 1.0.0 ones are asked for),
 * and a `google.rpc.Status` in the `grpc-status-details-bin` trailer carrying the same detail
 * objects as the other bindings (ErrorInfo always, BadRequest and RetryInfo when they apply).
 */
import { Metadata, status as Code, type ServiceError } from '@grpc/grpc-js';
import { statusOf, type ErrorCodeProfile } from '../../domain/error-codes.js';
import type { A2AError } from '../../domain/errors.js';
import { errorDetails } from '../shared/errors.js';

export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** The status a call ends with: code, message, and the details trailer. */
export function toGrpcStatus(
  error: A2AError,
  profile?: ErrorCodeProfile,
): Partial<ServiceError> & { code: Code; details: string } {
  const code = Code[statusOf(error.type, profile).grpc];
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, encodeStatus(code, error.message, errorDetails(error)));
  return { code, details: error.message, metadata };
}

/** A status for a call cut short by chaos (a drop in `fin` mode): the server went away. */
export function unavailable(message: string): Partial<ServiceError> & { code: Code; details: string } {
  return { code: Code.UNAVAILABLE, details: message };
}

// ---------------------------------------------------------------------------------------------
// google.rpc.Status in protobuf binary. Written out by hand: five small messages, and the
// google/rpc protos are not among the ones we ship.

const GOOGLE_RPC = 'type.googleapis.com/google.rpc.';

/** `Status {int32 code = 1; string message = 2; repeated Any details = 3}`. */
function encodeStatus(code: number, message: string, details: Record<string, unknown>[]): Buffer {
  const parts = [varintField(1, code), stringField(2, message)];
  for (const detail of details) {
    const encoded = encodeDetail(detail);
    if (encoded)
      parts.push(
        messageField(3, Buffer.concat([stringField(1, encoded.typeUrl), bytesField(2, encoded.value)])),
      );
  }
  return Buffer.concat(parts);
}

function encodeDetail(detail: Record<string, unknown>): { typeUrl: string; value: Buffer } | undefined {
  const typeUrl = String(detail['@type']);
  switch (typeUrl) {
    case `${GOOGLE_RPC}ErrorInfo`: {
      // ErrorInfo {string reason = 1; string domain = 2; map<string, string> metadata = 3}
      const metadata = (detail['metadata'] ?? {}) as Record<string, string>;
      const entries = Object.entries(metadata).map(([k, v]) =>
        messageField(3, Buffer.concat([stringField(1, k), stringField(2, v)])),
      );
      const value = Buffer.concat([
        stringField(1, String(detail['reason'])),
        stringField(2, String(detail['domain'])),
        ...entries,
      ]);
      return { typeUrl, value };
    }
    case `${GOOGLE_RPC}BadRequest`: {
      // BadRequest {repeated FieldViolation field_violations = 1}; FieldViolation {field = 1; description = 2}
      const violations = (detail['fieldViolations'] ?? []) as { field: string; description: string }[];
      const value = Buffer.concat(
        violations.map((v) =>
          messageField(1, Buffer.concat([stringField(1, v.field), stringField(2, v.description)])),
        ),
      );
      return { typeUrl, value };
    }
    case `${GOOGLE_RPC}RetryInfo`: {
      // RetryInfo {Duration retry_delay = 1}; Duration {int64 seconds = 1; int32 nanos = 2}
      const ms = Math.round(parseFloat(String(detail['retryDelay'])) * 1000);
      const seconds = Math.floor(ms / 1000);
      const duration = Buffer.concat([varintField(1, seconds), varintField(2, (ms - seconds * 1000) * 1e6)]);
      return { typeUrl, value: messageField(1, duration) };
    }
    default:
      return undefined;
  }
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = Math.max(0, Math.floor(n));
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** A varint field; zero is the default, so it is left out as protobuf encoders do. */
function varintField(field: number, n: number): Buffer {
  return n === 0 ? Buffer.alloc(0) : Buffer.concat([varint(field * 8), varint(n)]);
}

function bytesField(field: number, bytes: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + 2), varint(bytes.length), bytes]);
}

function stringField(field: number, text: string): Buffer {
  return text === '' ? Buffer.alloc(0) : bytesField(field, Buffer.from(text, 'utf8'));
}

const messageField = bytesField;
