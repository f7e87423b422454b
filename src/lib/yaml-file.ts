/**
 * The machinery every authored file shares (scenarios, agents): parse YAML or JSON keeping line
 * numbers, validate with a zod schema, and report each problem as `file:line path: message`, e.g.
 * `scenarios/flight-booking.yaml:14 steps[2].after: expected a duration like "500ms"`.
 * Problems are returned, never thrown: one bad file must not stop the others.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { toJSONSchema, type z } from 'zod';
import { closestName } from './spelling.js';

export type IssuePath = (string | number)[];

export interface FileIssue {
  file: string;
  line?: number;
  /** 1-based, where the key (or the value) the problem is about begins. */
  column?: number;
  path: string;
  message: string;
}

/** Places a problem found at `path` of the document on its line. */
export type IssueAt = (path: IssuePath, message: string) => FileIssue;

export function formatIssue(issue: FileIssue): string {
  const where =
    issue.line === undefined
      ? issue.file
      : `${issue.file}:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
  return issue.path ? `${where} ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`;
}

/** `['steps', 2, 'after']` → `steps[2].after`. */
export function formatPath(path: IssuePath): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${key}` : key),
    '',
  );
}

/** Relative to the working directory when the file lies below it, as people typed it. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** The file's text, or the issue explaining why it cannot be read. */
export async function readSource(file: string): Promise<{ text: string } | { issue: FileIssue }> {
  try {
    return { text: await readFile(file, 'utf8') };
  } catch (error) {
    return {
      issue: {
        file: displayPath(file),
        path: '',
        message: `cannot read the file: ${(error as Error).message}`,
      },
    };
  }
}

/**
 * Parses `text` (YAML, so JSON too) and validates it with `schema`. On success, `at` places the
 * problems later checks find on their lines. `file` is only used in messages.
 */
export function parseWithSchema<S extends z.ZodType>(
  file: string,
  text: string,
  schema: S,
):
  | { value: z.output<S>; at: IssueAt }
  /** `input` and `at` when the text parsed but did not validate: later checks can still look at it. */
  | { issues: FileIssue[]; input?: unknown; at?: IssueAt } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      issues: doc.errors.map((e) => {
        // An error found at the end of a line is about what the next line holds.
        const { line, col } = lines.linePos(firstNonSpace(text, e.pos[0]));
        return { file, line, column: col, path: '', message: `syntax error: ${e.message.split('\n')[0]}` };
      }),
    };
  }
  const at: IssueAt = (issuePath, message) => ({
    file,
    ...positionOf(doc, lines, issuePath),
    path: formatPath(issuePath),
    message,
  });
  const input: unknown = doc.toJS();
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const known = keysOf(schema);
    return {
      issues: parsed.error.issues
        .flatMap((i) => explain(i, [], input, known))
        .map((i) => at(i.path, i.message)),
      input,
      at,
    };
  }
  return { value: parsed.data, at };
}

type ZodIssue = z.core.$ZodIssue;

/**
 * Turns zod issues into messages an author can act on. A union (a step, a part, a delay) reports
 * the problems of the alternative the author evidently meant, the one whose distinguishing key is
 * present; when none is, it lists the keys that would select one.
 */
function explain(
  issue: ZodIssue,
  base: IssuePath,
  input: unknown,
  known: readonly string[],
): { path: IssuePath; message: string }[] {
  const at = [...base, ...(issue.path as IssuePath)];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: [...at, key],
      message: `unknown key "${key}"${didYouMean(key, known)}`,
    }));
  }
  // zod's own wording, not a schema's message of its own (an error type's, say).
  if (issue.code === 'invalid_value' && /^Invalid (option|input): expected/.test(issue.message)) {
    return [{ path: at, message: notAllowed(valueAt(input, at), issue.values) }];
  }
  if (issue.code !== 'invalid_union') {
    return [{ path: at, message: issue.message.replace(/^Invalid input: /, '') }];
  }
  // Whether a key is missing is read from the input itself: zod words that differently per schema.
  const value = valueAt(input, at);
  const isMissingKey = (i: ZodIssue) =>
    i.path.length === 1 && isObject(value) && !Object.hasOwn(value, i.path[0] as PropertyKey);
  const isWrongType = (i: ZodIssue) => i.path.length === 0 && i.code === 'invalid_type';
  const candidates = issue.errors.filter((alt) => !alt.some((i) => isMissingKey(i) || isWrongType(i)));
  if (candidates.length) {
    const best = candidates.reduce((a, b) => (b.length < a.length ? b : a));
    return best.flatMap((i) => explain(i, at, input, known));
  }
  const keys = [
    ...new Set(issue.errors.flatMap((alt) => alt.filter(isMissingKey).map((i) => String(i.path[0])))),
  ];
  const types = [
    ...new Set(issue.errors.flatMap((alt) => alt.filter(isWrongType).map((i) => expectedType(i)))),
  ];
  const sameMessage = new Set(issue.errors.flat().map((i) => i.message));
  if (!keys.length && sameMessage.size === 1) return [{ path: at, message: [...sameMessage][0]! }];
  const options = [...keys.map((k) => `"${k}"`), ...types].join(', ');
  // A key that is a slip for one of those (`stauts` for `status`) is the likely mistake.
  const slips = isObject(value)
    ? Object.keys(value).flatMap((k) => {
        const meant = keys.includes(k) ? undefined : closestName(k, keys);
        return meant ? [`"${k}" looks like "${meant}"`] : [];
      })
    : [];
  const hint = slips.length ? ` (${slips.join(', ')})` : '';
  return [
    {
      path: at,
      message: `expected ${keys.length ? 'an object with one of the keys ' : ''}${options}${hint}`,
    },
  ];
}

