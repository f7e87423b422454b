/**
 * A chaos profile resolved for one call: the levels that apply overlaid in precedence order, with
 * every delay compiled, ready for the stream and call faults to draw from.
 */
import { RETRY_SOON_MS } from '../domain/errors.js';
import { parseDuration } from '../lib/duration.js';
import { delaySpec, type DelaySpec } from '../lib/delay.js';
import type { DeliveryChaos } from '../runtime/api.js';
import type { CallError, DropMode, Quirk, RawChaosProfile } from './profile.js';

export interface ChaosPlan {
  /** How the records name it: the profile names and levels it came from, e.g. `flaky-mobile+header`. */
  name: string;
  firstByte?: DelaySpec;
  perEvent?: DelaySpec;
  drop?: { afterEvents?: number; afterMs?: number; probability: number; mode: DropMode };
  /** A resume of a task whose stream chaos cut, later than this after the cut, is refused once. */
  resumeWithinMs?: number;
  duplicate?: { probability: number; lateBy: number };
  errors?: { kind: CallError; rate?: number; onCall?: number; retryAfterMs: number };
  quirks: ReadonlySet<Quirk>;
  delivery?: DeliveryChaos;
}

export function compilePlan(name: string, raw: RawChaosProfile): ChaosPlan {
  const { latency, drop, duplicate, errors, delivery } = raw;
  const droppy = drop && (drop.afterEvents !== undefined || drop.afterMs !== undefined || drop.probability);
  return {
    name,
    ...(latency?.firstByte !== undefined && { firstByte: delaySpec(latency.firstByte) }),
    ...(latency?.perEvent !== undefined && { perEvent: delaySpec(latency.perEvent) }),
    ...(droppy && {
      drop: {
        ...(drop.afterEvents !== undefined && { afterEvents: drop.afterEvents }),
        ...(drop.afterMs !== undefined && { afterMs: parseDuration(drop.afterMs)! }),
        probability: drop.probability ?? 0,
        mode: drop.mode ?? 'fin',
      },
    }),
    ...(drop?.resumeWithin !== undefined && { resumeWithinMs: parseDuration(drop.resumeWithin)! }),
    // Defaults apply only now, after the levels were overlaid: a level that sets `lateBy` alone
    // must not reset the probability a profile below it chose.
    ...(duplicate &&
      duplicate.probability !== 0 && {
        duplicate: { probability: duplicate.probability ?? 1, lateBy: duplicate.lateBy ?? 0 },
      }),
    ...(errors && {
      errors: {
        kind: errors.kind ?? '503',
        // A kind alone fails every call it applies to.
        ...(errors.rate === undefined && errors.onCall === undefined ? { rate: 1 } : {}),
        ...(errors.rate !== undefined && { rate: errors.rate }),
        ...(errors.onCall !== undefined && { onCall: errors.onCall }),
        retryAfterMs: errors.retryAfter === undefined ? RETRY_SOON_MS : parseDuration(errors.retryAfter)!,
      },
    }),
    quirks: new Set(raw.quirks ?? []),
    ...(delivery && {
      delivery: {
        failFirst: delivery.failFirst ?? 0,
        duplicate: delivery.duplicate ?? 0,
        outOfOrder: delivery.outOfOrder ?? 0,
        ...(delivery.delay !== undefined && { delay: delaySpec(delivery.delay) }),
      },
    }),
  };
}
