/**
 * Durations as scenario files write them.
 */
import { describe, expect, it } from 'vitest';
import {
  durationLimitError,
  formatDuration,
  MAX_DURATION_MS,
  parseDuration,
  readDuration,
} from '../../src/lib/duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['2s', 2000],
    ['1.5s', 1500],
    ['1.5m', 90_000],
    ['1h', 3_600_000],
    ['0ms', 0],
    ['  250 ms  ', 250],
    ['0.5ms', 0.5],
  ])('reads %j as %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it('takes a non-negative finite number as milliseconds', () => {
    expect(parseDuration(0)).toBe(0);
    expect(parseDuration(1234.5)).toBe(1234.5);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the number %s', (input) => {
    expect(parseDuration(input)).toBeUndefined();
  });

  it.each(['', '500', 'ms', '-1s', '1d', '1e3ms', '.5s', '1.s', '1 s 2', '2S', '1,5s'])(
    'rejects the string %j',
    (input) => {
      expect(parseDuration(input)).toBeUndefined();
    },
  );

  it.each([null, undefined, true, {}, ['1s']])('rejects the non-duration value %j', (input) => {
    expect(parseDuration(input)).toBeUndefined();
  });

  // Decimal durations are exact in milliseconds: "2.01s" is 2010 ms, not 2009.9999999999998. Otherwise
  // a scenario delay `{ min: 2010ms, max: 2.01s }` is refused as "min is greater than max".
  it.each([
    ['2.01s', 2010],
    ['4.03s', 4030],
    ['4.1m', 246_000],
    ['1.1h', 3_960_000],
  ])('reads the decimal duration %j as exactly %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [999, '999ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [1050, '1050ms'],
    [60_000, '60s'],
    [120_000, '2m'],
    [5_400_000, '90m'],
    [86_400_000, '24h'],
  ])('formats %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([0, 1, 250, 999, 1000, 1500, 1050, 90_000, 3_600_000])(
    'round-trips %d ms through parseDuration',
    (ms) => {
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    },
  );
});

describe('the longest duration', () => {
  it('is what a Node timer can wait: 2^31-1 ms', () => {
    expect(MAX_DURATION_MS).toBe(2_147_483_647);
    expect(parseDuration(MAX_DURATION_MS)).toBe(MAX_DURATION_MS);
    expect(parseDuration('596h')).toBe(2_145_600_000);
  });

  it.each([MAX_DURATION_MS + 1, '597h', '1000h', '35791.4m', '2147484s', '99999999999999999999ms'])(
    'refuses %j, naming the maximum',
    (input) => {
      expect(parseDuration(input)).toBeUndefined();
      const reading = readDuration(input);
      expect(reading).toEqual({ error: expect.stringContaining('longer than the maximum, 2147483647ms') });
      expect(durationLimitError(input)).toBe((reading as { error: string }).error);
    },
  );

  it('tells a malformed duration from a long one', () => {
    expect(readDuration('soon')).toEqual({
      error: 'expected a duration like "500ms", "2s" or a number of milliseconds, got "soon"',
    });
    expect(durationLimitError('soon')).toBeUndefined();
    expect(durationLimitError('1h')).toBeUndefined();
    expect(readDuration('1h')).toEqual({ ms: 3_600_000 });
  });
});
