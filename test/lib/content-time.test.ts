/** What templates see as now: the clock's day, or a pinned start time moved on by whole days. */
import { describe, expect, it } from 'vitest';
import { contentTimeOf, DAY_MS } from '../../src/lib/content-time.js';

const at = (iso: string) => Date.parse(iso);

describe('contentTimeOf', () => {
  it('without a start time, is midnight UTC of the clock’s day, whatever the hour', () => {
    const contentTime = contentTimeOf({ startedAt: at('2026-12-01T15:04:05.678Z') });
    for (const time of ['2026-12-01T00:00:00.000Z', '2026-12-01T15:04:05.678Z', '2026-12-01T23:59:59.999Z']) {
      expect(new Date(contentTime(at(time))).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    }
    expect(new Date(contentTime(at('2026-12-02T00:00:00.000Z'))).toISOString()).toBe(
      '2026-12-02T00:00:00.000Z',
    );
    expect(new Date(contentTime(at('1969-12-31T12:00:00.000Z'))).toISOString()).toBe(
      '1969-12-31T00:00:00.000Z',
    );
  });

  it('with a start time, is that time until a whole day of clock time has passed, then a day later', () => {
    const startedAt = at('2026-12-01T15:04:05.678Z');
    const contentTime = contentTimeOf({ startTime: at('2030-01-01T09:00:00Z'), startedAt });
    expect(new Date(contentTime(startedAt)).toISOString()).toBe('2030-01-01T09:00:00.000Z');
    expect(new Date(contentTime(startedAt + DAY_MS - 1)).toISOString()).toBe('2030-01-01T09:00:00.000Z');
    expect(new Date(contentTime(startedAt + DAY_MS)).toISOString()).toBe('2030-01-02T09:00:00.000Z');
  });
});
