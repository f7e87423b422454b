/** ISO 8601 times, one string per millisecond. */
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/lib/iso-time.js';

describe('isoTime', () => {
  it('writes a clock time as Date does, and the same millisecond as the very same string', () => {
    const times = [0, 1796584627414, 1796584627414, 1796584627415, -1, 1796584627414];
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    const first = isoTime(1796584627416);
    expect(isoTime(1796584627416)).toBe(first);
    expect(isoTime(1796584627417)).not.toBe(first);
  });
});
