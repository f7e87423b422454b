/**
 * Writes recorded conversations as files a person can read and edit: one scenario per
 * conversation (the same conversation recorded again merges into it), and one agent file from the
 * real agent's card that plays them. What could be a secret is never written: requests' headers are
 * not recorded at all, and metadata keys named by `redact` or named like credentials are dropped.
 */
import { excerpt } from '../lib/excerpt.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify, YAMLSeq } from 'yaml';
import type { JsonObject, JsonValue, Message, Part } from '../domain/types.js';
import type { CardSummary } from '../upstream/card.js';
import type { Conversation } from './conversations.js';
import { textOf } from '../engine/plan.js';
import {
  cancelOf,
  literalPart,
  literalText,
  mergeSteps,
  stepsOf,
  type RecordedCancel,
  type RecordedStep,
} from './script.js';

export type MatchBy = 'text' | 'messageId-prefix' | 'metadata' | 'skill';

export interface WriteOptions {
  out: string;
  match: MatchBy;
  redact: readonly string[];
  /** Where the recording came from, for the files' first comment. */
  /** Behind a gateway there is no card: `name` (its agent code) names the agent instead. */
  source: { url: string; binding: string; card?: CardSummary; name?: string };
  /** The day of the recording, as `2026-12-01`. */
  date: string;
}

interface Recorded {
  id: string;
  rule: JsonObject;
  first: Message;
  times: number;
  body:
    | { steps: RecordedStep[]; cancel?: RecordedCancel }
    | { reply: Message; after: number[] }
    | { error: { type: string; message: string }; after: number[] };
}

/** Credentials by their usual names: never written, whatever `redact` says. */
const SECRET = /authorization|api[-_]?key|token|secret|password|cookie|credential/i;

export async function writeRecording(
  conversations: readonly Conversation[],
  options: WriteOptions,
): Promise<string[]> {
  const recorded = collect(conversations, options);
  await mkdir(options.out, { recursive: true });
  const files: string[] = [];
  const name = options.source.card?.name ?? options.source.name;
  const origin = `${name ?? 'the agent'} at ${options.source.url} (${options.source.binding})`;
  for (const scenario of recorded) {
    const file = path.join(options.out, `${scenario.id}.yaml`);
    const times = scenario.times > 1 ? `, ${scenario.times} times` : '';
    const header = comment(`Recorded from ${origin} on ${options.date}${times}.`);
    await writeFile(file, header + stringify(scenarioDocument(scenario, options), { lineWidth: 0 }));
    files.push(file);
  }
  const card = options.source.card;
  const agentId = slug(name ?? 'recorded-agent') || 'recorded-agent';
  const agentFile = path.join(options.out, `${agentId}.agent.yaml`);
  const header = comment(
    `The agent recorded from ${origin} on ${options.date}: its card, playing the recorded scenarios.`,
  );
  const agent = agentDocument(
    card,
    name,
    recorded.map((r) => r.id),
  );
  await writeFile(agentFile, header + stringify(agent, { lineWidth: 0 }));
  files.push(agentFile);
  return files;
}

/** How a character that would end a comment line is written in one: as a JSON string escapes it. */
const ESCAPED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A comment line. What it quotes comes from the agent (its card's name) and the command line (a
 * URL), so a line break in them is written escaped: otherwise the rest of the name would be YAML of
 * its own, such as `priority: 1000` or `fallback: true` in every recorded file. YAML 1.1's line
 * breaks (NEL, U+2028, U+2029) and every other control character are escaped too.
 */
