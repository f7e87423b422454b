/**
 * How flag values are read: from what was typed (yargs' own number type turns `abc` into NaN, and
 * the message would then say "got NaN"), each mistake refused with the flag's name and what was
 * given. Defaults arrive already parsed.
 */
import type { OptionRow } from '../config/row.js';
import { INSTANT_HINT, readInstant } from '../lib/content-time.js';
import { parseBytes } from '../lib/bytes.js';
import { durationLimitError, readDuration } from '../lib/duration.js';

export interface NumberRule {
  integer?: boolean;
  min?: number;
  max?: number;
}

export function numberValue(flag: string, rule: NumberRule): (value: unknown) => number {
  return (value) => {
    const raw = String(lastOf(value)).trim();
    const n = raw === '' ? NaN : Number(raw);
    const fits =
      Number.isFinite(n) &&
      (!rule.integer || Number.isInteger(n)) &&
      (rule.min === undefined || n >= rule.min) &&
      (rule.max === undefined || n <= rule.max);
    if (fits) return n;
    const kind = rule.integer ? 'a whole number' : 'a number';
    const range =
      rule.max !== undefined
        ? ` from ${rule.min} to ${rule.max}`
        : rule.min !== undefined
          ? ` of ${rule.min} or more`
          : '';
    throw new Error(`${flag} must be ${kind}${range}, got "${raw}"`);
  };
}

/** `512KiB`, `4MiB` or a number of bytes. */
export function sizeValue(flag: string): (value: unknown) => number {
  return (value) => {
    const bytes = parseBytes(lastOf(value));
    if (bytes === undefined || bytes < 1) {
      throw new Error(
        `${flag} must be a size like "512KiB", "4MiB" or a number of bytes, got "${String(lastOf(value))}"`,
      );
    }
    return bytes;
  };
}

/** An ISO 8601 date and time, `2030-01-01T09:00:00Z`: epoch milliseconds. */
export function instantValue(flag: string): (value: unknown) => number {
  return (value) => {
    const raw = String(lastOf(value));
    const ms = readInstant(raw);
    if (ms === undefined) throw new Error(`${flag} must be ${INSTANT_HINT}, got "${raw}"`);
    return ms;
  };
}

/** `500ms`, `15s`, `24h`, or milliseconds as a plain number: every duration flag takes all of them. */
export function durationValue(flag: string, rule: { min?: number } = {}): (value: unknown) => number {
  return (value) => {
    const given = lastOf(value);
    const raw = typeof given === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(given) ? Number(given) : given;
    const reading = readDuration(raw);
    if ('ms' in reading) {
      if (rule.min !== undefined && reading.ms < rule.min) {
        throw new Error(`${flag} must be at least ${rule.min}ms, got "${String(given)}"`);
      }
      return reading.ms;
    }
    const tooLong = durationLimitError(raw);
    if (tooLong) throw new Error(`${flag}: ${tooLong}`);
    throw new Error(`${flag} must be a duration like "500ms", "10m" or "24h", got "${String(given)}"`);
  };
}

/** `["k1", "k2=ws-1,ws-2"]` → `{ k1: ["*"], k2: ["ws-1", "ws-2"] }`: no workspaces means any. */
export function apiKeysValue(values: string[]): Record<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const value of values) {
    const [key = '', workspaces] = value.split(/=(.*)/s);
    const allowed = workspaces === undefined ? ['*'] : workspaces.split(',').filter(Boolean);
    if (!key || !allowed.length) {
      throw new Error(`--api-keys must look like KEY or KEY=WS1,WS2, got "${value}"`);
    }
    keys.set(key, [...(keys.get(key) ?? []), ...allowed]);
  }
  return Object.fromEntries(keys);
}

/** A repeatable flag's values (yargs gives them as a list). */
function listOf(value: unknown): string[] {
  return [value].flat().map(String);
}

/** A flag given twice counts once, the last time, as yargs does for its own types. */
function lastOf(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** `Name: value` pairs, as curl's `-H` takes them. */
export function headerValues(flag: string): (values: string[]) => Record<string, string> {
  return (values) => {
    const headers: Record<string, string> = {};
    for (const value of values) {
      const colon = value.indexOf(':');
      const name = value.slice(0, colon).trim();
      if (colon < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        throw new Error(`${flag} expects "Name: value", got ${JSON.stringify(value)}`);
      }
      headers[name.toLowerCase()] = value.slice(colon + 1).trim();
    }
    return headers;
  };
}

/** How a row's value is read from what was typed; none for strings and booleans, which yargs reads. */
export function parserOf(row: OptionRow): ((value: unknown) => unknown) | undefined {
  const flag = `--${row.flag}`;
  switch (row.type) {
    case 'number':
      return numberValue(flag, { integer: row.integer, min: row.min, max: row.max });
    case 'duration':
      return durationValue(flag, { min: row.min });
    case 'size':
      return sizeValue(flag);
    case 'instant':
      return instantValue(flag);
    case 'api-keys':
      return (value) => apiKeysValue(listOf(value));
    case 'headers':
      return (value) => headerValues(flag)(listOf(value));
    case 'string':
    case 'boolean':
      return undefined;
  }
}
