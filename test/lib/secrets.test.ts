/** Credentials compared in constant time: the answers must be those of plain string equality. */
import { describe, expect, it } from 'vitest';
import { findSecret, sameSecret } from '../../src/lib/secrets.js';

describe('sameSecret', () => {
  it.each([
    ['s3cret', 's3cret', true],
    ['s3cret', 's3cre', false],
    ['s3cret', 's3cret ', false],
    ['', '', true],
    ['', 'x', false],
    ['ü', 'u\u0308', false],
    ['x'.repeat(10_000), 'x'.repeat(10_000), true],
  ])('%j vs %j → %s', (presented, secret, equal) => {
    expect(sameSecret(presented, secret)).toBe(equal);
  });
});

describe('findSecret', () => {
  const keys = ['key-a', 'key-b', '__proto__'];

  it('finds the secret presented, wherever it is in the list', () => {
    expect(findSecret('key-a', keys)).toBe('key-a');
    expect(findSecret('key-b', keys)).toBe('key-b');
    expect(findSecret('__proto__', keys)).toBe('__proto__');
  });

  it.each(['key-c', 'key', 'constructor', 'toString', ''])('finds nothing for %j', (presented) => {
    expect(findSecret(presented, keys)).toBeUndefined();
  });
});
