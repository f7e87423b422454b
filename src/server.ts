/**
 * The composition root: one express app with the agent card, the JSON-RPC endpoint and the REST
 * binding, all over one SimService. Anything the bindings do not claim gets a helpful 404.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { JSONRPC_V1 } from './bindings/jsonrpc-v1/methods.js';
import { restV1 } from './bindings/rest-v1/routes.js';
import { toRestStatus } from './bindings/rest-v1/errors.js';
import type { BindingContext } from './bindings/shared/context.js';
import { asA2AError } from './bindings/shared/errors.js';
import { declaredVersion, sendJson } from './bindings/shared/http.js';
import { jsonRpcEndpoint } from './bindings/shared/jsonrpc-endpoint.js';
import { VERSION } from './config.js';
import { A2AError } from './domain/errors.js';

export function buildApp(context: BindingContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  const card = (req: Request, res: Response) => {
    try {
      context.cards.serve(req, res, declaredVersion(req, new URL(req.url, 'http://localhost').searchParams));
    } catch (error) {
      const { httpStatus, body } = toRestStatus(asA2AError(error, context.report));
      sendJson(res, httpStatus, body, 'application/json');
    }
  };
  app.get('/.well-known/agent-card.json', card);
  app.get('/.well-known/agent.json', card);

  // Liveness for container health checks and scripts waiting for the server to come up.
  app.get('/_sim/health', (_req: Request, res: Response) => {
    sendJson(
      res,
      200,
      { status: 'ok', version: VERSION, scenarios: context.service.scenarios.list().length },
      'application/json',
    );
  });

  app.post('/', jsonRpcEndpoint(context, [JSONRPC_V1]));
  app.use(restV1(context));

  app.use((req: Request, res: Response) => {
    const error = new A2AError(
      'MethodNotFoundError',
      `Not found: ${req.method} ${req.path}. The agent card is at /.well-known/agent-card.json; JSON-RPC is POST /; REST paths include POST /message:send and GET /tasks/{id}.`,
    );
    const { body } = toRestStatus(error);
    sendJson(res, 404, body, 'application/json');
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    const { httpStatus, body } = toRestStatus(asA2AError(error, context.report));
    sendJson(res, httpStatus, body, 'application/json');
  });
  return app;
}
