import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson } from '../../src/bindings/shared/http.js';

const nested = (depth: number) => `${'['.repeat(depth - 1)}{"a":1}${']'.repeat(depth - 1)}`;

describe('parseJson', () => {
  it(`accepts JSON nested ${MAX_JSON_DEPTH} levels and refuses one level more`, () => {
    expect(parseJson(nested(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseJson(nested(MAX_JSON_DEPTH + 1))).toEqual({
      ok: false,
      error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
  });

  it('accepts many shallow objects and brackets inside strings, however many', () => {
    const wide = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, text: '[{'.repeat(50) })));
    const parsed = parseJson(wide);
    expect(parsed.ok && (parsed.value as unknown[]).length).toBe(500);
  });

  it('reports malformed JSON without throwing, saying what is wrong', () => {
    const parsed = parseJson('{"a":');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/JSON/);
  });

  it('walks a body whose brackets are many but shallow, and still refuses one that is deep', () => {
    const manyShallow = `[${Array.from({ length: 100 }, () => '[]').join(',')}]`;
    expect(parseJson(manyShallow).ok).toBe(true);
    const deepInside = `{"text":"${'['.repeat(100)}","value":${nested(MAX_JSON_DEPTH + 1)}}`;
    expect(parseJson(deepInside).ok).toBe(false);
  });
});