/**
 * A value that is none of those allowed, repeated, with the allowed one it is a slip for:
 * `expected one of "submitted"|"working"|…, got "input_required"; did you mean "input-required"?`
 */
function notAllowed(given: unknown, allowed: readonly unknown[]): string {
  const shown = allowed.map((v) => JSON.stringify(v) ?? String(v));
  const names = allowed.filter((v): v is string => typeof v === 'string');
  const meant = typeof given === 'string' ? closestName(given, names) : undefined;
  return [
    `expected ${shown.length === 1 ? shown[0] : `one of ${shown.join('|')}`}`,
    `, got ${JSON.stringify(given) ?? 'nothing'}`,
    meant && meant !== given ? `; did you mean ${JSON.stringify(meant)}?` : '',
  ].join('');
}

/** ` (did you mean "after"?)` when a known key is close to `key`. */
function didYouMean(key: string, known: readonly string[]): string {
  const meant = closestName(key, known);
  return meant && meant !== key ? ` (did you mean "${meant}"?)` : '';
}

const KNOWN_KEYS = new WeakMap<z.ZodType, readonly string[]>();

/** Every property name the schema knows, anywhere in it: what an unknown key is compared with. */
function keysOf(schema: z.ZodType): readonly string[] {
  let keys = KNOWN_KEYS.get(schema);
  if (!keys) {
    const found = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!isObject(node)) return;
      const properties = (node as { properties?: unknown }).properties;
      if (isObject(properties)) for (const name of Object.keys(properties)) found.add(name);
      Object.values(node).forEach(walk);
    };
    walk(toJSONSchema(schema, { unrepresentable: 'any' }));
    keys = [...found];
    KNOWN_KEYS.set(schema, keys);
  }
  return keys;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function valueAt(root: unknown, path: IssuePath): unknown {
  let value = root;
  for (const key of path) value = isObject(value) || Array.isArray(value) ? (value as never)[key] : undefined;
  return value;
}

function expectedType(issue: ZodIssue): string {
  return issue.code === 'invalid_type' ? `a ${issue.expected}` : 'another value';
}

/** The first character at or after `from` that is not white space (the error's own line). */
function firstNonSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at < text.length ? at : from;
}

/** Where the node at `issuePath` begins, or its nearest ancestor that exists in the file. */
function positionOf(
  doc: Document,
  lines: LineCounter,
  issuePath: IssuePath,
): { line?: number; column?: number } {
  for (let depth = issuePath.length; depth >= 0; depth--) {
    const prefix = issuePath.slice(0, depth);
    const node = prefix.length ? doc.getIn(prefix, true) : doc.contents;
    if (node && typeof node === 'object' && 'range' in node && node.range) {
      // Point at the key rather than the value when the value sits on a later line.
      const keyNode = depth > 0 ? keyNodeAt(doc, prefix) : undefined;
      const offset = keyNode?.range?.[0] ?? (node.range as [number, number, number])[0];
      const { line, col } = lines.linePos(offset);
      return { line, column: col };
    }
  }
  return {};
}

function keyNodeAt(
  doc: Document,
  prefix: IssuePath,
): { range?: [number, number, number] | null } | undefined {
  const parent = prefix.length > 1 ? doc.getIn(prefix.slice(0, -1), true) : doc.contents;
  if (!isMap(parent)) return undefined;
  const last = prefix[prefix.length - 1];
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}
