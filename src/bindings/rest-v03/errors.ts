/**
 * A2A errors as v0.3 HTTP+JSON answers. v0.3 names no REST error body (§3.2.3 asks for "a
 * consistent JSON format that maps to A2A error types"); the reference SDKs answer the JSON-RPC
 * error object bare, `{"code": -32001, "message": "…", "data": {…}}`, and their clients map errors
 * by that code. `data` is the v0.3 JSON-RPC dialect's: the reason and what the error is about. The
 * HTTP statuses are the v1.0 binding's, of the current spec (the SDK's v0.3 server uses the same ones).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusOf } from '../../domain/error-codes.js';
import type { A2AError } from '../../domain/errors.js';
import { toRpcError } from '../jsonrpc-v03/errors.js';
import { errorHeaders, sendJson } from '../shared/http.js';

/** v0.3 HTTP+JSON speaks `application/json` only. */
export const V03_JSON = 'application/json';

export function toRestV03Error(error: A2AError): { httpStatus: number; body: unknown } {
  return {
    httpStatus: error.details.httpStatus ?? statusOf(error.type).http,
    body: toRpcError(null, error)['error'],
  };
}

export function sendRestV03Error(_req: IncomingMessage, res: ServerResponse, error: A2AError): void {
  const { httpStatus, body } = toRestV03Error(error);
  sendJson(res, httpStatus, body, V03_JSON, errorHeaders(error));
}
