/**
 * Raw scenario (already schema-valid) → {@link Scenario}. Reports what a schema cannot see: bad
 * regular expressions and templates, unknown faker methods, and (through `script.ts`) scripts
 * that never end.
 */
import type { JsonObject, JsonValue } from '../domain/types.js';
import { delaySpec, type DelaySpec, type RawDelay } from '../lib/delay.js';
import { parseDuration } from '../lib/duration.js';
import type { IssuePath } from '../lib/yaml-file.js';
import {
  END,
  type Condition,
  type DataTemplate,
  type PartTemplate,
  type Scenario,
  type SkillInfo,
  type Step,
  type Text,
} from './model.js';
import type { RawCondition, RawMessageContent, RawPart, RawScenario, RawStep } from './schema.js';
import { Pattern, PatternSyntaxError } from './pattern.js';
import { buildScript, type ScriptCompiler } from './script.js';
import { checkTemplate, hasTemplate } from './template.js';

export interface CompileIssue {
  path: IssuePath;
  message: string;
}

/** What is wrong with a scenario's `chaos:` text, if anything: the chaos layer owns that grammar. */
export type ChaosCheck = (text: string) => string | undefined;

export async function compileScenario(
  id: string,
  file: string,
  raw: RawScenario,
  checkChaos?: ChaosCheck,
): Promise<{ scenario?: Scenario; issues: CompileIssue[] }> {
  const compiler = new Compiler(checkChaos);
  const scenario = compiler.scenario(id, file, raw);
  return compiler.issues.length ? { issues: compiler.issues } : { scenario, issues: [] };
}

class Compiler implements ScriptCompiler {
  readonly issues: CompileIssue[] = [];
  private readonly fakerUses: { path: IssuePath; method: readonly string[] }[] = [];
  private readonly variantTypes: string[][] = [];
  /** Vars declared so far: a var may only read the ones declared before it. */
  private readonly declaredVars = new Set<string>();

  constructor(private readonly checkChaos: ChaosCheck | undefined) {}

  scenario(id: string, file: string, raw: RawScenario): Scenario {
    const vars = Object.entries(raw.vars ?? {}).map(([name, value]): [string, DataTemplate] => {
      const compiled = this.data(value as JsonValue, ['vars', name]);
      this.declaredVars.add(name);
      return [name, compiled];
    });
    return {
      id,
      file,
      description: raw.description,
      priority: raw.priority ?? 0,
      fallback: raw.fallback ?? false,
      skill: raw.skill === false ? undefined : skillInfo(id, raw),
      match: (raw.match ?? []).map((c, i) => this.condition(c, ['match', i])),
      cancel: {
        allowed: raw.cancel?.allowed ?? true,
        after: this.delay(raw.cancel?.after, ['cancel', 'after']),
        ...(raw.cancel?.message !== undefined && {
          message: this.content(raw.cancel.message, ['cancel', 'message']),
        }),
      },
      vars,
      script: this.script(raw),
      usesFaker: this.fakerUses.length > 0,
      variantTypes: this.variantTypes,
      ...(raw.chaos !== undefined && { chaos: this.chaos(raw.chaos) }),
    };
  }

  private script(raw: RawScenario): Scenario['script'] {
    if (raw.reply) {
      const { message, variants, after } = raw.reply;
      return {
        kind: 'reply',
        variants:
          message !== undefined
            ? [{ message: this.content(message, ['reply', 'message']) }]
            : this.variants(variants ?? [], ['reply', 'variants'], (v, at) => ({
                message: this.content(v.message, [...at, 'message']),
              })),
        after: this.delay(after, ['reply', 'after']),
      };
    }
    if (raw.error) {
      const { type, message, after } = raw.error;
      return {
        kind: 'error',
        type,
        ...(message !== undefined && { message: this.text(message, ['error', 'message']) }),
        after: this.delay(after, ['error', 'after']),
      };
    }
    return { kind: 'steps', steps: buildScript(raw.steps ?? [], this) };
  }

