/**
 * Who may use the control plane: by default only clients on this machine (loopback); with
 * `--admin-token`, anyone who presents it (`Authorization: Bearer <token>`, `X-Admin-Token`, or
 * `?token=` for a browser or a WebSocket) and nobody else.
 */
import type { IncomingMessage } from 'node:http';
import { requestTarget } from '../bindings/shared/http.js';
import { A2AError } from '../domain/errors.js';

/** Returns when the request may use the control plane; throws Unauthenticated or PermissionDenied. */
export function checkAdminAccess(req: IncomingMessage, token: string | undefined): void {
  if (token === undefined) {
    if (isLoopback(req.socket.remoteAddress)) return;
    throw new A2AError(
      'PermissionDeniedError',
      'Permission denied: the control plane answers only clients on this machine. Start the simulator with --admin-token to allow others.',
    );
  }
  const presented = presentedToken(req);
  if (presented === undefined) {
    throw new A2AError(
      'UnauthenticatedError',
      'Authentication required: send the admin token as "Authorization: Bearer <token>", "X-Admin-Token" or ?token=.',
    );
  }
  if (presented !== token) {
    throw new A2AError('PermissionDeniedError', 'Permission denied: the admin token is wrong.');
  }
}

function presentedToken(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (bearer) return bearer[1];
  const header = req.headers['x-admin-token'];
  if (typeof header === 'string' && header !== '') return header;
  return requestTarget(req.url).query.get('token') ?? undefined;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
