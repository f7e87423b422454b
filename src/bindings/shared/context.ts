/** What every binding is built from: the service, the stream keep-alive, the cards, and limits. */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AgentExtension } from '../../agents/schema.js';
import { ROOT_SCOPE, scopeOf } from '../../domain/scope.js';
import type { PushDialect } from '../../domain/types.js';
import type { WireService } from '../../chaos/wire.js';
import type { CallContext, ClientIdentity, WireRequest } from '../../runtime/api.js';
import type { RequestTrace } from './trace.js';
import type { AgentCards } from '../agent-card.js';
import type { AccessPolicy } from './auth.js';
import type { KeepAliveHub } from './sse.js';

export interface BindingContext {
  service: WireService;
  /** Told of each card a client fetches, and whether it asked conditionally (client verdicts). */
  onCardFetched?(client: ClientIdentity, conditional: boolean): void;
  keepAlive: KeepAliveHub;
  cards: AgentCards;
  maxBodyBytes: number;
  /** Apply the A2A-Version rules to the letter: no header means 0.3. */
  strictVersion: boolean;
  /** Who a call is for: its tasks live in this scope and are visible only from it. */
  callContext(tenant?: string): CallContext;
  /** Who may call the agent; absent, anyone may. Its card stays public either way. */
  access?: AccessPolicy;
  /** The extensions its card declares: required ones must be activated by every call but the card's. */
  extensions?: readonly AgentExtension[];
  /** Reports an unexpected error (a simulator bug) to the log. */
  report(error: unknown): void;
}

/** The root agent's calls: scoped by tenant; no tenant is the root scope. */
export function tenantCalls(tenant?: string): CallContext {
  return { scope: tenant ? scopeOf({ tenant }) : ROOT_SCOPE };
}

/** A defined agent's calls: its tasks are its own, tenant by tenant. */
export function agentCalls(agent: string): (tenant?: string) => CallContext {
  return (tenant) => ({ scope: scopeOf(tenant ? { agent, tenant } : { agent }) });
}

/** A call as a binding sees it: the request, and what the binding makes of it. */
export interface WireCall {
  binding: string;
  /** The A2A version of the binding's shapes. */
  version: PushDialect;
  operation: string;
  /** The JSON-RPC id, for JSON-RPC calls. */
  id?: string | number | null;
  tenant?: string;
  /** The task the request names, if it names one. */
  taskId?: string;
}

/**
 * The CallContext of one request: its scope, and the wire request chaos keys on. The request's
 * trace learns what it was read as, and the task it names, if any.
 */
export function callFor(
  context: BindingContext,
  req: IncomingMessage,
  trace: RequestTrace,
  call: WireCall,
): CallContext {
  const chaos = req.headers['x-sim-chaos'];
  // A fresh object per call: it may take the request.
  const ctx = context.callContext(call.tenant);
  const request: WireRequest = {
    binding: call.binding,
    version: call.version,
    operation: call.operation,
    ...(call.id !== undefined && { id: call.id }),
    ...(typeof chaos === 'string' && { chaos }),
    scope: ctx.scope,
  };
  trace.read(request);
  if (call.taskId !== undefined) trace.about(call.taskId);
  ctx.request = request;
  ctx.client = clientOf(req);
  const upstreamHeaders = forwardedHeaders(req);
  if (upstreamHeaders) ctx.upstreamHeaders = upstreamHeaders;
  return ctx;
}

/** What a real agent behind the simulator needs to see of the client's request, when it is proxied. */
const FORWARDED = ['authorization', 'x-api-key', 'x-workspace-id', 'a2a-extensions', 'x-a2a-extensions'];

function forwardedHeaders(req: IncomingMessage): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') (headers ??= {})[name] = value;
  }
  return headers;
}

/** Who sent the request: its `X-Sim-Client`, else its API key's digest, else address and User-Agent. */
export function clientOf(req: IncomingMessage): ClientIdentity {
  const named = req.headers['x-sim-client'];
  if (typeof named === 'string' && named !== '') return { id: named, by: 'header' };
  const key = req.headers['x-api-key'] ?? req.headers['authorization'];
  if (typeof key === 'string' && key !== '') {
    return { id: `key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`, by: 'api-key' };
  }
  const agent = req.headers['user-agent'] ?? 'no user agent';
  return { id: `${req.socket.remoteAddress ?? 'unknown'} ${agent}`, by: 'address' };
}