  private chaos(raw: string): string {
    const problem = this.checkChaos?.(raw);
    if (problem) this.issues.push({ path: ['chaos'], message: problem });
    return raw;
  }

  report(path: IssuePath, message: string): void {
    this.issues.push({ path, message });
  }

  step(raw: RawStep, path: IssuePath): Step {
    if ('status' in raw) {
      const message = raw.message === undefined ? undefined : this.content(raw.message, [...path, 'message']);
      const after = this.delay(raw.after, [...path, 'after']);
      // A plain status step into an interrupted state pauses the script just like an input step.
      if (raw.status === 'input-required' || raw.status === 'auth-required') {
        return {
          kind: 'input',
          state: raw.status,
          ...(message && { message }),
          branches: [],
          after,
          next: END,
        };
      }
      return { kind: 'status', state: raw.status, ...(message && { message }), after, next: END };
    }
    if ('artifact' in raw) {
      const a = raw.artifact;
      const at = [...path, 'artifact'];
      const variants = a.variants
        ? this.variants(a.variants, [...at, 'variants'], (v, where) => ({ chunks: this.chunks(v, where) }))
        : [{ chunks: this.chunks(a, at) }];
      return {
        kind: 'artifact',
        ...(a.id !== undefined && { id: this.text(a.id, [...at, 'id']) }),
        ...(a.name !== undefined && { name: this.text(a.name, [...at, 'name']) }),
        ...(a.description !== undefined && { description: this.text(a.description, [...at, 'description']) }),
        ...(a.metadata !== undefined && { metadata: a.metadata as JsonObject }),
        variants,
        append: a.append ?? false,
        every: Array.isArray(a.every)
          ? a.every.map((d, i) => this.delay(d, [...at, 'every', i]))
          : [this.delay(a.every, [...at, 'every'])],
        after: this.delay(raw.after, [...path, 'after']),
        next: END,
      };
    }
    if ('wait' in raw) return { kind: 'wait', delay: this.delay(raw.wait, [...path, 'wait']), next: END };

    const input = raw.input;
    const at = [...path, 'input'];
    return {
      kind: 'input',
      state: input.state ?? 'input-required',
      ...(input.message !== undefined && { message: this.content(input.message, [...at, 'message']) }),
      // Linked by the script builder, which sees where each branch leads.
      branches: [],
      after: this.delay(raw.after, [...path, 'after']),
      next: END,
    };
  }

  condition(raw: RawCondition, path: IssuePath): Condition {
    const condition: Condition = {};
    const text = raw.text === undefined ? undefined : this.textMatcher(raw.text, [...path, 'text']);
    if (text) condition.text = text;
    if (raw.keywords) {
      const words = raw.keywords.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      condition.keywords = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
      condition.keywordList = raw.keywords;
    }
    if (raw.messageId?.prefix !== undefined) condition.messageIdPrefix = raw.messageId.prefix;
    const idRegex = raw.messageId?.regex;
    const messageIdRegex =
      idRegex === undefined ? undefined : this.regex(idRegex, '', [...path, 'messageId', 'regex']);
    if (messageIdRegex) condition.messageIdRegex = messageIdRegex;
    if (raw.metadata) condition.metadata = Object.entries(raw.metadata) as [string, JsonValue][];
    if (raw.skill !== undefined) condition.skill = raw.skill;
    return condition;
  }

  /** `/pattern/flags` is a regular expression; anything else a case-insensitive substring. */
  private textMatcher(text: string, path: IssuePath): Condition['text'] {
    const literal = /^\/(.+)\/([a-z]*)$/s.exec(text);
    if (literal) return this.regex(literal[1]!, literal[2]!, path);
    // An escaped literal cannot backtrack: the native engine is safe and fastest here.
    return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  }

