/** A2A errors as v1.0 JSON-RPC error objects: code, message, and `data` as a list of details (§3). */
import type { A2AError } from '../../domain/errors.js';
import { errorDetails } from '../shared/errors.js';
import { JSONRPC_CODE, rpcError, type JsonRpcId } from '../shared/jsonrpc.js';

export function toRpcError(id: JsonRpcId, error: A2AError): Record<string, unknown> {
  return rpcError(id, JSONRPC_CODE[error.type], error.message, errorDetails(error));
}
