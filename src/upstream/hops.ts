/**
 * Proxy loops. Every call to the agent names the simulators it passed through in {@link HOP_HEADER}
 * (as `Via` does for HTTP proxies, RFC 9110 §7.6.3), this one last; a request that arrives naming
 * this simulator already has gone round, and is refused with 508 Loop Detected instead of being
 * sent round again. A card whose interface is the simulator itself is caught at its first call.
 */
import { A2AError } from '../domain/errors.js';
import { HOP_HEADER } from './limits.js';

/**
 * Throws when `headers` (a request's, as the binding passed them on) show it already passed
 * through the simulator named `self`.
 *
 * @example checkHops({ 'x-a2a-sim-hop': 'a2a-sim-1f2e3d4c' }, 'a2a-sim-1f2e3d4c', 'http://127.0.0.1:41241')
 */
export function checkHops(headers: Record<string, string> | undefined, self: string, url: string): void {
  const arrived = headers?.[HOP_HEADER];
  if (arrived === undefined) return;
  const hops = arrived.split(',').map((hop) => hop.trim());
  if (!hops.includes(self)) return;
  const where =
    hops[hops.length - 1] === self
      ? `the agent's interface at ${url} leads straight back to this simulator`
      : `the agent's interface at ${url} leads back to it through ${hops.length - hops.indexOf(self) - 1} other simulator(s)`;
  throw new A2AError(
    'InvalidAgentResponseError',
    `Failed to proxy the request: it already passed through this simulator (${HOP_HEADER}: ${arrived}); ${where}. Point the proxy at the agent itself.`,
    { httpStatus: 508, metadata: { hops: arrived } },
  );
}
