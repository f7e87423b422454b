/**
 * Enforces the security an agent declares on its card (§6): a call without a credential of a
 * declared scheme, or, when API keys are configured, without a known one, is refused with
 * UnauthenticatedError (HTTP 401) and a `WWW-Authenticate` challenge. Each binding renders the
 * error in its own shape; the challenge header is set here, on the response, whichever answers.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AgentSecurity } from '../../agents/schema.js';
import { A2AError } from '../../domain/errors.js';
import { findSecret } from '../../lib/secrets.js';

export interface AccessPolicy {
  agentId: string;
  security: AgentSecurity;
  /** API key → the workspaces it may use. When absent, any credential of a declared scheme passes. */
  apiKeys?: Readonly<Record<string, readonly string[]>>;
}

/** Returns when the request may call the agent; throws UnauthenticatedError otherwise. */
export function authenticate(req: IncomingMessage, res: ServerResponse, policy: AccessPolicy): void {
  const problem = credentialProblem(req.headers, policy);
  if (!problem) return;
  res.setHeader('WWW-Authenticate', challenge(policy));
  throw unauthenticated(problem, policy);
}

/**
 * The same check for a call that has no HTTP response to challenge on (gRPC, whose metadata holds
 * the same `authorization` and API-key entries).
 */
export function authenticateHeaders(headers: IncomingHttpHeaders, policy: AccessPolicy): void {
  const problem = credentialProblem(headers, policy);
  if (problem) throw unauthenticated(problem, policy);
}

function unauthenticated(problem: string, policy: AccessPolicy): A2AError {
  return new A2AError('UnauthenticatedError', `Failed to authenticate: ${problem}.`, {
    metadata: { agentId: policy.agentId },
  });
}

/** Why the request may not call the agent, or undefined when it may. */
function credentialProblem(headers: IncomingHttpHeaders, { agentId, security, apiKeys }: AccessPolicy) {
  const presented: string[] = [];
  if (security.apiKey) {
    const key = headers[security.apiKey.header.toLowerCase()];
    if (typeof key === 'string' && key.trim() !== '') presented.push(key.trim());
  }
  if (security.http) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
    if (bearer) presented.push(bearer[1]!);
  }
  const wanted = [
    ...(security.apiKey ? [`an API key in the ${security.apiKey.header} header`] : []),
    ...(security.http ? ['an "Authorization: Bearer <token>" header'] : []),
  ].join(' or ');
  if (!presented.length) return `agent "${agentId}" requires ${wanted}`;
  if (apiKeys && !presented.some((key) => findSecret(key, Object.keys(apiKeys)) !== undefined)) {
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
