import { describe, expect, it } from 'vitest';
import { metadataOf, type JsonObject } from '../../src/domain/types.js';

const message = (metadata?: JsonObject) => ({
  role: 'user' as const,
  messageId: 'm',
  parts: [],
  ...(metadata && { metadata }),
});

describe('metadataOf', () => {
  it("puts the message's metadata over the request's, and copies either when alone", () => {
    expect(metadataOf({ message: message(), metadata: { a: 1, b: 1 } })).toEqual({ a: 1, b: 1 });
    expect(metadataOf({ message: message({ b: 2 }) })).toEqual({ b: 2 });
    expect(metadataOf({ message: message({ b: 2 }), metadata: { a: 1, b: 1 } })).toEqual({ a: 1, b: 2 });
    expect(metadataOf({ message: message() })).toEqual({});
    const request = { a: 1 };
    expect(metadataOf({ message: message(), metadata: request })).not.toBe(request);
  });

  it('keeps a __proto__ key a client sent as a key, not as the prototype', () => {
    const sent = JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}') as JsonObject;
    for (const merged of [
      metadataOf({ message: message(sent) }),
      metadataOf({ message: message({ other: 1 }), metadata: sent }),
    ]) {
      expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
      expect(Object.keys(merged)).toContain('__proto__');
      expect((merged as { polluted?: boolean }).polluted).toBeUndefined();
    }
  });
});
