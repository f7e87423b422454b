/**
 * `{ ...base, ...extra }`, written so that V8 (Node 20) lets the results share a hidden class.
 * A spread followed by properties the base lacks gives every result a hidden class of its own: a
 * few hundred bytes per object, kept as long as the object, and old-space garbage after it. Used
 * where objects are made per request or per event, from the code's own objects only: a `__proto__`
 * key in a client's JSON would become the result's prototype, where a spread keeps it a key.
 */
export function merge<A extends object, B extends object>(base: A, extra: B): A & B {
  return Object.assign({}, base, extra);
}

/** A JSON object (not null, not an array), as read from something received. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `value` if it is an array, else none: a list read leniently from something received. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
