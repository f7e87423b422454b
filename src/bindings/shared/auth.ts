/**
 * Enforces the security an agent declares on its card (§6): a call without a credential of a
 * declared scheme, or, when API keys are configured, without a known one, gets 401 with a
 * `WWW-Authenticate` challenge (§3). The error is built here rather than in the domain error
 * table: it is decided before any binding decodes the request, and only over HTTP.
 */
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { AgentSecurity } from '../../agents/schema.js';
import { errorInfo } from './errors.js';
import { readBody, sendJson } from './http.js';
import { EnvelopeError, parseJsonRpcRequest, rpcError, type JsonRpcId } from './jsonrpc.js';

export interface AccessPolicy {
  agentId: string;
  security: AgentSecurity;
  /** API key → the workspaces it may use. When absent, any credential of a declared scheme passes. */
  apiKeys?: Readonly<Record<string, readonly string[]>>;
}

const UNAUTHENTICATED = 'UNAUTHENTICATED';
/** Implementation-defined JSON-RPC code, unused by A2A (as the gateway's envelope errors, §8). */
const JSONRPC_UNAUTHENTICATED = -32000;

/** Express middleware: passes authenticated calls on, answers the others with 401. */
export function requireCredentials(policy: AccessPolicy, maxBodyBytes: number) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const problem = credentialProblem(req, policy);
    if (!problem) {
      next();
      return;
    }
    const message = `Failed to authenticate: ${problem}.`;
    const headers = { 'WWW-Authenticate': challenge(policy) };
    const details = [errorInfo(UNAUTHENTICATED, { agentId: policy.agentId })];
    if (req.method === 'POST' && req.path === '/') {
      const id = await requestIdOf(req, maxBodyBytes);
      sendJson(
        res,
        401,
        rpcError(id, JSONRPC_UNAUTHENTICATED, message, details),
        'application/json',
        headers,
      );
    } else {
      const body = { error: { code: 401, status: UNAUTHENTICATED, message, details } };
      sendJson(res, 401, body, 'application/a2a+json', headers);
    }
  };
}

/** Why the request may not call the agent, or undefined when it may. */
function credentialProblem(req: IncomingMessage, { agentId, security, apiKeys }: AccessPolicy) {
  const presented: string[] = [];
  if (security.apiKey) {
    const key = req.headers[security.apiKey.header.toLowerCase()];
    if (typeof key === 'string' && key.trim() !== '') presented.push(key.trim());
  }
  if (security.http) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (bearer) presented.push(bearer[1]!);
  }
  const wanted = [
    ...(security.apiKey ? [`an API key in the ${security.apiKey.header} header`] : []),
    ...(security.http ? ['an "Authorization: Bearer <token>" header'] : []),
  ].join(' or ');
  if (!presented.length) return `agent "${agentId}" requires ${wanted}`;
  if (apiKeys && !presented.some((key) => Object.hasOwn(apiKeys, key))) {
    return `the credential sent to agent "${agentId}" is not a configured API key (--api-key)`;
  }
  return undefined;
}

function challenge({ agentId, security }: AccessPolicy): string {
  return [
    ...(security.apiKey ? [`ApiKey realm="${agentId}", header="${security.apiKey.header}"`] : []),
    ...(security.http ? [`Bearer realm="${agentId}"`] : []),
  ].join(', ');
}

/** The JSON-RPC id to echo, when the refused body has a readable one. */
async function requestIdOf(req: IncomingMessage, limitBytes: number): Promise<JsonRpcId> {
  try {
    return parseJsonRpcRequest(await readBody(req, limitBytes)).id;
  } catch (error) {
    return error instanceof EnvelopeError ? error.id : null;
  }
}