function comment(text: string): string {
  const line = text.replace(
    /[\p{Cc}\u2028\u2029]/gu,
    (c) => ESCAPED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `# ${line}\n`;
}

function collect(conversations: readonly Conversation[], options: WriteOptions): Recorded[] {
  const recorded: Recorded[] = [];
  const ids = new Set<string>();
  for (const conversation of conversations) {
    const first = conversation.turns[0]!.message;
    const rule = matchRule(first, options);
    const body = bodyOf(conversation);
    if (!body) continue;
    const key = JSON.stringify(rule);
    const same = recorded.find((r) => JSON.stringify(r.rule) === key && merge(r, body));
    if (same) {
      same.times++;
      continue;
    }
    const base = slug(textOf(first)) || slug(String(rule['skill'] ?? '')) || 'conversation';
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    recorded.push({ id, rule, first, times: 1, body });
  }
  return recorded;
}

function bodyOf(conversation: Conversation): Recorded['body'] | undefined {
  const { outcome, turns } = conversation;
  const sentAt = turns[0]!.sentAtMs;
  switch (outcome?.kind) {
    case 'task': {
      const cancel = cancelOf(turns);
      const steps = stepsOf(turns, 0, { taskId: outcome.taskId, contextId: outcome.contextId });
      return { steps, ...(cancel && { cancel }) };
    }
    case 'message':
      return { reply: outcome.message, after: [outcome.atMs - sentAt] };
    case 'error':
      return {
        error: { type: outcome.error.type, message: outcome.error.message },
        after: [outcome.atMs - sentAt],
      };
    default:
      return undefined;
  }
}

/** Folds a recording into one of the same conversation; false when they are not the same. */
function merge(into: Recorded, body: Recorded['body']): boolean {
  if ('steps' in into.body && 'steps' in body) {
    if (!into.body.cancel !== !body.cancel || !mergeSteps(into.body.steps, body.steps)) return false;
    if (into.body.cancel && body.cancel) into.body.cancel.after.push(...body.cancel.after);
    return true;
  }
  if ('reply' in into.body && 'reply' in body) {
    if (JSON.stringify(into.body.reply.parts) !== JSON.stringify(body.reply.parts)) return false;
    into.body.after.push(...body.after);
    return true;
  }
  if ('error' in into.body && 'error' in body) {
    if (into.body.error.type !== body.error.type) return false;
    into.body.after.push(...body.after);
    return true;
  }
  return false;
}

function matchRule(first: Message, options: WriteOptions): JsonObject {
  const text = textOf(first).trim();
  const byText: JsonObject = { text: text || first.messageId };
  switch (options.match) {
    case 'text':
      return byText;
    case 'messageId-prefix': {
      const prefix = /^(.*[-_.:])[^-_.:]*$/.exec(first.messageId)?.[1] ?? first.messageId;
      return { messageId: { prefix } };
    }
    case 'metadata': {
      const metadata = cleanMetadata(first.metadata, options.redact);
      return metadata ? { metadata } : byText;
    }
    case 'skill': {
      const skill = first.metadata?.['skillId'];
      return typeof skill === 'string' ? { skill } : byText;
    }
  }
}

function cleanMetadata(metadata: JsonObject | undefined, redact: readonly string[]): JsonObject | undefined {
  const redacted = new Set(redact.map((name) => name.toLowerCase()));
  const kept = Object.entries(metadata ?? {}).filter(
    ([key]) => !SECRET.test(key) && !redacted.has(key.toLowerCase()) && key !== 'scenario',
  );
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function scenarioDocument(scenario: Recorded, options: WriteOptions): Record<string, unknown> {
  const said = textOf(scenario.first).trim().replace(/\s+/g, ' ');
  const quoted = excerpt(said, 60);
  const doc: Record<string, unknown> = {
    description: `Recorded: what ${options.source.card?.name ?? options.source.name ?? 'the agent'} answered to "${quoted || scenario.first.messageId}".`,
    match: [scenario.rule],
  };
  const { body } = scenario;
  if ('steps' in body) {
    // A client canceled it: how long the agent took to stop, for a replay's cancels.
    const { cancel } = body;
    if (cancel)
      doc['cancel'] = {
        ...delay(cancel.after),
        ...(cancel.message && { message: literalText(cancel.message) }),
      };
    doc['steps'] = stepsDocument(body.steps, options.redact);
  } else if ('reply' in body) {
    const message = content(body.reply.parts.map(literalPart), options.redact);
    doc['reply'] = { message, ...delay(body.after) };
  } else {
    const { type, message } = body.error;
    doc['error'] = { type, message: literalText(message), ...delay(body.after) };
  }
  return doc;
}

/**
 * The steps as a scenario writes them. After a question, the course the first recorded answer took
 * follows the input step, so that any answer plays it; the other answers recorded are branches
 * selected by their text.
 */
function stepsDocument(steps: RecordedStep[], redact: readonly string[]): Record<string, unknown>[] {
  return steps.flatMap((step) => {
    const written = stepDocument(step, redact);
    if (step.kind !== 'input' || step.branches.length === 0) return [written];
    return [written, ...stepsDocument(step.branches[0]!.steps, redact)];
  });
}

function stepDocument(step: RecordedStep, redact: readonly string[]): Record<string, unknown> {
  switch (step.kind) {
    case 'status':
      return {
        status: step.state,
        ...(step.message && { message: content(step.message, redact) }),
        ...delay(step.after),
      };
    case 'artifact': {
      const [only, ...more] = step.chunks;
      const artifact = {
        ...(step.name && { name: step.name }),
        ...(step.description && { description: step.description }),
        ...(more.length
          ? { chunks: step.chunks.map((parts) => content(parts, redact)), ...every(step.every) }
          : { parts: only!.map((part) => partDocument(part, redact)) }),
      };
      return { artifact, ...delay(step.after) };
    }
    case 'input': {
      const input = {
        ...(step.state !== 'input-required' && { state: step.state }),
        ...(step.message && { message: content(step.message, redact) }),
        ...(step.branches.length > 1 && {
          branches: step.branches.slice(1).map((branch) => ({
            when: { text: branch.text },
            steps: stepsDocument(branch.steps, redact),
          })),
        }),
      };
      return { input, ...delay(step.after) };
    }
  }
}

/** One text part as its text, anything else as parts. */
function content(parts: Part[], redact: readonly string[]): string | Record<string, unknown>[] {
  const [only] = parts;
  if (
    parts.length === 1 &&
    only!.kind === 'text' &&
    !only!.metadata &&
    (only!.mediaType ?? 'text/plain') === 'text/plain'
  ) {
    return only!.text;
  }
  return parts.map((part) => partDocument(part, redact));
}

function partDocument(part: Part, redact: readonly string[]): Record<string, unknown> {
  const metadata = cleanMetadata(part.metadata, redact);
  // text/plain is what a text part is anyway: saying it again only clutters the file.
  const mediaType = part.kind === 'text' && part.mediaType === 'text/plain' ? undefined : part.mediaType;
  const common = {
    ...(metadata && { metadata }),
    ...(part.filename && { filename: part.filename }),
    ...(mediaType && { mediaType }),
  };
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...common };
    case 'data':
      return { data: part.data as JsonValue, ...common };
    case 'bytes':
      return { raw: part.bytes, ...common };
    case 'url':
      return { url: part.url, ...common };
  }
}

