/**
 * The composition root: one express app serving the default agent at `/` and each defined agent
 * at `/agents/{id}/`, each with its agent card, JSON-RPC endpoint and REST binding over its own
 * SimService. Anything the bindings do not claim gets a helpful 404.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import { gatewayEndpoint, type GatewayAgent, type GatewayOptions } from './bindings/gateway/endpoint.js';
import { JSONRPC_V03 } from './bindings/jsonrpc-v03/methods.js';
import { JSONRPC_V1 } from './bindings/jsonrpc-v1/methods.js';
import { restV1 } from './bindings/rest-v1/routes.js';
import { answerOnSocket } from './bindings/rest-v1/socket-answer.js';
import { sendRestError } from './bindings/rest-v1/errors.js';
import type { BindingContext } from './bindings/shared/context.js';
import { answerFailure } from './bindings/shared/errors.js';
import { declaredVersion, requestTarget } from './bindings/shared/http.js';
import { jsonRpcEndpoint } from './bindings/shared/jsonrpc-endpoint.js';
import { journalRequests } from './admin/journal-trace.js';
import { adminRoutes, type ControlPlane } from './admin/routes.js';
import { A2AError } from './domain/errors.js';

/** The JSON-RPC dialects of every agent's endpoint; the first answers when nothing tells them apart. */
const JSONRPC_DIALECTS = [JSONRPC_V1, JSONRPC_V03];

/** A defined agent, served under `/agents/{id}/` and through the gateway. */
export type MountedAgent = GatewayAgent;

export interface GatewaySettings {
  /** Path before `/agents/a2a`, e.g. `/newmoi`; `""` serves the gateway at `/agents/a2a`. */
  prefix: string;
  apiKeys?: GatewayOptions['apiKeys'];
}

export interface AppOptions {
  gateway: GatewaySettings;
  /** The admin API, the journal and the live feed. */
  plane: ControlPlane;
}

export function buildApp(
  context: BindingContext,
  agents: readonly MountedAgent[],
  { gateway, plane }: AppOptions,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use('/_sim', adminRoutes(plane));
  // Every request to an agent, whatever its binding, goes into the journal.
  app.use(journalRequests(plane.journal, plane.faults, plane.events, plane.clock));

  // First the gateway (the agent id `a2a` is reserved for it), then the defined agents, then the
  // default agent, whose REST paths would otherwise read `/agents/...` as a tenant named "agents".
  app.post(
    `${gateway.prefix}/agents/a2a`,
    gatewayEndpoint(context, { agents, ...(gateway.apiKeys && { apiKeys: gateway.apiKeys }) }),
  );
  app.use('/agents/:agentId', definedAgents(agents));
  app.use(agentRoutes(context));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) =>
    answerFailure(res, error, context.report, (failure) => sendRestError(req, res, failure)),
  );
  return app;
}

/**
 * One agent's whole surface: its card (always public), then its access check, JSON-RPC, REST, and
 * a 404 that points at them. Mounted at `/` for the default agent and at `/agents/{id}` for the others.
 */
function agentRoutes(context: BindingContext): Router {
  const router = express.Router();
  const card = (req: Request, res: Response) => {
    try {
      context.cards.serve(req, res, declaredVersion(req, requestTarget(req.url).query));
    } catch (error) {
      answerFailure(res, error, context.report, (failure) => sendRestError(req, res, failure));
    }
  };
  router.get('/.well-known/agent-card.json', card);
  router.get('/.well-known/agent.json', card);
  router.post('/', jsonRpcEndpoint(context, JSONRPC_DIALECTS));
  router.use(restV1(context));
  router.use((req: Request, res: Response) => {
    const base = req.baseUrl;
    sendRestError(
      req,
      res,
      new A2AError(
        'MethodNotFoundError',
        `Not found: ${req.method} ${base}${req.path}. The agent card is at ${base}/.well-known/agent-card.json; JSON-RPC is POST ${base}/; REST paths include POST ${base}/message:send and GET ${base}/tasks/{id}.`,
      ),
    );
  });
  return router;
}

/** Routes `/agents/{id}/...` to that agent; an unknown id gets a 404 naming the known ones. */
function definedAgents(agents: readonly MountedAgent[]) {
  const routes = new Map(agents.map((agent) => [agent.id, agentRoutes(agent.context)]));
  return (req: Request<{ agentId: string }>, res: Response, next: NextFunction): void => {
    const { agentId } = req.params;
    const route = routes.get(agentId);
    if (route) {
      route(req, res, next);
      return;
    }
    const known = [...routes.keys()].join(', ') || '(none defined)';
    sendRestError(
      req,
      res,
      new A2AError(
        'AgentNotFoundError',
        `Agent not found: no agent "${agentId}" is defined. Known agents: ${known}; each is served at /agents/{id}/.`,
        { metadata: { agentId } },
      ),
    );
  };
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
 * proxies (405). Call it on the server that serves {@link buildApp}.
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
