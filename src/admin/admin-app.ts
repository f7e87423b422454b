/**
 * The express app of the control plane: the admin API and the dashboard under `/_sim`, then every
 * other request to the A2A surface's handler. It is loaded on the first request to `/_sim` (or at
 * start with `http: 'express'`): a simulator that is only talked A2A to never loads express.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { ControlPlane } from './control-plane.js';
import { adminRoutes } from './routes.js';

export function adminApp(
  prefix: string,
  plane: ControlPlane,
  serveA2A: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(prefix, adminRoutes(plane));
  app.use((req, res) => serveA2A(req, res));
  return app;
}