  private regex(source: string, flags: string, path: IssuePath): Pattern | undefined {
    try {
      return Pattern.compile(source, flags);
    } catch (error) {
      if (!(error instanceof PatternSyntaxError)) throw error;
      this.issues.push({ path, message: `invalid regular expression: ${error.message}` });
      return undefined;
    }
  }

  /** An artifact's (or a variant's) `parts` as one chunk, or its `chunks`. */
  private chunks(
    raw: { parts?: RawPart[]; chunks?: RawMessageContent[] },
    path: IssuePath,
  ): PartTemplate[][] {
    return raw.chunks
      ? raw.chunks.map((chunk, i) => this.content(chunk, [...path, 'chunks', i]))
      : [this.parts(raw.parts ?? [], [...path, 'parts'])];
  }

  /** Compiles each variant, and notes their media types for the check at send time. */
  private variants<R extends { mediaType: string }, V>(
    raw: readonly R[],
    path: IssuePath,
    compile: (variant: R, path: IssuePath) => V,
  ): (V & { mediaType: string })[] {
    this.variantTypes.push(raw.map((v) => v.mediaType));
    return raw.map((v, i) => ({ mediaType: v.mediaType, ...compile(v, [...path, i]) }));
  }

  private delay(raw: RawDelay | undefined, path: IssuePath): DelaySpec {
    if (raw !== undefined && typeof raw === 'object' && raw.min !== undefined && raw.max !== undefined) {
      if (parseDuration(raw.min)! > parseDuration(raw.max)!) {
        this.issues.push({ path, message: `"min" (${raw.min}) is greater than "max" (${raw.max})` });
      }
    }
    return delaySpec(raw);
  }

  private content(raw: RawMessageContent, path: IssuePath): PartTemplate[] {
    return typeof raw === 'string' ? [{ kind: 'text', text: this.text(raw, path) }] : this.parts(raw, path);
  }

  private parts(raw: RawPart[], path: IssuePath): PartTemplate[] {
    return raw.map((part, i) => this.part(part, [...path, i]));
  }

  private part(raw: RawPart, path: IssuePath): PartTemplate {
    const common = {
      ...(raw.metadata !== undefined && { metadata: raw.metadata as JsonObject }),
      ...(raw.mediaType !== undefined && { mediaType: raw.mediaType }),
      ...(raw.filename !== undefined && { filename: raw.filename }),
    };
    if ('text' in raw) return { kind: 'text', text: this.text(raw.text, [...path, 'text']), ...common };
    if ('data' in raw)
      return { kind: 'data', data: this.data(raw.data as JsonValue, [...path, 'data']), ...common };
    if ('raw' in raw) return { kind: 'bytes', bytes: raw.raw, ...common };
    return { kind: 'url', url: this.text(raw.url, [...path, 'url']), ...common };
  }

  private data(raw: JsonValue, path: IssuePath): DataTemplate {
    if (typeof raw === 'string') return this.text(raw, path);
    if (Array.isArray(raw)) return raw.map((item, i) => this.data(item, [...path, i]));
    if (raw !== null && typeof raw === 'object') {
      return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, this.data(v, [...path, k])]));
    }
    return raw;
  }

  private text(raw: string, path: IssuePath): Text {
    if (!hasTemplate(raw)) return raw;
    const checked = checkTemplate(raw, this.declaredVars);
    for (const method of checked.fakerPaths) this.fakerUses.push({ path, method });
    for (const message of checked.problems) this.issues.push({ path, message });
    return checked.template ?? raw;
  }
}

function skillInfo(id: string, raw: RawScenario): SkillInfo {
  const skill = raw.skill || {};
  return {
    id: skill.id ?? id,
    name: skill.name ?? id.replace(/[-_]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase()),
    description: skill.description ?? raw.description,
    tags: skill.tags ?? [id],
    ...(skill.examples && { examples: skill.examples }),
    ...(skill.inputModes && { inputModes: skill.inputModes }),
    ...(skill.outputModes && { outputModes: skill.outputModes }),
    extended: skill.extended ?? false,
  };
}
