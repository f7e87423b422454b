/**
 * Delays as every file writes them and every layer draws them: a fixed duration, or a seeded draw
 * from a distribution. The file shapes (zod, for scenario files and chaos profiles alike), the
 * compiled {@link DelaySpec}, and {@link sampleDelay}, which the engine, chaos and push all use.
 */
import * as z from 'zod';
import { durationLimitError, MAX_DURATION_MS, parseDuration } from './duration.js';
import type { Random } from './random.js';

const DURATION_HINT = 'expected a duration like "500ms", "2s" or a number of milliseconds';

export const Duration = z
  .union([
    z.number({ error: DURATION_HINT }).nonnegative({ error: DURATION_HINT }),
    z.string({ error: DURATION_HINT }).regex(/^\s*\d+(\.\d+)?\s*(ms|s|m|h)\s*$/, { error: DURATION_HINT }),
  ])
  .superRefine((value, ctx) => {
    const tooLong = durationLimitError(value);
    if (tooLong) ctx.addIssue({ code: 'custom', message: tooLong });
  })
  .meta({
    id: 'Duration',
    description: 'A duration: "500ms", "2s", "1.5m", "1h", or milliseconds as a number.',
  });

const DelayDistribution = z
  .strictObject({
    distribution: z.enum(['uniform', 'normal', 'exponential']).optional().meta({
      description: 'Inferred when omitted: min+max → uniform, mean+stddev → normal, mean → exponential.',
    }),
    min: Duration.optional().meta({ description: 'Lower bound (uniform), or a floor for the other shapes.' }),
    max: Duration.optional().meta({
      description: 'Upper bound (uniform), or a ceiling for the other shapes.',
    }),
    mean: Duration.optional(),
    stddev: Duration.optional(),
  })
  .superRefine((d, ctx) => {
    const shape =
      d.distribution ??
      (d.mean === undefined ? 'uniform' : d.stddev === undefined ? 'exponential' : 'normal');
    const needs: Record<typeof shape, (keyof typeof d)[]> = {
      uniform: ['min', 'max'],
      normal: ['mean', 'stddev'],
      exponential: ['mean'],
    };
    for (const key of needs[shape]) {
      if (d[key] === undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `a ${shape} delay needs "${key}"` });
    }
  });

export const Delay = z.union([Duration, DelayDistribution]).meta({
  id: 'Delay',
  description:
    'A fixed duration, or a seeded draw: {min, max}, {mean, stddev} or {mean, distribution: exponential}.',
});

export type RawDelay = z.infer<typeof Delay>;

export type DelaySpec =
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'normal'; mean: number; stddev: number; min: number; max: number }
  | { kind: 'exponential'; mean: number; min: number; max: number };

export const NO_DELAY: DelaySpec = Object.freeze({ kind: 'fixed', ms: 0 });

/** A schema-valid delay, compiled for drawing. */
export function delaySpec(raw: RawDelay | undefined): DelaySpec {
  if (raw === undefined) return NO_DELAY;
  if (typeof raw === 'number' || typeof raw === 'string') return { kind: 'fixed', ms: parseDuration(raw)! };
  const ms = (d: RawDelay | undefined) => (d === undefined ? undefined : parseDuration(d));
  const [min, max, mean, stddev] = [ms(raw.min), ms(raw.max), ms(raw.mean), ms(raw.stddev)];
  const shape =
    raw.distribution ?? (mean === undefined ? 'uniform' : stddev === undefined ? 'exponential' : 'normal');
  switch (shape) {
    case 'uniform':
      return { kind: 'uniform', min: min ?? 0, max: max ?? 0 };
    case 'normal':
      return { kind: 'normal', mean: mean ?? 0, stddev: stddev ?? 0, min: min ?? 0, max: max ?? Infinity };
    case 'exponential':
      return { kind: 'exponential', mean: mean ?? 0, min: min ?? 0, max: max ?? Infinity };
  }
}

/**
 * A delay in milliseconds, drawn from `random` when the spec is a distribution. A draw is capped at
 * MAX_DURATION_MS: a normal or exponential delay without `max` has no upper bound.
 */
export function sampleDelay(spec: DelaySpec, random: Random): number {
  switch (spec.kind) {
    case 'fixed':
      return Math.min(spec.ms, MAX_DURATION_MS);
    case 'uniform':
      return Math.round(clamp(random.between(spec.min, spec.max), 0, MAX_DURATION_MS));
    case 'normal':
      return Math.round(
        clamp(random.normal(spec.mean, spec.stddev), spec.min, Math.min(spec.max, MAX_DURATION_MS)),
      );
    case 'exponential':
      return Math.round(clamp(random.exponential(spec.mean), spec.min, Math.min(spec.max, MAX_DURATION_MS)));
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
