/**
 * What a client is told when a replica cannot answer from the shared store: UnavailableError in
 * the binding's own shape, with a reason and when to retry.
 */
import { A2AError, RETRY_SOON_MS } from '../domain/errors.js';
import { messageOf } from './redis.js';

/** Redis cannot be reached; `shown` is the store URL without its password. */
export function storeUnavailable(shown: string, cause: unknown): A2AError {
  return new A2AError(
    'UnavailableError',
    `Service unavailable: the shared store ${shown} cannot be reached (${messageOf(cause)}); retry once GET /_sim/health answers 200.`,
    { reason: 'STORE_UNAVAILABLE', retryAfterMs: RETRY_SOON_MS },
  );
}

/** This replica fell behind the shared log and rebuilds its tasks from the snapshots. */
export function storeBehind(shown: string): A2AError {
  return new A2AError(
    'UnavailableError',
    `Service unavailable: this replica fell behind the shared store's log and is rebuilding its tasks from ${shown}; retry once GET /_sim/health answers 200, or through another replica (a stream resumes from its last event id).`,
    { reason: 'STORE_BEHIND', retryAfterMs: RETRY_SOON_MS },
  );
}
