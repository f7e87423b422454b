/**
 * Reads untrusted JSON field by field, collecting every violation with its path, so a client hears
 * about all its mistakes at once (`google.rpc.BadRequest`), not the first one.
 * Accepts snake_case spellings of camelCase fields, as ProtoJSON parsers must.
 */
import { excerpt } from '../../lib/excerpt.js';
import { invalidParams, type FieldViolation } from '../../domain/errors.js';
import type { JsonObject } from '../../domain/types.js';

export class WireReader {
  readonly violations: FieldViolation[] = [];

  fail(field: string, description: string): undefined {
    this.violations.push({ field, description });
    return undefined;
  }

  /** Throws InvalidParamsError listing every violation, if any. */
  check(): void {
    if (this.violations.length) throw invalidParams(this.violations);
  }

  object(value: unknown, path: string): Record<string, unknown> | undefined {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
    return this.fail(path, `expected an object, got ${describe(value)}`);
  }

  /** A string field; ProtoJSON's default `""` reads as absent. */
  string(obj: Record<string, unknown>, key: string, path: string, required = false): string | undefined {
    const value = field(obj, key);
    if (value === undefined || value === null || value === '') {
      return required ? this.fail(join(path, key), 'is required') : undefined;
    }
    if (typeof value !== 'string')
      return this.fail(join(path, key), `expected a string, got ${describe(value)}`);
    return value;
  }

  /** An int32 field; ProtoJSON also allows numbers written as strings. */
  integer(obj: Record<string, unknown>, key: string, path: string): number | undefined {
    const value = field(obj, key);
    if (value === undefined || value === null) return undefined;
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) {
      return this.fail(join(path, key), `expected an integer, got ${describe(value)}`);
    }
    return n;
  }

  boolean(obj: Record<string, unknown>, key: string, path: string): boolean | undefined {
    const value = field(obj, key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean')
      return this.fail(join(path, key), `expected true or false, got ${describe(value)}`);
    return value;
  }

  stringList(obj: Record<string, unknown>, key: string, path: string): string[] | undefined {
    const value = field(obj, key);
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      return this.fail(join(path, key), 'expected a list of strings');
    }
    return value.length ? (value as string[]) : undefined;
  }

  /** A `google.protobuf.Struct`: any JSON object. */
  struct(obj: Record<string, unknown>, key: string, path: string): JsonObject | undefined {
    const value = field(obj, key);
    if (value === undefined || value === null) return undefined;
    return this.object(value, join(path, key)) as JsonObject | undefined;
  }

  /** A value from a closed set, by name or by number (ProtoJSON enums). */
  enumValue<T>(
    obj: Record<string, unknown>,
    key: string,
    path: string,
    table: ReadonlyMap<string | number, T>,
  ): T | undefined {
    const value = field(obj, key);
    if (value === undefined || value === null) return undefined;
    const found = typeof value === 'string' || typeof value === 'number' ? table.get(value) : undefined;
    if (found === undefined) {
      const names = [...table.keys()].filter((k) => typeof k === 'string').join(', ');
      return this.fail(join(path, key), `expected one of ${names}, got ${describe(value)}`);
    }
    return found;
  }
}

/** Base64, standard or URL-safe alphabet, padding optional. */
export const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** `obj[key]`, or its snake_case spelling. */
export function field(obj: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(obj, key)) return obj[key];
  const snake = snakeCase(key);
  return snake !== key && Object.hasOwn(obj, snake) ? obj[snake] : undefined;
}

/** Most optional fields are absent from most requests: each looks for its snake_case twin. */
const SNAKE_CASE = new Map<string, string>();
function snakeCase(key: string): string {
  let snake = SNAKE_CASE.get(key);
  if (snake === undefined) {
    snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    // The keys are the reader's own field names, a fixed set; the bound only guards a mistake.
    if (SNAKE_CASE.size < 1024) SNAKE_CASE.set(key, snake);
  }
  return snake;
}

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(excerpt(value, 40));
  if (typeof value === 'object') return 'an object';
  return String(value);
}
