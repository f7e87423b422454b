/**
 * `{{ ... }}` templates in scenario text and data, parsed once at load time.
 *
 * An expression is a name followed by arguments, handlebars-style:
 *   {{input.text}}  {{task.id}}  {{context.id}}  {{now}}  {{today}}  {{uuid}}  {{vars.route.from}}
 *   {{int 60 95}}  {{float 0 1 2}}  {{pick "sunny" "cloudy"}}  {{capture "from (.+) to (.+)" 2 "Paris"}}
 *   {{faker.location.city}}  {{faker.number.int min=1 max=9}}
 * Rendering lives in the engine (`engine/content.ts`); this module only knows the grammar.
 */
import { isFakerMethod } from '../lib/fake-data.js';
import { Pattern, PatternSyntaxError } from './pattern.js';

export const VARIABLES = Object.freeze([
  'input.text',
  'input.messageId',
  'task.id',
  'context.id',
  'now',
  'today',
  'uuid',
] as const);
export type Variable = (typeof VARIABLES)[number];

/** Helpers and how many positional arguments each takes. */
export const HELPERS = Object.freeze({
  int: { min: 2, max: 2, usage: 'int MIN MAX' },
  float: { min: 2, max: 3, usage: 'float MIN MAX [DECIMALS]' },
  pick: { min: 1, max: Infinity, usage: 'pick "a" "b" ...' },
  /** A group of a case-insensitive regular expression (RE2 syntax) matched against the user's text. */
  capture: { min: 2, max: 3, usage: 'capture "REGEX" GROUP ["default"]' },
} as const);
export type Helper = keyof typeof HELPERS;

export type Argument = string | number | boolean;

export type Expression =
  | { kind: 'variable'; name: Variable }
  /** `vars.flight.number`: a value of the scenario's `vars`, rendered once per turn. */
  | { kind: 'var'; path: string[] }
  | { kind: 'helper'; name: Exclude<Helper, 'capture'>; args: Argument[] }
  /** The pattern is compiled once, here, not at each render. */
  | { kind: 'capture'; pattern: Pattern; group: number; fallback: string }
  | { kind: 'faker'; path: string[]; options: Record<string, Argument> | undefined };

export type Segment = string | Expression;

/** A parsed template: literal text and expressions, in order. A class, so data can hold templates. */
export class Template {
  constructor(
    readonly source: string,
    readonly segments: readonly Segment[],
  ) {}

  /** The faker method paths this template calls, to check them once faker is loaded. */
  fakerPaths(): string[][] {
    return this.segments.flatMap((s) => (typeof s !== 'string' && s.kind === 'faker' ? [s.path] : []));
  }

  /** The names of the `vars` this template reads. */
  varNames(): string[] {
    return this.segments.flatMap((s) => (typeof s !== 'string' && s.kind === 'var' ? [s.path[0]!] : []));
  }
}

export class TemplateSyntaxError extends Error {
  constructor(
    message: string,
    /** What the template's well-formed expressions read and call: still worth checking. */
    readonly varNames: readonly string[] = [],
    readonly fakerPaths: readonly string[][] = [],
  ) {
    super(message);
  }
}

