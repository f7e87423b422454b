/**
 * A2A errors as v0.3 JSON-RPC error objects (§8 of the v0.3 spec): the same codes as v1.0, and a
 * free-form `data` object holding the reason and what the error is about, e.g.
 * `{"reason": "TASK_NOT_FOUND", "taskId": "t1"}`, instead of v1.0's list of google.rpc details.
 */
import type { A2AError } from '../../domain/errors.js';
import { JSONRPC_CODE, rpcError, type JsonRpcId } from '../shared/jsonrpc.js';

export function toRpcError(id: JsonRpcId, error: A2AError): Record<string, unknown> {
  const { metadata, fieldViolations } = error.details;
  return rpcError(id, JSONRPC_CODE[error.type], error.message, {
    reason: error.reason,
    ...metadata,
    ...(fieldViolations?.length && { fieldViolations }),
  });
}
