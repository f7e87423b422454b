/** Media type negotiation: modes with wildcards against concrete types, and choosing a variant. */
import { describe, expect, it } from 'vitest';
import { chooseVariant, mediaTypeMatches } from '../../src/domain/media-type.js';

describe('mediaTypeMatches', () => {
  it.each([
    ['text/plain', 'text/plain', true],
    ['TEXT/Plain', 'text/plain; charset=utf-8', true],
    ['image/*', 'image/png', true],
    ['image/*', 'imagery/png', false],
    ['*/*', 'application/pdf', true],
    ['*', 'application/pdf', true],
    ['text', 'text/markdown', true],
    ['text', 'texts/plain', false],
    ['application/json', 'text/plain', false],
  ])('%s accepts %s: %s', (mode, type, expected) => {
    expect(mediaTypeMatches(mode, type)).toBe(expected);
  });
});

describe('chooseVariant', () => {
  const variants = [
    { mediaType: 'application/json' },
    { mediaType: 'text/plain' },
    { mediaType: 'text/html' },
  ];

  it('takes the first variant when the client names no modes', () => {
    expect(chooseVariant(variants, undefined)).toBe(variants[0]);
    expect(chooseVariant(variants, [])).toBe(variants[0]);
  });

  it("takes the first variant, in the scenario's order, that any mode accepts", () => {
    expect(chooseVariant(variants, ['text/*'])).toBe(variants[1]);
    expect(chooseVariant(variants, ['text/html', 'application/json'])).toBe(variants[0]);
  });

  it('finds none when no mode accepts any variant, and lets a variant without a type suit anyone', () => {
    expect(chooseVariant(variants, ['image/png'])).toBeUndefined();
    expect(chooseVariant([{}], ['image/png'])).toEqual({});
  });
});
