/**
 * The JSON Canonicalization Scheme (RFC 8785): the one byte sequence a JSON value signs as, so that
 * a signer and a verifier on different JSON libraries agree (A2A §8.4.1). Objects with their keys
 * sorted by UTF-16 code units, numbers as ECMAScript writes them, strings with the minimal escapes,
 * no whitespace.
 */

export class CanonicalJsonError extends Error {}

/**
 * The canonical JSON text of `value`.
 * @example canonicalJson({ b: [1e30, 4.5], a: '€' }) // '{"a":"€","b":[1e+30,4.5]}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return canonicalNumber(value);
    case 'string':
      return canonicalString(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const object = value as Record<string, unknown>;
      // Members whose value JSON cannot hold are absent, as JSON.stringify leaves them out.
      const keys = Object.keys(object)
        .filter((key) => object[key] !== undefined)
        .sort(compareCodeUnits);
      return `{${keys.map((key) => `${canonicalString(key)}:${canonicalJson(object[key])}`).join(',')}}`;
    }
    default:
      throw new CanonicalJsonError(`Failed to canonicalize: a ${typeof value} is not JSON.`);
  }
}

/**
 * §3.2.2.3: the ECMAScript Number-to-String algorithm, which is JavaScript's own; -0 is `0`, and
 * NaN and the infinities have no JSON form.
 */
function canonicalNumber(n: number): string {
  if (!Number.isFinite(n)) throw new CanonicalJsonError(`Failed to canonicalize: ${n} is not a JSON number.`);
  return Object.is(n, -0) ? '0' : String(n);
}

/** The two-character escapes of §3.2.2.2; every other control character is `\u00xx`, lowercase. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** §3.2.2.2: only `"`, `\` and the controls below U+0020 are escaped; a lone surrogate is not I-JSON. */
function canonicalString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = s.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw loneSurrogate(i);
      out += c + s[i + 1]!;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      throw loneSurrogate(i);
    } else if (SHORT_ESCAPES[c] !== undefined) {
      out += SHORT_ESCAPES[c];
    } else if (code < 0x20) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      out += c;
    }
  }
  return `${out}"`;
}

function loneSurrogate(at: number): CanonicalJsonError {
  return new CanonicalJsonError(`Failed to canonicalize: a lone surrogate at index ${at} is not I-JSON.`);
}

/** §3.2.3: by UTF-16 code units, which is what comparing JavaScript strings does. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