/** The delay as observed, rounded to 10 ms; several recordings give the range they spanned. */
function delay(observed: number[], key = 'after'): Record<string, unknown> {
  const value = observed.length === 0 ? undefined : delayValue(observed);
  return value === undefined || value === '0ms' ? {} : { [key]: value };
}

function delayValue(observed: number[]): string | { min: string; max: string } {
  const rounded = observed.map((ms) => Math.round(ms / 10) * 10);
  // A loop, not Math.min(...rounded), which throws past about 100,000 values (a long recording).
  let min = Infinity;
  let max = -Infinity;
  for (const ms of rounded) [min, max] = [Math.min(min, ms), Math.max(max, ms)];
  return min === max ? `${min}ms` : { min: `${min}ms`, max: `${max}ms` };
}

/**
 * The gaps between an artifact's chunks: one delay when they were all alike, else the list of them
 * in order (on one line), so that a replay keeps the recorded pace: one range over gaps of 0 ms
 * and 1 s would replay a one-a-second stream at twice its speed.
 */
function every(gaps: number[][]): Record<string, unknown> {
  const values = gaps.map(delayValue);
  const first = JSON.stringify(values[0]);
  if (values.every((value) => JSON.stringify(value) === first)) {
    return values[0] === undefined || values[0] === '0ms' ? {} : { every: values[0] };
  }
  const list = new YAMLSeq();
  list.flow = true;
  list.items = values;
  return { every: list };
}

function agentDocument(
  card: CardSummary | undefined,
  name: string | undefined,
  scenarioIds: string[],
): Record<string, unknown> {
  const security = securityOf(card?.securitySchemes);
  return {
    name: name ?? 'Recorded agent',
    description: card?.description || `Plays what was recorded from ${name ?? 'a real agent'}.`,
    ...(card?.version && { version: card.version }),
    scenarios: scenarioIds.length ? scenarioIds : '*',
    ...(card?.skills.length && {
      skills: card.skills.map(({ extended: _extended, ...skill }) => skill),
    }),
    ...(security && { security }),
    ...(card?.extensions.length && { capabilities: { extensions: card.extensions } }),
    ...(card?.defaultInputModes && { defaultInputModes: card.defaultInputModes }),
    ...(card?.defaultOutputModes && { defaultOutputModes: card.defaultOutputModes }),
  };
}

/** The card's API-key and bearer schemes, in a v1.0 or a v0.3 card's shape, as an agent file declares them. */
function securityOf(schemes: JsonObject | undefined): Record<string, unknown> | undefined {
  let apiKey: { header: string } | undefined;
  let http: { scheme: 'bearer'; bearerFormat?: string } | undefined;
  for (const raw of Object.values(schemes ?? {})) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const scheme = raw as JsonObject;
    const key =
      (scheme['apiKeySecurityScheme'] as JsonObject | undefined) ??
      (scheme['type'] === 'apiKey' ? scheme : undefined);
    const where = key?.['location'] ?? key?.['in'];
    if (key && where === 'header' && typeof key['name'] === 'string') apiKey = { header: key['name'] };
    const bearer =
      (scheme['httpAuthSecurityScheme'] as JsonObject | undefined) ??
      (scheme['type'] === 'http' ? scheme : undefined);
    if (bearer && String(bearer['scheme']).toLowerCase() === 'bearer') {
      const format = bearer['bearerFormat'];
      http = { scheme: 'bearer', ...(typeof format === 'string' && { bearerFormat: format }) };
    }
  }
  return apiKey || http ? { ...(apiKey && { apiKey }), ...(http && { http }) } : undefined;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, 6)
    .join('-')
    .slice(0, 48)
    .replace(/-+$/, '');
}
