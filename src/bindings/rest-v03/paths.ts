/**
 * The v0.3 HTTP+JSON paths (§3.5.3, the proto's `google.api.http` annotations): v1.0's, under
 * `/v1`, with `GET /v1/card` for the authenticated extended card. v0.3 has no tenants and, over
 * REST, no task listing (the proto defines none).
 */
import { matchRestPath, type RestRoute } from '../rest-v1/codec.js';

export const V03_PREFIX = '/v1';

/** The route of a `/v1/…` path, or undefined when it names no v0.3 operation. */
export function matchV03RestPath(pathname: string): RestRoute | undefined {
  if (!pathname.startsWith(`${V03_PREFIX}/`)) return undefined;
  const below = pathname.slice(V03_PREFIX.length);
  if (below === '/card') return { operation: { op: 'extended-card' }, allow: ['GET'] };
  const route = matchRestPath(below);
  if (!route || route.tenant !== undefined) return undefined;
  const { op } = route.operation;
  return op === 'list' || op === 'extended-card' ? undefined : route;
}
