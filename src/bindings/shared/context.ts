/** What every binding is built from: the service, the stream keep-alive, the cards, and limits. */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AgentExtension } from '../../agents/schema.js';
import { ROOT_SCOPE, scopeOf, type Scope } from '../../domain/scope.js';
import type { PushDialect } from '../../domain/types.js';
import type { Exchange } from '../../calls/exchange.js';
import type { AnswerOf, Operation, OperationName } from '../../calls/operations.js';
import type { A2AError } from '../../domain/errors.js';
import type { ErrorCodeProfile } from '../../domain/error-codes.js';
import type { CardSignatureFault } from '../../domain/card-signature.js';
import type { Serve } from '../../calls/pipeline.js';
import type { CallContext, CallScope, ClientIdentity } from '../../runtime/api.js';
import type { AgentCards } from '../agent-card.js';
import type { AccessPolicy } from './auth.js';
import type { KeepAliveHub } from './sse.js';

export interface BindingContext {
  /** The agent's call pipeline: replica sync, the witness, chaos, then the service. */
  serve: Serve;
  /** Told of each card a client fetches (client verdicts). */
  onCardFetched?(exchange: Exchange): void;
  /** The signature fault chaos puts on a card served now, given the request's `X-Sim-Chaos` (recorded). */
  cardChaos?(header: string | undefined, exchange: Exchange): CardSignatureFault | undefined;
  /**
   * Told of a call the binding refused while reading it, before the pipeline served it (a bad
   * cursor header, bad params): its exchange names the client, the operation and the refusal, so
   * the judge counts it as that client's call (client verdicts).
   */
  onRefused?(exchange: Exchange): void;
  keepAlive: KeepAliveHub;
  cards: AgentCards;
  maxBodyBytes: number;
  /** Apply the A2A-Version rules to the letter: no header means 0.3. */
  strictVersion: boolean;
  /** Which edition of the spec's error table statuses follow (domain/error-codes.ts). */
  errorCodes: ErrorCodeProfile;
  /** Who a call is for: its tasks live in this scope and are visible only from it. */
  callContext(tenant?: string): CallScope;
  /** Who may call the agent; absent, anyone may. Its card stays public either way. */
  access?: AccessPolicy;
  /** The extensions its card declares: required ones must be activated by every call but the card's. */
  extensions?: readonly AgentExtension[];
  /** Reports an unexpected error (a simulator bug) to the log. */
  report(error: unknown): void;
}

/** The root agent's calls: scoped by tenant; no tenant is the root scope. */
export function tenantCalls(tenant?: string): CallScope {
  return { scope: tenant ? scopeOf({ tenant }) : ROOT_SCOPE };
}

/** A defined agent's calls: its tasks are its own, tenant by tenant. */
export function agentCalls(agent: string): (tenant?: string) => CallScope {
  return (tenant) => ({ scope: scopeOf(tenant ? { agent, tenant } : { agent }) });
}

/**
 * What the bindings read of a request: its headers (gRPC: its metadata), and the connection it came
 * on, for who sent it and for noticing when they leave. An `IncomingMessage` is one.
 */
export interface CallerRequest {
  readonly headers: IncomingHttpHeaders;
  readonly socket: CallerConnection | null;
}

export interface CallerConnection {
  readonly remoteAddress?: string | undefined;
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/** What a binding read a request as. */
export interface Reading {
  binding: string;
  /** The A2A version of the binding's shapes. */
  version: PushDialect;
  /** The operation as the binding names it: `POST /message:send`, `SendMessage`. */
  operation: string;
  /** What it asks for, known before its parameters are decoded. */
  kind?: OperationName;
  /** The JSON-RPC id, for JSON-RPC calls. */
  id?: string | number | null;
  tenant?: string;
  /** The task the request names, if it names one. */
  taskId?: string;
}

/** Serves the operation a request was decoded into, through the agent's pipeline. */
export type ServeOperation = <O extends Operation>(operation: O) => Promise<AnswerOf<O>>;

/**
 * A binding read a request: its exchange record says as what, and the call it makes of it is
 * served by the agent's pipeline, in the request's scope, for the client that sent it.
 */
export function readRequest(
  context: BindingContext,
  req: CallerRequest,
  exchange: Exchange,
  reading: Reading,
): ServeOperation {
  const chaos = req.headers['x-sim-chaos'];
  const base = context.callContext(reading.tenant);
  const client = noteReading(context, req, exchange, reading, base.scope);
  const upstreamHeaders = forwardedHeaders(req);
  const connection = new ClientConnection(req);
  // A fresh object per call: the runtime notes the scenario it matched on it. Written out: a
  // spread of `base` first gave each call's context a hidden class of its own (Node 20).
  const ctx: CallContext = {
    scope: base.scope,
    ...(base.continueInContext && { continueInContext: true }),
    version: reading.version,
    client,
    ...(upstreamHeaders && { upstreamHeaders }),
    connection,
  };
  return (operation) => {
    served.add(exchange);
    exchange.kind = operation.name;
    const answer = context.serve({ operation, ctx, exchange, ...(typeof chaos === 'string' && { chaos }) });
    return answer.finally(() => connection.release());
  };
}

/**
 * Notes on the exchange what the request was read as, and who sent it, before its parameters are
 * decoded: a request refused while they are is still that client's call of that operation.
 */
export function noteReading(
  context: BindingContext,
  req: CallerRequest,
  exchange: Exchange,
  reading: Reading,
  scope: Scope = context.callContext(reading.tenant).scope,
): ClientIdentity {
  const chaos = req.headers['x-sim-chaos'];
  const client = clientOf(req);
  exchange.readAs({
    binding: reading.binding,
    version: reading.version,
    operation: reading.operation,
    ...(reading.kind !== undefined && { kind: reading.kind }),
    ...(reading.id !== undefined && { id: reading.id }),
    scope,
    ...(typeof chaos === 'string' && { chaos }),
  });
  if (reading.taskId !== undefined) exchange.about(reading.taskId);
  exchange.client = client;
  return client;
}

/** Exchanges whose call the pipeline served (its layers saw it, the witness among them). */
const served = new WeakSet<Exchange>();

/**
 * A call the binding read as an operation and refused before serving it: the refusal goes on its
 * exchange record, and to whoever `onRefused` tells (the judge). A call the pipeline served was
 * witnessed there already.
 */
export function refusedWhileReading(context: BindingContext, exchange: Exchange, error: A2AError): void {
  if (served.has(exchange) || exchange.kind === undefined || !exchange.client) return;
  exchange.refused(error);
  context.onRefused?.(exchange);
}

/**
 * The client's connection, as a call sees it: its signal is aborted when the connection closes
 * before the call is served (a stream is served once it starts: from then on, stopping it is the
 * stream's own business). The controller and the socket listener are made only when the signal is
 * asked for (by the proxy, to abort its call to a real agent): every call would pay for what few need.
 * The getter is the class's, not the context's own: a context with an accessor of its own would get
 * a hidden class of its own, for every call.
 */
class ClientConnection {
  private leaving: { controller: AbortController; onClose: () => void } | undefined;

