/** A2A errors as v1.0 JSON-RPC error objects: code, message, and `data` as a list of details (§3). */
import type { A2AError, A2AErrorType } from '../../domain/errors.js';
import { errorDetails } from '../shared/errors.js';
import { rpcError, type JsonRpcId } from '../shared/jsonrpc.js';

export const JSONRPC_CODE = Object.freeze({
  TaskNotFoundError: -32001,
  TaskNotCancelableError: -32002,
  PushNotificationNotSupportedError: -32003,
  UnsupportedOperationError: -32004,
  ContentTypeNotSupportedError: -32005,
  InvalidAgentResponseError: -32006,
  ExtendedAgentCardNotConfiguredError: -32007,
  ExtensionSupportRequiredError: -32008,
  VersionNotSupportedError: -32009,
  ParseError: -32700,
  InvalidRequestError: -32600,
  MethodNotFoundError: -32601,
  InvalidParamsError: -32602,
  InternalError: -32603,
} as const satisfies Record<A2AErrorType, number>);

export function toRpcError(id: JsonRpcId, error: A2AError): Record<string, unknown> {
  return rpcError(id, JSONRPC_CODE[error.type], error.message, errorDetails(error));
}
