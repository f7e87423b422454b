/**
 * Scenario patterns (`text: /.../`, `messageId.regex`, `capture`) run on a linear-time engine and
 * read a bounded prefix of the text: no message can stall the server however it is written. These
 * tests assert what is matched, never how long it takes; the test timeout is only a guard.
 */
import { atLine } from '../helpers/issues.js';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { MATCH_TEXT_LIMIT, Pattern, PatternSyntaxError } from '../../src/scenario/pattern.js';
import { conditionHolds, type MatchInput } from '../../src/scenario/registry.js';

/** What made the native engine backtrack for minutes: the flight scenario's capture, and its keyword. */
const HOSTILE = `Book me a flight ${'from '.repeat(40_000)}`;

async function problems(rule: string): Promise<string[]> {
  const text = ['description: x', 'match:', `  - ${rule}`, 'steps:', '  - status: completed'].join('\n');
  return (await parseScenario('p', 'p.yaml', text)).issues.map(atLine);
}

const input = (text: string, messageId = 'msg-1'): MatchInput => ({ text, messageId, metadata: {} });

describe('Pattern', () => {
  it('answers the pattern that backtracks on the native engine, with the right result', () => {
    const pattern = Pattern.compile('from (.+?) to ([^.,!?]+)', 'i');
    expect(pattern.exec(HOSTILE)).toBeNull();
    expect(pattern.test(HOSTILE)).toBe(false);
    // The destination is past the first 64 Ki characters: not read, so no match.
    expect(pattern.exec(`${HOSTILE} to Rome.`)).toBeNull();
    expect(pattern.exec('Fly FROM Oslo to Rome, please')?.slice(1)).toEqual(['Oslo', 'Rome']);
  });

  it('reads only the first 64 Ki characters of the text', () => {
    const pattern = Pattern.compile('needle');
    const padding = 'x'.repeat(MATCH_TEXT_LIMIT - 'needle'.length);
    expect(pattern.test(`${padding}needle`)).toBe(true);
    expect(pattern.test(`${padding}xneedle`)).toBe(false);
  });

  it.each([
    ['i', 'ABC', true],
    ['', 'ABC', false],
    ['m', 'x\nabc', true],
    ['s', 'a\nc', true],
  ])('applies the flags "%s"', (flags, text, expected) => {
    const source = flags === 'm' ? '^abc$' : flags === 's' ? '^a.c$' : 'abc';
    expect(Pattern.compile(source, flags).test(text)).toBe(expected);
  });

  it('ignores g and y: a match never depends on the previous one', () => {
    const pattern = Pattern.compile('a', 'gy');
    expect([pattern.test('a'), pattern.test('a')]).toEqual([true, true]);
    expect(String(pattern)).toBe('/a/');
  });

  it('reads JavaScript \\u escapes, and leaves an escaped backslash alone', () => {
    expect(Pattern.compile('caf\\u00e9').test('café')).toBe(true);
    expect(Pattern.compile('\\u{1F600}').test('smile 😀')).toBe(true);
    expect(Pattern.compile('\\\\u0041').test('\\u0041')).toBe(true);
  });

  it.each([
    ['a(?=b)', /lookaround/],
    ['(?!x)y', /lookaround/],
    ['(?<=a)b', /lookaround/],
    ['(?<!a)b', /lookaround/],
    ['(a)\\1', /backreference/],
    ['(?<n>a)\\k<n>', /backreference/],
  ])('refuses %s, which has no linear-time implementation', (source, feature) => {
    expect(() => Pattern.compile(source)).toThrow(PatternSyntaxError);
    expect(() => Pattern.compile(source)).toThrow(feature);
    expect(() => Pattern.compile(source)).toThrow(/linear-time engine \(RE2 syntax\)/);
  });

  it('accepts escaped parentheses that only look like lookaround', () => {
    expect(Pattern.compile('\\(?=').test('(=')).toBe(true);
  });

  it('refuses an unknown flag', () => {
    expect(() => Pattern.compile('a', 'x')).toThrow(/invalid flag "x"/);
  });
});

describe('match rules on long messages', () => {
  it('reports a refused pattern at load, with where it is', async () => {
    expect(await problems('text: "/^(?!.*cancel).*book/i"')).toEqual([
      expect.stringMatching(
        /^p\.yaml:3 match\[0\]\.text: invalid regular expression: lookaround .* is not supported/,
      ),
    ]);
    expect(await problems('messageId: { regex: "(a)\\\\1" }')).toEqual([
      expect.stringMatching(
        /^p\.yaml:3 match\[0\]\.messageId\.regex: invalid regular expression: a backreference/,
      ),
    ]);
  });

  it('matches keywords, substrings and patterns on the first 64 Ki characters only', async () => {
    const { scenario } = await parseScenario(
      'p',
      'p.yaml',
      'description: x\nmatch:\n  - keywords: [flight]\n  - text: book me\n  - text: /fl[iy]ght/\nsteps:\n  - status: completed',
    );
    const [keywords, substring, pattern] = scenario!.match;
    const late = `${'x '.repeat(MATCH_TEXT_LIMIT / 2)} book me a flight`;
    for (const rule of [keywords!, substring!, pattern!]) {
      expect(conditionHolds(rule, input(HOSTILE))).toBe(true);
      expect(conditionHolds(rule, input(late))).toBe(false);
    }
  });

  it('matches a messageId pattern on a hostile message id', async () => {
    const { scenario } = await parseScenario(
      'p',
      'p.yaml',
      'description: x\nmatch:\n  - messageId: { regex: "^(a+)+$" }\nsteps:\n  - status: completed',
    );
    const rule = scenario!.match[0]!;
    expect(conditionHolds(rule, input('', `${'a'.repeat(50_000)}!`))).toBe(false);
    expect(conditionHolds(rule, input('', 'aaaa'))).toBe(true);
  });
});
