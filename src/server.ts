/**
 * The HTTP entry. The A2A surface (every agent's card, JSON-RPC and REST, and the workspace
 * gateway) is served by plain `node:http` handlers; express serves what it is good at, the control
 * plane under `/_sim` and the dashboard's files, and is loaded on the first request there.
 * `handle` is what the simulator listens with, and what a server of the user's own mounts.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ControlPlane } from './admin/control-plane.js';
import { journalRequests } from './admin/journal-trace.js';
import { gatewayEndpoint, type GatewayAgent, type GatewayOptions } from './bindings/gateway/endpoint.js';
import { sendRestError } from './bindings/rest-v1/errors.js';
import { answerOnSocket } from './bindings/rest-v1/socket-answer.js';
import type { BindingContext } from './bindings/shared/context.js';
import { answerFailure } from './bindings/shared/errors.js';
import { requestTarget, type RequestTarget } from './bindings/shared/http.js';
import { agentSurface, withoutTrailingSlash } from './bindings/surface.js';
import { A2AError, invalidParams } from './domain/errors.js';

export interface GatewaySettings {
  /** Path before `/agents/a2a`, e.g. `/acme`; `""` serves the gateway at `/agents/a2a`. */
  prefix: string;
  apiKeys?: GatewayOptions['apiKeys'];
}

export interface AppOptions {
  gateway: GatewaySettings;
  /** The admin API, the journal and the live feed. */
  plane: ControlPlane;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface SimulatorHttp {
  /** Serves a request: the control plane through express, everything else directly. */
  handle: Handler;
  /** The same handlers, all through the control plane's express app. */
  expressApp(): Promise<Handler>;
}

const ADMIN_PREFIX = '/_sim';

export function buildHttp(
  context: BindingContext,
  agents: readonly GatewayAgent[],
  { gateway, plane }: AppOptions,
): SimulatorHttp {
  const journal = journalRequests(plane.journal, plane.events, plane.clock);
  const root = agentSurface(context);
  const defined = new Map(agents.map((agent) => [agent.id, agentSurface(agent.context)]));
  const gatewayPath = `${gateway.prefix}/agents/a2a`.toLowerCase();
  const gatewayEndpointOf = gatewayEndpoint(context, {
    agents,
    ...(gateway.apiKeys && { apiKeys: gateway.apiKeys }),
  });

  // Every request to an agent, whatever its binding, goes into the journal.
  const serveA2A = (req: IncomingMessage, res: ServerResponse): void => {
    const exchange = journal(req, res);
    try {
      const target = requestTarget(req.url);
      const path = withoutTrailingSlash(target.pathname);
      // First the gateway (the agent id `a2a` is reserved for it), then the defined agents, then
      // the root agent, whose REST paths would otherwise read `/agents/...` as a tenant "agents".
      if (req.method === 'POST' && path.toLowerCase() === gatewayPath) {
        void gatewayEndpointOf(req, res, exchange);
        return;
      }
      const mount = agentMount(target);
      if (!mount) {
        root(req, res, exchange, target, '');
        return;
      }
      const surface = defined.get(mount.id);
      if (surface) surface(req, res, exchange, mount.target, `/agents/${mount.id}`);
      else unknownAgent(req, res, mount.id, [...defined.keys()]);
    } catch (error) {
      answerFailure(res, error, context.report, (failure) => sendRestError(req, res, failure));
    }
  };

  let loading: Promise<Handler> | undefined;
  const expressApp = () =>
    (loading ??= import('./admin/admin-app.js').then(({ adminApp }) =>
      adminApp(ADMIN_PREFIX, plane, serveA2A),
    ));
  const serveAdmin: Handler = (req, res) => {
    expressApp().then(
      (app) => app(req, res),
      (error: unknown) =>
        answerFailure(res, error, context.report, (failure) => sendRestError(req, res, failure)),
    );
  };
  return {
    handle: (req, res) => (isAdminPath(req.url) ? serveAdmin(req, res) : serveA2A(req, res)),
    expressApp,
  };
}

/** `/_sim` and below, as express mounts it (case-insensitively). */
function isAdminPath(url: string | undefined): boolean {
  const path = (url ?? '/').slice(0, ADMIN_PREFIX.length + 1).toLowerCase();
  return path === ADMIN_PREFIX || path === `${ADMIN_PREFIX}/` || path === `${ADMIN_PREFIX}?`;
}

/** `/agents/{id}/rest…`: the agent id, decoded, and the path below it; undefined for other paths. */
function agentMount(target: RequestTarget): { id: string; target: RequestTarget } | undefined {
  const { pathname } = target;
  if (pathname.slice(0, 8).toLowerCase() !== '/agents/') return undefined;
  const end = pathname.indexOf('/', 8);
  const segment = end < 0 ? pathname.slice(8) : pathname.slice(8, end);
  if (segment === '') return undefined;
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw invalidParams([
      { field: 'path', description: `"${segment}" is not valid percent-encoding (write "%" as %25)` },
    ]);
  }
  return { id, target: { ...target, pathname: end < 0 ? '' : pathname.slice(end) } };
}

function unknownAgent(req: IncomingMessage, res: ServerResponse, agentId: string, known: string[]): void {
  sendRestError(
    req,
    res,
    new A2AError(
      'AgentNotFoundError',
      `Agent not found: no agent "${agentId}" is defined. Known agents: ${known.join(', ') || '(none defined)'}; each is served at /agents/{id}/.`,
      { metadata: { agentId } },
    ),
  );
}

/** Node's parser errors for a request it cannot read, and the statuses Node itself would answer. */
const PARSER_STATUS: ReadonlyMap<string, number> = new Map([
  ['HPE_HEADER_OVERFLOW', 431],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413],
  ['ERR_HTTP_REQUEST_TIMEOUT', 408],
]);

/**
 * Answers what never reaches express in the protocol's error shape, where Node would send a bare
 * status line or just hang up: bytes it cannot parse as an HTTP request, and CONNECT, which is for
 * proxies (405). Call it on the server that serves {@link buildHttp}.
 */
export function answerUnroutable(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that reset its connection, or a response already under way, leaves nothing to say.
    if (
      error.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as { _httpMessage?: unknown })._httpMessage
    ) {
      socket.destroy();
      return;
    }
    const status = PARSER_STATUS.get(error.code ?? '') ?? 400;
    const type = status === 413 ? 'PayloadTooLargeError' : 'InvalidRequestError';
    answerOnSocket(
      socket,
      new A2AError(type, `Malformed HTTP request: ${error.message} (${error.code ?? 'unknown'}).`, {
        ...(status !== 400 && status !== 413 && { httpStatus: status }),
      }),
    );
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    answerOnSocket(
      socket,
      new A2AError(
        'MethodNotAllowedError',
        `No operation for CONNECT ${req.url}: this server is not a proxy.`,
      ),
      ['Allow: GET, POST, PUT, PATCH, DELETE'],
    );
  });
}
