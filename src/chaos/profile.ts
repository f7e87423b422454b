/**
 * Chaos profiles: how the wire misbehaves. A profile is written in a `*.chaos.yaml` file (its name
 * is the file name), inline in a scenario, or as `key=value` pairs in the `X-Sim-Chaos` header or
 * `metadata.chaos`. Levels overlay field by field, the request's winning: header, then message
 * metadata, then the scenario's, then the global `--chaos`.
 *
 * @example X-Sim-Chaos: profile=flaky-mobile, drop-after=3, drop-mode=reset, duplicate=0.2
 * @example X-Sim-Chaos: flaky-mobile
 */
import { z } from 'zod';
import { Delay, Duration } from '../lib/delay.js';
import { durationLimitError, parseDuration } from '../lib/duration.js';

export const DROP_MODES = ['fin', 'reset', 'hang'] as const;
export type DropMode = (typeof DROP_MODES)[number];

export const CALL_ERRORS = ['503', '429', '500', 'rpc-internal', 'empty', 'reset'] as const;
export type CallError = (typeof CALL_ERRORS)[number];

export const QUIRKS = ['unknown-state', 'late-status', 'final-snapshot', 'keep-alive-flood'] as const;
export type Quirk = (typeof QUIRKS)[number];

const Probability = z.number().min(0).max(1);

export const ChaosProfileFile = z
  .strictObject({
    $schema: z.string().optional(),
    description: z.string().optional(),
    latency: z
      .strictObject({
        firstByte: Delay.optional().meta({
          description: 'Before the response, or before a stream’s first byte.',
        }),
        perEvent: Delay.optional().meta({
          description: 'Jitter added before each stream event (order is kept).',
        }),
      })
      .optional(),
    drop: z
      .strictObject({
        afterEvents: z
          .number()
          .int()
          .min(0)
          .optional()
          .meta({ description: 'Cut the stream after this many events.' }),
        afterMs: Duration.optional().meta({ description: 'Cut the stream this long after it opened.' }),
        probability: Probability.optional().meta({
          description: 'Chance, per event, of cutting the stream before it.',
        }),
        mode: z.enum(DROP_MODES).optional().meta({
          description:
            'fin: a clean close; reset: a TCP reset; hang: silence on an open connection. Default fin.',
        }),
      })
      .optional(),
    duplicate: z
      .strictObject({
        probability: Probability.optional().meta({
          description: 'Chance, per event, that it is sent twice (same id and payload). Default 1.',
        }),
        lateBy: z
          .number()
          .int()
          .min(0)
          .optional()
          .meta({ description: 'Send the copy after this many later events (out of order); 0: at once.' }),
      })
      .optional(),
    errors: z
      .strictObject({
        kind: z
          .enum(CALL_ERRORS)
          .optional()
          .meta({ description: 'What a failing non-streaming call gets. Default 503.' }),
        rate: Probability.optional().meta({ description: 'Chance that a call fails.' }),
        onCall: z
          .number()
          .int()
          .min(1)
          .optional()
          .meta({ description: 'Fail exactly the Nth call (1 is the first).' }),
        retryAfter: Duration.optional().meta({ description: 'Retry-After of a 503 or 429. Default 1s.' }),
      })
      .optional(),
    quirks: z
      .array(z.enum(QUIRKS))
      .optional()
      .meta({ description: 'Protocol quirks a client must tolerate.' }),
    delivery: z
      .strictObject({
        failFirst: z
          .number()
          .int()
          .min(0)
          .optional()
          .meta({ description: 'Fail the first N attempts of each webhook delivery (nothing is sent).' }),
        duplicate: Probability.optional().meta({ description: 'Chance that a delivery is made twice.' }),
        outOfOrder: Probability.optional().meta({
          description: 'Chance that a delivery is held back and made after the next one.',
        }),
        delay: Delay.optional().meta({ description: 'Wait before each delivery.' }),
      })
      .optional()
      .meta({ description: 'Push notification (webhook) deliveries.' }),
  })
  .meta({
    title: 'a2a-sim chaos profile',
    description: 'How the wire misbehaves; the file name is the profile name.',
  });

export type RawChaosProfile = z.infer<typeof ChaosProfileFile>;

/** What a level says: a named profile to start from, its own settings, or "no chaos at all". */
export interface ChaosLevel {
  profile?: string;
  settings?: RawChaosProfile;
  off?: boolean;
}

export class ChaosSyntaxError extends Error {}

type ApplyPair = (value: string, into: RawChaosProfile) => void;

