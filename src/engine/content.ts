/**
 * Renders scenario templates into A2A parts, drawing every random choice from the task's seeded
 * content stream, so the same seed and input always produce the same text and data.
 */
import type { JsonValue, Part } from '../domain/types.js';
import { callFaker } from '../lib/fake-data.js';
import { merge } from '../lib/objects.js';
import type { Random } from '../lib/random.js';
import type { DataTemplate, PartTemplate, Text } from '../scenario/model.js';
import { Template, type Argument, type Expression, type Helper } from '../scenario/template.js';

export interface RenderScope {
  inputText: string;
  inputMessageId: string;
  taskId: string;
  contextId: string;
  /** When the turn started, epoch milliseconds: `{{now}}`, and "now" for faker dates. */
  nowMs: number;
  random: Random;
  /** The scenario's `vars`, rendered at the start of the turn. */
  vars: Readonly<Record<string, JsonValue>>;
}

/** Renders a scenario's `vars` in order: each may use the ones before it. */
export function renderVars(
  vars: readonly [string, DataTemplate][],
  scope: Omit<RenderScope, 'vars'>,
): Record<string, JsonValue> {
  const rendered: Record<string, JsonValue> = {};
  const withVars = merge(scope, { vars: rendered });
  for (const [name, template] of vars) rendered[name] = renderData(template, withVars);
  return rendered;
}

/**
 * Lists of parts with no `{{...}}` in them, rendered once and frozen (null: the list has some). A
 * status message such as "Searching flights..." is then one shared value however many events carry
 * it, not ~100 bytes more in every task's log. Nothing is drawn from the streams to render them.
 */
const constantParts = new WeakMap<readonly PartTemplate[], Part[] | null>();

export function renderParts(parts: readonly PartTemplate[], scope: RenderScope): Part[] {
  const constant = constantParts.get(parts);
  if (constant) return constant;
  const rendered = parts.map((part) => withCommonFields(part, renderContent(part, scope)));
  if (constant === undefined) {
    const isConstant = parts.every((part) => part.kind === 'bytes' || typeof contentOf(part) === 'string');
    if (isConstant) {
      // Frozen, so that a consumer trying to change a shared part fails loudly.
      for (const part of rendered) Object.freeze(part);
      Object.freeze(rendered);
    }
    constantParts.set(parts, isConstant ? rendered : null);
  }
  return rendered;
}

/** A text or URL part's template, or a data part's. */
function contentOf(part: Exclude<PartTemplate, { kind: 'bytes' }>): Text | DataTemplate {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'url':
      return part.url;
    case 'data':
      return part.data;
  }
}

function renderContent(part: PartTemplate, scope: RenderScope): Part {
  switch (part.kind) {
    case 'text':
      return { kind: 'text', text: renderText(part.text, scope) };
    case 'url':
      return { kind: 'url', url: renderText(part.url, scope) };
    case 'data':
      return { kind: 'data', data: renderData(part.data, scope) };
    case 'bytes':
      return { kind: 'bytes', bytes: part.bytes };
  }
}

/**
 * Adds the template's optional fields one by one. Spreading the rest of a destructured template
 * instead gave every rendered part a hidden class of its own in V8: a few hundred bytes of shape per
 * event, kept as long as the event.
 */
function withCommonFields(template: PartTemplate, part: Part): Part {
  if (template.mediaType !== undefined) part.mediaType = template.mediaType;
  if (template.filename !== undefined) part.filename = template.filename;
  if (template.metadata !== undefined) part.metadata = template.metadata;
  return part;
}

export function renderText(text: Text, scope: RenderScope): string {
  if (typeof text === 'string') return text;
  return text.segments.map((s) => (typeof s === 'string' ? s : stringify(evaluate(s, scope)))).join('');
}

/** A string that is exactly one `{{...}}` keeps the value's type, so `"{{int 1 9}}"` renders a number. */
export function renderData(data: DataTemplate, scope: RenderScope): JsonValue {
  if (data instanceof Template) {
    const [only, ...more] = data.segments;
    if (only !== undefined && typeof only !== 'string' && more.length === 0)
      return toJson(evaluate(only, scope));
    return renderText(data, scope);
  }
  if (Array.isArray(data)) return data.map((item) => renderData(item, scope));
  if (data !== null && typeof data === 'object') {
    return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, renderData(v, scope)]));
  }
  return data;
}

function evaluate(expression: Expression, scope: RenderScope): unknown {
  switch (expression.kind) {
    case 'variable':
      return variable(expression.name, scope);
    case 'var':
      // Own keys only: `{{vars.route.constructor}}` names nothing, not Object's constructor.
      return expression.path.reduce<unknown>(
        (value, key) =>
          value !== null && typeof value === 'object' && Object.hasOwn(value, key)
            ? (value as Record<string, unknown>)[key]
            : undefined,
        scope.vars,
      );
    case 'helper':
      return helper(expression.name, expression.args, scope);
    case 'capture':
      return expression.pattern.exec(scope.inputText)?.[expression.group]?.trim() ?? expression.fallback;
    case 'faker':
      return callFaker(expression.path, expression.options, scope.random.uint32(), scope.nowMs);
  }
}

function helper(name: Exclude<Helper, 'capture'>, args: readonly Argument[], scope: RenderScope): JsonValue {
  switch (name) {
    case 'int':
      return scope.random.int(Number(args[0]), Number(args[1]));
    case 'float':
      return Number(
        scope.random
          .between(Number(args[0]), Number(args[1]))
          .toFixed(args[2] === undefined ? 2 : Number(args[2])),
      );
    case 'pick':
      return scope.random.pick(args);
  }
}

function variable(name: Extract<Expression, { kind: 'variable' }>['name'], scope: RenderScope): string {
  switch (name) {
    case 'input.text':
      return scope.inputText;
    case 'input.messageId':
      return scope.inputMessageId;
    case 'task.id':
      return scope.taskId;
    case 'context.id':
      return scope.contextId;
    case 'now':
      return new Date(scope.nowMs).toISOString();
    case 'today':
      return new Date(scope.nowMs).toISOString().slice(0, 10);
    case 'uuid':
      return scope.random.uuid();
  }
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function toJson(value: unknown): JsonValue {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