const TAG = /\{\{([\s\S]*?)\}\}/g;
const TOKEN =
  /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z_][\w]*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+)|([^\s"']+))/y;

/**
 * Every problem of one templated string, in one pass: its syntax (each bad expression), the faker
 * methods it names that faker lacks, and the vars it reads that `declared` does not hold. The
 * template is there when the syntax is sound.
 */
export function checkTemplate(
  source: string,
  declared: ReadonlySet<string>,
): { template?: Template; fakerPaths: readonly string[][]; problems: string[] } {
  const problems: string[] = [];
  let template: Template | undefined;
  let reads: { varNames: readonly string[]; fakerPaths: readonly string[][] };
  try {
    template = parseTemplate(source);
    reads = { varNames: template.varNames(), fakerPaths: template.fakerPaths() };
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    problems.push(`template error: ${error.message}`);
    reads = error;
  }
  for (const method of reads.fakerPaths) {
    if (!isFakerMethod(method)) {
      problems.push(`"faker.${method.join('.')}" is not a faker method (see https://fakerjs.dev/api/)`);
    }
  }
  for (const name of reads.varNames) {
    if (!declared.has(name))
      problems.push(`template reads "vars.${name}", which is not declared (above it) in "vars"`);
  }
  return { ...(template && { template }), fakerPaths: reads.fakerPaths, problems };
}

export function hasTemplate(text: string): boolean {
  return text.includes('{{');
}

export function parseTemplate(source: string): Template {
  const segments: Segment[] = [];
  // Every expression is read, and every problem reported at once: a bad one must not hide the next.
  const problems: string[] = [];
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    if (match.index > last) segments.push(source.slice(last, match.index));
    try {
      segments.push(parseExpression(match[1]!.trim()));
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      problems.push(error.message);
    }
    last = match.index + match[0].length;
  }
  if (last < source.length) segments.push(source.slice(last));
  if (segments.some((s) => typeof s === 'string' && s.includes('{{'))) {
    problems.push(`unclosed "{{" in template "${source}"`);
  }
  const template = new Template(source, segments);
  if (problems.length > 0)
    throw new TemplateSyntaxError(problems.join('; '), template.varNames(), template.fakerPaths());
  return template;
}

function parseExpression(text: string): Expression {
  if (text === '') throw new TemplateSyntaxError('empty "{{ }}" in template');
  const tokens = tokenize(text);
  const head = tokens.shift()!;
  if (head.key !== undefined || typeof head.value !== 'string' || head.quoted) {
    throw new TemplateSyntaxError(`"{{${text}}}" must start with a name`);
  }
  const name = head.value;

  if (name.startsWith('faker.')) {
    const path = name.split('.').slice(1);
    if (path.length < 2 || path.some((p) => !/^[A-Za-z]\w*$/.test(p))) {
      throw new TemplateSyntaxError(`"${name}" is not a faker method path like faker.location.city`);
    }
    if (tokens.some((t) => t.key === undefined)) {
      throw new TemplateSyntaxError(
        `faker options are written key=value, as in {{faker.number.int min=1 max=9}}`,
      );
    }
    const options = tokens.length ? Object.fromEntries(tokens.map((t) => [t.key!, t.value])) : undefined;
    return { kind: 'faker', path, options };
  }

  if (name.startsWith('vars.')) {
    const path = name.split('.').slice(1);
    if (path.some((p) => !/^[A-Za-z_]\w*$/.test(p)))
      throw new TemplateSyntaxError(`"${name}" is not a path like vars.name`);
    if (tokens.length) throw new TemplateSyntaxError(`"${name}" takes no arguments`);
    return { kind: 'var', path };
  }

  if ((VARIABLES as readonly string[]).includes(name)) {
    if (tokens.length) throw new TemplateSyntaxError(`"${name}" takes no arguments`);
    return { kind: 'variable', name: name as Variable };
  }

  if (Object.hasOwn(HELPERS, name)) {
    const helper = HELPERS[name as Helper];
    if (tokens.some((t) => t.key !== undefined)) throw new TemplateSyntaxError(`usage: {{${helper.usage}}}`);
    const args = tokens.map((t) => t.value);
    if (args.length < helper.min || args.length > helper.max)
      throw new TemplateSyntaxError(`usage: {{${helper.usage}}}`);
    if (name === 'capture') return parseCapture(args, helper.usage);
    if (name !== 'pick' && args.some((a) => typeof a !== 'number')) {
      throw new TemplateSyntaxError(`"${name}" takes numbers: {{${helper.usage}}}`);
    }
    return { kind: 'helper', name: name as Exclude<Helper, 'capture'>, args };
  }

  const known = [...VARIABLES, ...Object.keys(HELPERS), 'vars.<name>', 'faker.<module>.<method>'].join(', ');
  throw new TemplateSyntaxError(`unknown template name "${name}"; use one of ${known}`);
}

function parseCapture(args: Argument[], usage: string): Expression {
  const [source, group, fallback] = args;
  if (typeof source !== 'string' || typeof group !== 'number' || !Number.isInteger(group) || group < 0)
    throw new TemplateSyntaxError(`usage: {{${usage}}}`);
  try {
    return {
      kind: 'capture',
      pattern: Pattern.compile(source, 'i'),
      group,
      fallback: fallback === undefined ? '' : String(fallback),
    };
  } catch (error) {
    if (!(error instanceof PatternSyntaxError)) throw error;
    throw new TemplateSyntaxError(`invalid regular expression in capture: ${error.message}`);
  }
}

interface Token {
  key?: string;
  value: Argument;
  quoted: boolean;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const m = TOKEN.exec(text);
    if (!m) throw new TemplateSyntaxError(`cannot read "{{${text}}}"`);
    if (m[1] !== undefined) tokens.push({ value: unescape(m[1]), quoted: true });
    else if (m[2] !== undefined) tokens.push({ value: m[2], quoted: true });
    else if (m[3] !== undefined) tokens.push({ key: m[3], value: literal(m[4]!), quoted: false });
    else tokens.push({ value: literal(m[5]!), quoted: false });
    if (text.slice(TOKEN.lastIndex).trim() === '') break;
  }
  return tokens;
}

function literal(raw: string): Argument {
  if (raw.startsWith('"')) return unescape(raw.slice(1, -1));
  if (raw.startsWith("'")) return raw.slice(1, -1);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  const n = Number(raw);
  return raw !== '' && Number.isFinite(n) ? n : raw;
}

/** Only `\"` and `\\` are escapes, so a regular expression keeps its `\d` and `\b`. */
function unescape(s: string): string {
  return s.replace(/\\(["\\])/g, '$1');
}
