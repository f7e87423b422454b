/**
 * The store's refusal of new work once the tasks in progress fill its byte budget, or their scope's
 * share of it: 429 ResourceExhaustedError, reason STORE_FULL, saying what to do about it, with a
 * Retry-After: tasks end and their room is taken back as their scenarios play, so a retry can fit.
 */
import { A2AError, RETRY_SOON_MS } from '../domain/errors.js';
import { formatBytes } from '../lib/bytes.js';

interface Fill {
  heldBytes: number;
  maxBytes: number;
  /** What the refused work needed. */
  bytes: number;
}

/** `scopeShare`: the refusal is of one scope's share (the part of the store it may hold). */
export function storeFullError(what: string, fill: Fill, scopeShare?: number): A2AError {
  const { heldBytes, maxBytes, bytes } = fill;
  const held =
    scopeShare === undefined
      ? `the tasks in progress hold ${formatBytes(heldBytes)} of the store's ${formatBytes(maxBytes)} (--max-store-bytes)`
      : `this scope's tasks in progress hold ${formatBytes(heldBytes)} of the ${formatBytes(maxBytes)} one scope may hold (${Math.round(scopeShare * 100)}% of --max-store-bytes; the rest is kept for the other scopes)`;
  return new A2AError(
    'ResourceExhaustedError',
    `Failed to accept ${what}: ${held} and it needs ${formatBytes(bytes)} more. Cancel or finish tasks, reset with POST /_sim/reset, or raise --max-store-bytes.`,
    { reason: 'STORE_FULL', metadata: { heldBytes, maxBytes, bytes }, retryAfterMs: RETRY_SOON_MS },
  );
}