  constructor(private readonly req: CallerRequest) {}

  get signal(): AbortSignal {
    if (!this.leaving) {
      const controller = new AbortController();
      const onClose = () => controller.abort();
      const { socket } = this.req;
      if (!socket || socket.destroyed) controller.abort();
      else socket.once('close', onClose);
      this.leaving = { controller, onClose };
    }
    return this.leaving.controller.signal;
  }

  release(): void {
    if (this.leaving) this.req.socket?.off('close', this.leaving.onClose);
  }
}

/**
 * What a real agent behind the simulator needs to see of the client's request, when it is proxied;
 * `x-a2a-sim-hop` names the simulators it already passed through (src/upstream/hops.ts).
 */
const FORWARDED = [
  'authorization',
  'x-api-key',
  'x-workspace-id',
  'a2a-extensions',
  'x-a2a-extensions',
  'x-a2a-sim-hop',
];

function forwardedHeaders(req: CallerRequest): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') (headers ??= {})[name] = value;
  }
  return headers;
}

/**
 * Who sent the request: its `X-Sim-Client`, else its API key's digest, else address and User-Agent.
 * The client chooses the name, up to a header's size, and the verdicts and chaos keep one per client
 * (10,000 at most): a name longer than {@link MAX_CLIENT_CHARS} is kept as its start and a digest of
 * the whole, so that it stays apart from every other name and small.
 */
export function clientOf(req: CallerRequest): ClientIdentity {
  const named = req.headers['x-sim-client'];
  if (typeof named === 'string' && named !== '') return sharedIdentity('header', named);
  const key = req.headers['x-api-key'] ?? req.headers['authorization'];
  if (typeof key === 'string' && key !== '') {
    return { id: `key:${digest(key).slice(0, 12)}`, by: 'api-key' };
  }
  const agent = req.headers['user-agent'] ?? 'no user agent';
  return sharedIdentity('address', `${req.socket?.remoteAddress ?? 'unknown'} ${agent}`);
}

/** Recent clients' identities, by kind and name, at most {@link MAX_SHARED_IDENTITIES} of each (the oldest go). */
const sharedIdentities = {
  header: new Map<string, ClientIdentity>(),
  address: new Map<string, ClientIdentity>(),
};
const MAX_SHARED_IDENTITIES = 1024;

/**
 * One identity for a client's calls, rather than a copy kept with each of them by the journal and
 * the verdicts. Only short names are shared (a long one is bounded as it was), so what this keeps
 * is small whoever names the clients.
 */
function sharedIdentity(by: 'header' | 'address', name: string): ClientIdentity {
  if (name.length > MAX_CLIENT_CHARS) return { id: boundedName(name), by };
  const known = sharedIdentities[by];
  let identity = known.get(name);
  if (!identity) {
    if (known.size >= MAX_SHARED_IDENTITIES) known.delete(known.keys().next().value!);
    known.set(name, (identity = { id: name, by }));
  }
  return identity;
}

/** The longest client name kept as sent. */
export const MAX_CLIENT_CHARS = 128;

function boundedName(name: string): string {
  if (name.length <= MAX_CLIENT_CHARS) return name;
  return `${name.slice(0, MAX_CLIENT_CHARS - 24)}…#${digest(name).slice(0, 16)}`;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
