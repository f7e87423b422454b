/** What templates see as now: the clock's day, or a pinned start time moved on by whole days. */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { contentTimeOf, DAY_MS, readInstant } from '../../src/lib/content-time.js';

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

describe('readInstant', () => {
  it('reads an ISO 8601 date and time, a Date or milliseconds, and nothing else', () => {
    const ms = Date.parse('2030-01-01T09:00:00Z');
    expect(readInstant('2030-01-01T09:00:00Z')).toBe(ms);
    expect(readInstant(new Date(ms))).toBe(ms);
    expect(readInstant(ms)).toBe(ms);
    for (const wrong of ['tomorrow', '1', '2030-13-45T00:00:00Z', Number.NaN, null]) {
      expect(readInstant(wrong)).toBeUndefined();
    }
  });
});

describe('createSimulator({ startTime })', () => {
  it('refuses a start time it cannot read, before starting', async () => {
    await expect(createSimulator({ port: 0, logLevel: 'silent', startTime: '1' })).rejects.toThrow(
      'startTime must be a date and time like "2030-01-01T09:00:00Z", got "1"',
    );
  });
});
