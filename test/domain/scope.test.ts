/** Scopes: one key per place, the same keys as ever for ordinary names, never shared by two places. */
import { describe, expect, it } from 'vitest';
import { placeOf, ROOT_SCOPE, scopeOf } from '../../src/domain/scope.js';

describe('scopeOf', () => {
  it('keys the root, a tenant, an agent and a gateway workspace as task seeds always read them', () => {
    expect(ROOT_SCOPE.key).toBe('');
    expect(scopeOf({ tenant: 'acme' }).key).toBe('tenant:acme');
    expect(scopeOf({ agent: 'explore', tenant: 'acme' }).key).toBe('agent:explore|tenant:acme');
    expect(scopeOf({ agent: 'explore', workspace: 'ws-1' }).key).toBe('agent:explore|workspace:ws-1');
  });

  it('never gives two places one key, whatever their names hold', () => {
    const places = [
      { tenant: 'a|tenant:b' },
      { tenant: 'a', workspace: 'b' },
      { agent: 'x', tenant: 'y' },
      { agent: 'x|tenant:y' },
      { tenant: 'a\\' },
      { tenant: 'a\\|' },
    ];
    const keys = places.map((p) => scopeOf(p).key);
    expect(new Set(keys).size).toBe(places.length);
  });

  it('gives back its parts without the key', () => {
    expect(placeOf(scopeOf({ agent: 'explore', workspace: 'ws-1' }))).toEqual({
      agent: 'explore',
      workspace: 'ws-1',
    });
    expect(placeOf(ROOT_SCOPE)).toEqual({});
  });
});
