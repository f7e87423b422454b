/**
 * One agent's whole surface as a plain `node:http` handler: its card (always public), its JSON-RPC
 * endpoint, its REST binding (v1.0, and v0.3 under `/v1`), and a 404 that points at them. The root agent is served at `/`,
 * each defined agent at `/agents/{id}`; the server strips that base before calling it.
 *
 * @note No router library: the card and the endpoint are fixed paths, and REST paths carry their
 * verb inside a segment (`/tasks/{id}:cancel`), which the REST codec's own grammar reads and route
 * patterns cannot express. A few string comparisons are the fastest dispatch there is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError } from '../domain/errors.js';
import { JSONRPC_V03 } from './jsonrpc-v03/methods.js';
import { JSONRPC_V1 } from './jsonrpc-v1/methods.js';
import { matchRestPath } from './rest-v1/codec.js';
import { sendRestError } from './rest-v1/errors.js';
import { serveRest } from './rest-v1/routes.js';
import { matchV03RestPath } from './rest-v03/paths.js';
import { serveRestV03 } from './rest-v03/routes.js';
import { clientOf, type BindingContext } from './shared/context.js';
import { answerFailure } from './shared/errors.js';
import { declaredVersion, sendJson, type RequestTarget } from './shared/http.js';
import { CARD_MAX_AGE_SECONDS } from './agent-card.js';
import { JWKS_PATH, jwksOf } from './card-signing.js';
import { jsonRpcEndpoint } from './shared/jsonrpc-endpoint.js';
import type { Exchange } from '../calls/exchange.js';

/** The JSON-RPC dialects of every agent's endpoint; the first answers when nothing tells them apart. */
const JSONRPC_DIALECTS = [JSONRPC_V1, JSONRPC_V03];

const CARD_PATHS: ReadonlySet<string> = new Set(['/.well-known/agent-card.json', '/.well-known/agent.json']);

export type AgentSurface = (
  req: IncomingMessage,
  res: ServerResponse,
  exchange: Exchange,
  /** The path below the agent's base, with the query. */
  target: RequestTarget,
  /** Where the agent is mounted: `""` or `/agents/{id}`, for messages. */
  base: string,
) => void;

export function agentSurface(context: BindingContext): AgentSurface {
  const rpc = jsonRpcEndpoint(context, JSONRPC_DIALECTS);
  return (req, res, exchange, target, base) => {
    const method = req.method ?? '';
    // Like the routers clients know: one trailing slash names the same path.
    const path = withoutTrailingSlash(target.pathname);
    // The agent's own URL answers its card too: clients and suites (the v0.3 TCK) read `GET {url}`.
    if (
      (method === 'GET' || method === 'HEAD') &&
      (CARD_PATHS.has(path) || target.pathname === '/' || target.pathname === '')
    ) {
      try {
        const conditional =
          req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
        exchange.fetchedCard(conditional);
        exchange.client = clientOf(req);
        const chaos = req.headers['x-sim-chaos'];
        const fault = context.cards.signer
          ? context.cardChaos?.(typeof chaos === 'string' ? chaos : undefined, exchange)
          : undefined;
        if (fault) exchange.forgedCard = fault;
        context.onCardFetched?.(exchange);
        context.cards.serve(req, res, declaredVersion(req, target.query), fault);
      } catch (error) {
        answerFailure(res, error, context.report, (failure) => sendRestError(req, res, failure));
      }
      return;
    }
    if ((method === 'GET' || method === 'HEAD') && path === JWKS_PATH && context.cards.signer) {
      sendJson(res, 200, jwksOf(context.cards.signer), 'application/json', {
        'Cache-Control': `public, max-age=${CARD_MAX_AGE_SECONDS}`,
      });
      return;
    }
    if (method === 'POST' && (path === '/' || path === '')) {
      void rpc(req, res, exchange);
      return;
    }
    let route;
    let v03Route;
    try {
      // `/v1/…` is v0.3 HTTP+JSON, unless the request declares 1.0: then `v1` is a v1.0 tenant.
      v03Route = matchV03RestPath(target.pathname);
      if (v03Route && declaredVersion(req, target.query) === '1.0') v03Route = undefined;
      route = v03Route ? undefined : matchRestPath(target.pathname);
    } catch (error) {
      answerFailure(res, error, context.report, (failure) => sendRestError(req, res, failure));
      return;
    }
    if (v03Route) {
      void serveRestV03(context, v03Route, req, res, target, exchange);
      return;
    }
    if (route) {
      void serveRest(context, route, req, res, target, exchange);
      return;
    }
    sendRestError(
      req,
      res,
      new A2AError(
        'MethodNotFoundError',
        `Not found: ${method} ${base}${target.pathname}. The agent card is at ${base}/.well-known/agent-card.json; JSON-RPC is POST ${base}/; REST paths include POST ${base}/message:send and GET ${base}/tasks/{id} (A2A v0.3: POST ${base}/v1/message:send).`,
      ),
    );
  };
}

/** `/a/` → `/a`; `//` → `/`; `/` stays. */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