/** What each pair sets; a Map, so that `__proto__=1` or a bare `toString` names no key. */
const HEADER_KEYS: ReadonlyMap<string, ApplyPair> = new Map<string, ApplyPair>([
  ['drop-after', (v, p) => (p.drop = { ...p.drop, afterEvents: integer(v, 'drop-after') })],
  ['drop-after-ms', (v, p) => (p.drop = { ...p.drop, afterMs: duration(v, 'drop-after-ms') })],
  ['drop-rate', (v, p) => (p.drop = { ...p.drop, probability: probability(v, 'drop-rate') })],
  ['drop-mode', (v, p) => (p.drop = { ...p.drop, mode: oneOf(v, DROP_MODES, 'drop-mode') })],
  ['duplicate', (v, p) => (p.duplicate = { ...p.duplicate, probability: probability(v, 'duplicate') })],
  ['duplicate-late', (v, p) => (p.duplicate = { ...p.duplicate, lateBy: integer(v, 'duplicate-late') })],
  ['latency', (v, p) => (p.latency = { ...p.latency, firstByte: duration(v, 'latency') })],
  ['jitter', (v, p) => (p.latency = { ...p.latency, perEvent: { min: 0, max: duration(v, 'jitter') } })],
  ['error', (v, p) => (p.errors = { ...p.errors, kind: oneOf(v, CALL_ERRORS, 'error') })],
  ['error-rate', (v, p) => (p.errors = { ...p.errors, rate: probability(v, 'error-rate') })],
  ['error-on', (v, p) => (p.errors = { ...p.errors, onCall: integer(v, 'error-on', 1) })],
  ['retry-after', (v, p) => (p.errors = { ...p.errors, retryAfter: duration(v, 'retry-after') })],
  ['quirks', (v, p) => (p.quirks = v.split('+').map((q) => oneOf(q.trim(), QUIRKS, 'quirks')))],
  ['push-fail-first', (v, p) => (p.delivery = { ...p.delivery, failFirst: integer(v, 'push-fail-first') })],
  ['push-duplicate', (v, p) => (p.delivery = { ...p.delivery, duplicate: probability(v, 'push-duplicate') })],
  [
    'push-out-of-order',
    (v, p) => (p.delivery = { ...p.delivery, outOfOrder: probability(v, 'push-out-of-order') }),
  ],
  ['push-delay', (v, p) => (p.delivery = { ...p.delivery, delay: duration(v, 'push-delay') })],
]);

/** Reads `profile=NAME, drop-after=3, …` (the `X-Sim-Chaos` header and `metadata.chaos`). */
export function parseChaosPairs(text: string): ChaosLevel {
  const level: ChaosLevel = {};
  const settings: RawChaosProfile = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key = '', value] = pair.split(/=(.*)/s).map((s) => s.trim());
    if (key === 'off' || (key === 'profile' && (value === 'off' || value === 'none'))) {
      level.off = true;
    } else if (value === undefined && !HEADER_KEYS.has(key)) {
      level.profile = key; // a bare name: `flaky-mobile, drop-after=3`
    } else if (key === 'profile') {
      if (!value) throw new ChaosSyntaxError('"profile" needs a name, e.g. profile=flaky-mobile');
      level.profile = value;
    } else {
      const apply = HEADER_KEYS.get(key);
      if (!apply) {
        throw new ChaosSyntaxError(
          `unknown key "${key}"; use profile, off, ${[...HEADER_KEYS.keys()].join(', ')}`,
        );
      }
      if (value === undefined || value === '')
        throw new ChaosSyntaxError(`"${key}" needs a value, e.g. ${key}=…`);
      apply(value, settings);
    }
  }
  if (Object.keys(settings).length) level.settings = settings;
  return level;
}

/** Overlays `top` on `base`, section by section and field by field. */
export function overlay(base: RawChaosProfile, top: RawChaosProfile): RawChaosProfile {
  const merged: RawChaosProfile = { ...base };
  for (const key of ['latency', 'drop', 'duplicate', 'errors', 'delivery'] as const) {
    if (top[key]) merged[key] = { ...base[key], ...top[key] } as never;
  }
  if (top.quirks) merged.quirks = top.quirks;
  return merged;
}

/** A profile that does nothing. */
export function isQuiet(profile: RawChaosProfile): boolean {
  const { latency, drop, duplicate, errors, quirks, delivery } = profile;
  return (
    !delivery?.failFirst &&
    !delivery?.duplicate &&
    !delivery?.outOfOrder &&
    !delivery?.delay &&
    !latency?.firstByte &&
    !latency?.perEvent &&
    drop?.afterEvents === undefined &&
    drop?.afterMs === undefined &&
    !drop?.probability &&
    !(duplicate && duplicate.probability !== 0) &&
    !errors &&
    !quirks?.length
  );
}

function integer(value: string, key: string, min = 0): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new ChaosSyntaxError(`"${key}" must be a whole number of ${min} or more, got "${value}"`);
  return n;
}

function probability(value: string, key: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1))
    throw new ChaosSyntaxError(`"${key}" must be a probability from 0 to 1, got "${value}"`);
  return n;
}

function duration(value: string, key: string): number {
  const input = /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  const tooLong = durationLimitError(input);
  if (tooLong) throw new ChaosSyntaxError(`"${key}": ${tooLong}`);
  const ms = parseDuration(input);
  if (ms === undefined)
    throw new ChaosSyntaxError(`"${key}" must be a duration like "500ms", got "${value}"`);
  return ms;
}

function oneOf<T extends string>(value: string, options: readonly T[], key: string): T {
  if (!(options as readonly string[]).includes(value)) {
    throw new ChaosSyntaxError(`"${key}" must be one of ${options.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** The JSON Schema of `*.chaos.yaml` files, for editors (`a2a-sim schema --chaos`). */
export function chaosJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ChaosProfileFile, { unrepresentable: 'any' }),
    $id: 'https://a2a-sim.dev/chaos.schema.json',
  };
}
