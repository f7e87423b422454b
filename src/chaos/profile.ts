/**
 * Chaos profiles: how the wire misbehaves. A profile is written in a `*.chaos.yaml` file (its name
 * is the file name), or as `key=value` pairs (`pairs.ts`), one per field, in a scenario's `chaos:`,
 * the `X-Sim-Chaos` header or `metadata.chaos`. Levels overlay field by field, the request's
 * winning: header, then message metadata, then the scenario's, then the global `--chaos`.
 *
 * @example drop: { afterEvents: 3, mode: reset }   # X-Sim-Chaos: drop-after-events=3, drop-mode=reset
 */
import * as z from 'zod';
import { CARD_SIGNATURE_FAULTS } from '../domain/card-signature.js';
import { Delay, Duration } from '../lib/delay.js';

export const DROP_MODES = ['fin', 'reset', 'hang'] as const;
export type DropMode = (typeof DROP_MODES)[number];

export const CALL_ERRORS = ['503', '429', '500', 'rpc-internal', 'empty', 'reset'] as const;
export type CallError = (typeof CALL_ERRORS)[number];

export const QUIRKS = [
  'unknown-state',
  'late-status',
  'final-snapshot',
  'keep-alive-flood',
  'skip-generation',
] as const;
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
          description: 'Before each stream event (order is kept).',
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
        resumeWithin: Duration.optional().meta({
          description:
            'A resume later than this after the cut is refused once as expired (EVENTS_EXPIRED), with a cursor or without.',
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
          .meta({ description: "Fail exactly each client's Nth call (1 is its first)." }),
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
    card: z
      .strictObject({
        signature: z.enum(CARD_SIGNATURE_FAULTS).optional().meta({
          description:
            'Spoil the signature of the cards served (with --card-signing-key): invalid (the card changed after signing), missing (no signatures), wrong-key (signed by a key the JWKS does not hold).',
        }),
      })
      .optional()
      .meta({ description: 'The agent cards served (§8.4 signatures).' }),
  })
  .meta({
    title: 'a2a-sim chaos profile',
    description:
      'How the wire misbehaves; the file name is the profile name. As an X-Sim-Chaos pair, a field is its path in kebab case: latency.firstByte is latency-first-byte=800ms.',
  });

export type RawChaosProfile = z.infer<typeof ChaosProfileFile>;

/** What a level says: a named profile to start from, its own settings, or "no chaos at all". */
export interface ChaosLevel {
  profile?: string;
  settings?: RawChaosProfile;
  off?: boolean;
}

/** What a profile field holds, as far as writing it as text goes. */
export type FieldValue =
  | { kind: 'delay' | 'duration' | 'probability' }
  | { kind: 'count'; min: number }
  | { kind: 'choice' | 'list'; options: readonly string[] };

/** A setting of a profile: its path (`['latency', 'firstByte']`, `['quirks']`) and what it holds. */
export interface ProfileField {
  path: readonly string[];
  value: FieldValue;
}

/** Fields of a profile file that are not chaos settings. */
const NOT_SETTINGS: ReadonlySet<string> = new Set(['$schema', 'description']);

/**
 * Every setting of a profile, read off the schema, so that a field added to the schema is a
 * setting everywhere (a pair key, for one) with nothing else to edit.
 */
export const PROFILE_FIELDS: readonly ProfileField[] = Object.entries(ChaosProfileFile.shape).flatMap(
  ([name, schema]) => {
    if (NOT_SETTINGS.has(name)) return [];
    const section = unwrap(schema);
    if (!(section instanceof z.ZodObject)) return [{ path: [name], value: valueOf(section, name) }];
    return Object.entries(section.shape).map(([field, leaf]) => ({
      path: [name, field],
      value: valueOf(unwrap(leaf), `${name}.${field}`),
    }));
  },
);

function unwrap(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}

function valueOf(schema: z.ZodType, path: string): FieldValue {
  if (schema === Delay) return { kind: 'delay' };
  if (schema === Duration) return { kind: 'duration' };
  if (schema === Probability) return { kind: 'probability' };
  if (schema instanceof z.ZodNumber && schema.isInt) return { kind: 'count', min: schema.minValue ?? 0 };
  if (schema instanceof z.ZodEnum) return { kind: 'choice', options: schema.options.map(String) };
  if (schema instanceof z.ZodArray && schema.element instanceof z.ZodEnum)
    return { kind: 'list', options: schema.element.options.map(String) };
  // Loading fails at once, so a new kind of field cannot ship without a way to write it as text.
  throw new Error(`chaos profile field ${path}: no text form for this kind of value`);
}

/** Overlays `top` on `base`, section by section and field by field. */
export function overlay(base: RawChaosProfile, top: RawChaosProfile): RawChaosProfile {
  const merged: RawChaosProfile = { ...base };
  for (const key of ['latency', 'drop', 'duplicate', 'errors', 'delivery', 'card'] as const) {
    if (top[key]) merged[key] = { ...base[key], ...top[key] } as never;
  }
  if (top.quirks) merged.quirks = top.quirks;
  return merged;
}

/** A profile that does nothing. */
export function isQuiet(profile: RawChaosProfile): boolean {
  const { latency, drop, duplicate, errors, quirks, delivery, card } = profile;
  return (
    !card?.signature &&
    !delivery?.failFirst &&
    !delivery?.duplicate &&
    !delivery?.outOfOrder &&
    !delivery?.delay &&
    !latency?.firstByte &&
    !latency?.perEvent &&
    drop?.afterEvents === undefined &&
    drop?.afterMs === undefined &&
    drop?.resumeWithin === undefined &&
    !drop?.probability &&
    !(duplicate && duplicate.probability !== 0) &&
    !errors &&
    !quirks?.length
  );
}

/** The JSON Schema of `*.chaos.yaml` files, for editors (`a2a-sim schema --chaos`). */
export function chaosJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ChaosProfileFile, { unrepresentable: 'any' }),
    $id: 'https://a2a-sim.dev/chaos.schema.json',
  };
}
