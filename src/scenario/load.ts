/**
 * Reads scenario files (YAML or JSON) and reports every problem with file, line and path, e.g.
 * `scenarios/flight-booking.yaml:14 steps[2].after: expected a duration like "500ms"`.
 * A broken file yields issues, never an exception: one bad file must not stop the others.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { compileScenario, formatPath, type IssuePath } from './compile.js';
import type { Scenario } from './model.js';
import { ScenarioFile } from './schema.js';

export interface ScenarioIssue {
  file: string;
  line?: number;
  path: string;
  message: string;
}

export interface LoadResult {
  scenarios: Scenario[];
  issues: ScenarioIssue[];
}

/** The scenarios shipped with the simulator. */
export const BUILTIN_SCENARIO_DIR = fileURLToPath(new URL('../../scenarios', import.meta.url));

const SCENARIO_FILE = /\.(ya?ml|json)$/i;
const SCENARIO_ID = /^[A-Za-z0-9][\w.-]*$/;

export function formatIssue(issue: ScenarioIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return issue.path ? `${where} ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`;
}

export function scenarioIdOf(file: string): string {
  return path.basename(file).replace(SCENARIO_FILE, '');
}

/** Scenario files directly inside `dir`, by name. JSON schema files are not scenarios. */
export async function listScenarioFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && SCENARIO_FILE.test(e.name) && !e.name.endsWith('.schema.json'))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/**
 * Loads every scenario in `dirs`, in order. When two files share an id, the one from the earlier
 * directory wins, so a user's `weather.yaml` replaces the built-in one.
 */
export async function loadScenarioDirs(dirs: readonly string[]): Promise<LoadResult> {
  const scenarios = new Map<string, Scenario>();
  const issues: ScenarioIssue[] = [];
  for (const dir of dirs) {
    let files: string[];
    try {
      files = await listScenarioFiles(dir);
    } catch (error) {
      issues.push({
        file: displayPath(dir),
        path: '',
        message: `cannot read the directory: ${(error as Error).message}`,
      });
      continue;
    }
    for (const file of files) {
      if (scenarios.has(scenarioIdOf(file))) continue;
      const result = await loadScenarioFile(file);
      issues.push(...result.issues);
      if (result.scenario) scenarios.set(result.scenario.id, result.scenario);
    }
  }
  return { scenarios: [...scenarios.values()], issues };
}

export async function loadScenarioFile(
  file: string,
): Promise<{ scenario?: Scenario; issues: ScenarioIssue[] }> {
  const shown = displayPath(file);
  const id = scenarioIdOf(file);
  if (!SCENARIO_ID.test(id)) {
    return {
      issues: [
        {
          file: shown,
          path: '',
          message: `"${id}" is not a valid scenario id: use letters, digits, "-", "_" and "."`,
        },
      ],
    };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return {
      issues: [{ file: shown, path: '', message: `cannot read the file: ${(error as Error).message}` }],
    };
  }
  return parseScenario(id, shown, text);
}

/** Parses and validates one scenario's source text. `file` is only used in messages. */
export async function parseScenario(
  id: string,
  file: string,
  text: string,
): Promise<{ scenario?: Scenario; issues: ScenarioIssue[] }> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      issues: doc.errors.map((e) => ({
        file,
        line: lines.linePos(e.pos[0]).line,
        path: '',
        message: `syntax error: ${e.message.split('\n')[0]}`,
      })),
    };
  }
  const at = (issuePath: IssuePath, message: string): ScenarioIssue => ({
    file,
    line: lineOf(doc, lines, issuePath),
    path: formatPath(issuePath),
    message,
  });

  const input: unknown = doc.toJS();
  const parsed = ScenarioFile.safeParse(input);
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.flatMap((i) => explain(i, [], input)).map((i) => at(i.path, i.message)),
    };
  }
  const compiled = await compileScenario(id, file, parsed.data);
  return { scenario: compiled.scenario, issues: compiled.issues.map((i) => at(i.path, i.message)) };
}

type ZodIssue = z.core.$ZodIssue;

/**
 * Turns zod issues into messages a scenario author can act on. A union (a step, a part, a delay)
 * reports the problems of the alternative the author evidently meant, the one whose distinguishing
 * key is present; when none is, it lists the keys that would select one.
 */
function explain(issue: ZodIssue, base: IssuePath, input: unknown): { path: IssuePath; message: string }[] {
  const at = [...base, ...(issue.path as IssuePath)];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: [...at, key], message: `unknown key "${key}"` }));
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
    return best.flatMap((i) => explain(i, at, input));
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
  return [
    { path: at, message: `expected ${keys.length ? 'an object with one of the keys ' : ''}${options}` },
  ];
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

/** The line of the node at `issuePath`, or of its nearest ancestor that exists in the file. */
function lineOf(doc: Document, lines: LineCounter, issuePath: IssuePath): number | undefined {
  for (let depth = issuePath.length; depth >= 0; depth--) {
    const prefix = issuePath.slice(0, depth);
    const node = prefix.length ? doc.getIn(prefix, true) : doc.contents;
    if (node && typeof node === 'object' && 'range' in node && node.range) {
      // Point at the key rather than the value when the value sits on a later line.
      const keyNode = depth > 0 ? keyNodeAt(doc, prefix) : undefined;
      const offset = keyNode?.range?.[0] ?? (node.range as [number, number, number])[0];
      return lines.linePos(offset).line;
    }
  }
  return undefined;
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

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
