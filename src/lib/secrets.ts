/**
 * Credentials compared so that how long a refusal takes says nothing about how close a guess came:
 * both sides are hashed to digests of one length and compared with timingSafeEqual (which needs
 * equal lengths, and would otherwise give the length away).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether `presented` is `secret`, in constant time. */
export function sameSecret(presented: string, secret: string): boolean {
  return timingSafeEqual(digest(presented), digest(secret));
}

/**
 * The one of `secrets` that `presented` is, if any. Every secret is compared, so the time does not
 * tell which one matched, or how far down the list it is.
 *
 * @example findSecret(req.headers['x-api-key'], Object.keys(apiKeys))
 */
export function findSecret(presented: string, secrets: Iterable<string>): string | undefined {
  let found: string | undefined;
  for (const secret of secrets) {
    if (sameSecret(presented, secret)) found ??= secret;
  }
  return found;
}
