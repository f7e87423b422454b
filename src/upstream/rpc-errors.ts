/**
 * A JSON-RPC error from a real agent as the A2AError of the same type, so the proxy relays what the
 * agent said rather than an error of its own. v1.0 and v0.3 share the codes (§3); v0.3 lacks only
 * -32008 and -32009, which no v0.3 agent sends.
 */
import { isRecord } from '../lib/objects.js';
import { JSONRPC_CODE } from '../bindings/shared/jsonrpc.js';
import { A2AError, ERROR_TABLE, type A2AErrorType } from '../domain/errors.js';
import { invalidAgentResponse } from './dialect.js';
import { ERROR_TYPES, readStatusDetails, relayedDetails, show, typeOfReason } from './status-details.js';

/** -32000 to -32099 are implementation-defined: the code alone says nothing of the type. */
const IMPLEMENTATION_DEFINED_CODE = -32000;

/** Each code to the types that share it, the table's first being the one a bare code means. */
const TYPES_BY_CODE: ReadonlyMap<number, readonly A2AErrorType[]> = ERROR_TYPES.reduce(
  (byCode, type) => byCode.set(JSONRPC_CODE[type], [...(byCode.get(JSONRPC_CODE[type]) ?? []), type]),
  new Map<number, A2AErrorType[]>(),
);

/**
 * A JSON-RPC `error` member. The code decides the type; the ErrorInfo reason in `data` picks among
 * the types sharing a code (-32600, -32601, the implementation-defined -32000), or names the type
 * of a code A2A does not define. A code the table does not know, with no known reason, is an
 * InternalError: the agent did answer with an error, only not one of A2A's.
 *
 * @example rpcErrorFromWire({ code: -32001, message: 'Task not found' }) // TaskNotFoundError
 */
export function rpcErrorFromWire(error: unknown): A2AError {
  if (!isRecord(error) || typeof error['code'] !== 'number' || !Number.isInteger(error['code'])) {
    return invalidAgentResponse(
      `error: expected a JSON-RPC error object {code, message}, got ${show(error)}`,
    );
  }
  const code = error['code'];
  const message = error['message'];
  if (typeof message !== 'string') {
    return invalidAgentResponse(`error.message: expected a string, got ${show(message)}`);
  }
  const found = readStatusDetails(error['data']);
  const sharingCode = TYPES_BY_CODE.get(code) ?? [];
  const named = typeOfReason(found.reason);
  const type =
    named && (sharingCode.length === 0 || sharingCode.includes(named))
      ? named
      : code === IMPLEMENTATION_DEFINED_CODE
        ? 'InternalError'
        : (sharingCode[0] ?? 'InternalError');
  return new A2AError(type, message || ERROR_TABLE[type].message, relayedDetails(found));
}
