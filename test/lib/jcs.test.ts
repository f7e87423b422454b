/** RFC 8785 canonical JSON, checked against the RFC's own examples (§3.2.2, §3.2.3, Appendix B). */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/jcs.js';

describe('canonicalJson (RFC 8785)', () => {
  it('writes the §3.2.2 example as the RFC does', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, as in §3.2.3', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",' +
        ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",' +
        ' "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    // Read off the text: an object would put the integer-like key "1" first whatever the order.
    const values = [...canonicalJson(input).matchAll(/":"([^"]+)"/g)].map((m) => m[1]);
    expect(values).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [9007199254740992, '9007199254740992'],
    [1e23, '1e+23'],
    [0.000001, '0.000001'],
    [9.999999999999997e-7, '9.999999999999997e-7'],
    [333333333.3333332, '333333333.3333332'],
    [295147905179352830000, '295147905179352830000'],
    [1e21, '1e+21'],
  ])('writes the number %d as %s (Appendix B)', (n, text) => {
    expect(canonicalJson(n)).toBe(text);
  });

  it('refuses what has no canonical form: NaN, infinities, lone surrogates', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/not a JSON number/);
    expect(() => canonicalJson(Number.POSITIVE_INFINITY)).toThrow(/not a JSON number/);
    expect(() => canonicalJson('\ud800x')).toThrow(/lone surrogate/);
  });

  it('has no whitespace, and leaves out undefined members as JSON.stringify does', () => {
    expect(canonicalJson({ b: [1, { d: undefined, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x"}]}');
  });
});
