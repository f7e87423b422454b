/**
 * Who may use the control plane: by default only clients on this machine (loopback); with
 * `--admin-token`, anyone who presents it (`Authorization: Bearer <token>`, `X-Admin-Token`, or
 * `?token=` for a browser or a WebSocket) and nobody else. Neither may a web page act through a
 * browser that passes those checks: see {@link checkNotCrossSite} and {@link checkFeedOrigin}.
 */
import type { IncomingMessage } from 'node:http';
import { JSON_TYPES, mediaTypeOf, requestTarget } from '../bindings/shared/http.js';
import { A2AError } from '../domain/errors.js';
import { sameSecret } from '../lib/secrets.js';

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
  if (!sameSecret(presented, token)) {
    throw new A2AError('PermissionDeniedError', 'Permission denied: the admin token is wrong.');
  }
}

/** The HTTP methods that change the simulator. */
const MUTATING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses a request that changes the simulator unless it is one a web page cannot make a browser
 * send: any page may POST a form or `text/plain` to 127.0.0.1 (CSRF), but a JSON `Content-Type` or
 * a header of our own needs a CORS preflight, which this server never grants.
 *
 * @note 403, not 415: the body is not the problem (`POST /_sim/reset` has none); a request that
 * does not show it was sent on purpose is refused like one without the right credentials.
 */
export function checkNotCrossSite(req: IncomingMessage): void {
  if (!MUTATING.has(req.method ?? '')) return;
  const type = mediaTypeOf(req);
  if (type !== undefined && JSON_TYPES.includes(type)) return;
  if (req.headers['x-sim-admin'] || req.headers['x-admin-token'] || req.headers.authorization) return;
  throw new A2AError(
    'PermissionDeniedError',
    `Permission denied: a ${req.method} to the control plane changes the simulator, so it must send "Content-Type: application/json" or an "X-Sim-Admin: 1" header (curl -H 'X-Sim-Admin: 1'), which no web page can make a browser send.`,
    { reason: 'CROSS_SITE_REQUEST_REFUSED' },
  );
}

/**
 * Any web page may open a WebSocket to any server: a browser only says which page asked, in
 * `Origin`. Without a token, where being on this machine is the only credential, a feed watcher
 * from a page of another origin is refused, so such a page cannot read the feed.
 */
export function checkFeedOrigin(req: IncomingMessage, token: string | undefined): void {
  const origin = req.headers.origin;
  if (token !== undefined || origin === undefined) return;
  if (URL.canParse(origin) && new URL(origin).host === req.headers.host) return;
  throw new A2AError(
    'PermissionDeniedError',
    `Permission denied: the live feed answers pages of this simulator only, not a page of ${origin}. Start the simulator with --admin-token to watch from elsewhere.`,
    { reason: 'CROSS_SITE_REQUEST_REFUSED' },
  );
}

function presentedToken(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (bearer) return bearer[1];
  const header = req.headers['x-admin-token'];
  if (typeof header === 'string' && header !== '') return header;
  return requestTarget(req.url).query.get('token') ?? undefined;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
