/** sampleDelay never draws a delay longer than a timer can wait, whatever the distribution. */
import { describe, expect, it } from 'vitest';
import { sampleDelay, type DelaySpec } from '../../src/lib/delay.js';
import { MAX_DURATION_MS } from '../../src/lib/duration.js';
import { Random } from '../../src/lib/random.js';

const SPECS: [string, DelaySpec][] = [
  [
    'normal, no max',
    { kind: 'normal', mean: MAX_DURATION_MS, stddev: MAX_DURATION_MS, min: 0, max: Infinity },
  ],
  ['exponential, no max', { kind: 'exponential', mean: MAX_DURATION_MS, min: 0, max: Infinity }],
  ['uniform up to the max', { kind: 'uniform', min: 0, max: MAX_DURATION_MS }],
  ['fixed past the max', { kind: 'fixed', ms: MAX_DURATION_MS * 4 }],
];

describe('sampleDelay', () => {
  it.each(SPECS)('caps a %s draw at MAX_DURATION_MS', (_name, spec) => {
    const random = new Random('cap');
    const draws = Array.from({ length: 500 }, () => sampleDelay(spec, random));
    expect(Math.max(...draws)).toBeLessThanOrEqual(MAX_DURATION_MS);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(draws.every(Number.isFinite)).toBe(true);
  });

  it('leaves delays under the cap as they were drawn', () => {
    const spec: DelaySpec = { kind: 'normal', mean: 1000, stddev: 100, min: 0, max: Infinity };
    const [a, b] = [new Random('same'), new Random('same')];
    for (let i = 0; i < 100; i++) {
      expect(sampleDelay(spec, a)).toBe(Math.round(Math.max(0, b.normal(1000, 100))));
    }
  });
});
