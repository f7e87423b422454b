/**
 * Reads what a real agent answers (Task, TaskStatus, Message, Artifact, the two update events) into
 * domain values, in either dialect. Both dialects name these fields alike; a dialect supplies what
 * differs: its state and role names, its part grammar and v0.3's `kind` tags. Like the server's
 * request readers, it collects every violation with its path before giving up, so one error tells
 * everything the agent got wrong; unknown fields are ignored and snake_case spellings accepted
 * (WireReader), as the SDK does.
 */
import { describe, field, join, WireReader } from '../bindings/shared/wire-reader.js';
import { readMessageOptionals } from '../bindings/shared/send-request.js';
import type { Artifact, Message, Part, Role, Task, TaskState, TaskStatus } from '../domain/types.js';
import { isoTime } from '../lib/iso-time.js';
import type { UpstreamItem } from '../runtime/api.js';
import { invalidAgentResponse } from './dialect.js';
import { agentLimitExceeded, MAX_AGENT_LIST_LENGTH } from './limits.js';

export interface ObjectGrammar {
  states: ReadonlyMap<string | number, TaskState>;
  roles: ReadonlyMap<string | number, Role>;
  readPart(reader: WireReader, value: unknown, path: string): Part | undefined;
  /** v0.3 tags tasks and messages; a tag that is there must be the right one. v1.0 has none. */
  kinds?: { task: string; message: string };
  /** v0.3 requires a Task's contextId; ProtoJSON leaves an empty one out, so v1.0 reads it as "". */
  taskContextIdRequired: boolean;
}

/**
 * The timestamp of a status the agent sent without one (the field is optional in both versions).
 * The domain needs a string and src/ may not read the wall clock here; the epoch is a value no real
 * status carries, so the proxy can tell it apart and put its own clock's time instead.
 */
export const ABSENT_TIMESTAMP = '1970-01-01T00:00:00.000Z';

/** Violations named in an error; an answer can hold thousands, and the message goes to a client. */
const VIOLATIONS_SHOWN = 10;

/**
 * Runs `read` over a fresh reader; any violation, or nothing read, is the agent's fault.
 *
 * @example decodeAgentValue((reader) => readTask(reader, body, 'task', grammar))
 */
export function decodeAgentValue<T>(read: (reader: WireReader) => T | undefined): T {
  const reader = new WireReader();
  const value = read(reader);
  const { violations } = reader;
  if (violations.length > 0 || value === undefined) {
    const shown = violations.slice(0, VIOLATIONS_SHOWN).map((v) => `${v.field}: ${v.description}`);
    if (violations.length > VIOLATIONS_SHOWN) shown.push(`and ${violations.length - VIOLATIONS_SHOWN} more`);
    throw invalidAgentResponse(shown.join('; ') || 'nothing could be read from it');
  }
  return value;
}

/** A list past {@link MAX_AGENT_LIST_LENGTH} is refused before any of it is read. */
function checkLength(list: readonly unknown[], path: string): void {
  if (list.length > MAX_AGENT_LIST_LENGTH) {
    throw agentLimitExceeded(
      'MAX_AGENT_LIST_LENGTH',
      `${path}: more than ${MAX_AGENT_LIST_LENGTH} items (${list.length})`,
    );
  }
}

/**
 * A ProtoJSON oneof: the one member of `members` that `value` holds (v1.0 SendMessageResponse and
 * StreamResponse). Null counts as absent, as it does for ProtoJSON fields.
 */
export function readOneMember<K extends string>(
  reader: WireReader,
  value: unknown,
  what: string,
  members: readonly K[],
): { member: K; content: unknown } | undefined {
  const obj = reader.object(value, what);
  if (!obj) return undefined;
  const present = members.filter((m) => field(obj, m) != null);
  if (present.length !== 1) {
    const got = present.length ? present.join(', ') : 'none';
    return reader.fail(what, `expected exactly one of ${members.join(', ')}; got ${got}`);
  }
  const member = present[0]!;
  return { member, content: field(obj, member) };
}

export function readTask(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: ObjectGrammar,
): Task | undefined {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  checkKind(reader, obj, path, grammar.kinds?.task);
  const id = reader.string(obj, 'id', path, true);
  const contextId = reader.string(obj, 'contextId', path, grammar.taskContextIdRequired);
  const status = readStatus(reader, field(obj, 'status'), join(path, 'status'), grammar);
  const artifacts = readList(
    reader,
    obj,
    'artifacts',
    path,
    (v, p) => readArtifact(reader, v, p, grammar),
    true,
  );
  const history = readList(reader, obj, 'history', path, (v, p) => readMessage(reader, v, p, grammar));
  const metadata = reader.struct(obj, 'metadata', path);
  if (!id || !status) return undefined;
  return {
    id,
    contextId: contextId ?? '',
    status,
    artifacts,
    history,
    ...(metadata && { metadata }),
  };
}

function readStatus(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: ObjectGrammar,
): TaskStatus | undefined {
  if (value == null) return reader.fail(path, 'is required');
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const state = reader.enumValue(obj, 'state', path, grammar.states);
  if (field(obj, 'state') == null) reader.fail(join(path, 'state'), 'is required');
  const rawMessage = field(obj, 'message');
  const message =
    rawMessage == null ? undefined : readMessage(reader, rawMessage, join(path, 'message'), grammar);
  const timestamp = readTimestamp(reader, obj, path);
  if (state === undefined || timestamp === undefined) return undefined;
  return { state, ...(message && { message }), timestamp };
}

/** RFC 3339, as ProtoJSON writes a google.protobuf.Timestamp: any fraction, `Z` or an offset. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * @note Normalised to the domain's form (UTC, milliseconds, `Z`): the instant is kept, the spelling
 * may change (`+02:00`, nanoseconds), because the store sorts and filters statuses by this string.
 */
function readTimestamp(reader: WireReader, obj: Record<string, unknown>, path: string): string | undefined {
  const value = field(obj, 'timestamp');
  if (value == null || value === '') return ABSENT_TIMESTAMP;
  const raw = reader.string(obj, 'timestamp', path);
  if (raw === undefined) return undefined;
  const ms = RFC_3339.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(ms)) {
    return reader.fail(
      join(path, 'timestamp'),
      `expected an RFC 3339 timestamp like 2026-01-01T00:00:00.000Z, got ${describe(raw)}`,
    );
  }
  return isoTime(ms);
}

export function readMessage(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: ObjectGrammar,
): Message | undefined {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  checkKind(reader, obj, path, grammar.kinds?.message);
  const messageId = reader.string(obj, 'messageId', path, true);
  const role = reader.enumValue(obj, 'role', path, grammar.roles);
  if (field(obj, 'role') == null) reader.fail(join(path, 'role'), 'is required');
  const parts = readParts(reader, obj, path, grammar);
  const optional = readMessageOptionals(reader, obj, path);
  if (!messageId || !role || !parts) return undefined;
  return { messageId, role, parts, ...optional };
}

function readArtifact(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: ObjectGrammar,
): Artifact | undefined {
  if (value == null) return reader.fail(path, 'is required');
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const artifactId = reader.string(obj, 'artifactId', path, true);
  const name = reader.string(obj, 'name', path);
  const description = reader.string(obj, 'description', path);
  const parts = readParts(reader, obj, path, grammar);
  const metadata = reader.struct(obj, 'metadata', path);
  const extensions = reader.stringList(obj, 'extensions', path);
  if (!artifactId || !parts) return undefined;
  return {
    artifactId,
    ...(name && { name }),
    ...(description && { description }),
    parts,
    ...(metadata && { metadata }),
    ...(extensions && { extensions }),
  };
}

/** A Task or a Message as the item it is in an answer. */
export function readTaskItem(reader: WireReader, value: unknown, path: string, grammar: ObjectGrammar) {
  const task = readTask(reader, value, path, grammar);
  return task && ({ kind: 'task', task } as const);
}

export function readMessageItem(reader: WireReader, value: unknown, path: string, grammar: ObjectGrammar) {
  const message = readMessage(reader, value, path, grammar);
  return message && ({ kind: 'message', message } as const);
}

/** TaskStatusUpdateEvent; its `metadata` (and v0.3 `final`) have no place in an UpstreamItem. */
export function readStatusUpdate(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: ObjectGrammar,
): UpstreamItem | undefined {
  const update = readUpdate(reader, value, path);
  if (!update) return undefined;
  const status = readStatus(reader, field(update.obj, 'status'), join(path, 'status'), grammar);
  return update.ids && status && { kind: 'status', ...update.ids, status };
}

/** TaskArtifactUpdateEvent; `append` and `lastChunk` default to false, as ProtoJSON omits them. */
export function readArtifactUpdate(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: ObjectGrammar,
): UpstreamItem | undefined {
  const update = readUpdate(reader, value, path);
  if (!update) return undefined;
  const { obj, ids } = update;
  const artifact = readArtifact(reader, field(obj, 'artifact'), join(path, 'artifact'), grammar);
  const append = reader.boolean(obj, 'append', path) ?? false;
  const lastChunk = reader.boolean(obj, 'lastChunk', path) ?? false;
  return ids && artifact && { kind: 'artifact', ...ids, artifact, append, lastChunk };
}

/** What both updates carry: the task and context they are about, both required. */
function readUpdate(reader: WireReader, value: unknown, path: string) {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const taskId = reader.string(obj, 'taskId', path, true);
  const contextId = reader.string(obj, 'contextId', path, true);
  return { obj, ids: taskId && contextId ? { taskId, contextId } : undefined };
}

/** Both versions require at least one part, in messages and in artifacts. */
function readParts(
  reader: WireReader,
  obj: Record<string, unknown>,
  path: string,
  grammar: ObjectGrammar,
): Part[] | undefined {
  const partsPath = join(path, 'parts');
  const raw = field(obj, 'parts');
  if (raw == null || (Array.isArray(raw) && raw.length === 0)) {
    return reader.fail(partsPath, 'needs at least one part');
  }
  if (!Array.isArray(raw)) return reader.fail(partsPath, `expected a list of parts, got ${describe(raw)}`);
  checkLength(raw, partsPath);
  const parts = raw.map((part, i) => grammar.readPart(reader, part, join(partsPath, i)));
  return parts.every((part): part is Part => part !== undefined) ? parts : undefined;
}

/**
 * A repeated field: absent is empty (ProtoJSON leaves empty lists out). `limited`: at most
 * {@link MAX_AGENT_LIST_LENGTH} items (a history is read, not kept, so it is not).
 */
function readList<T>(
  reader: WireReader,
  obj: Record<string, unknown>,
  key: string,
  path: string,
  readItem: (value: unknown, path: string) => T | undefined,
  limited = false,
): T[] {
  const listPath = join(path, key);
  const raw = field(obj, key);
  if (raw == null) return [];
  if (!Array.isArray(raw)) {
    reader.fail(listPath, `expected a list, got ${describe(raw)}`);
    return [];
  }
  if (limited) checkLength(raw, listPath);
  return raw.flatMap((item, i) => readItem(item, join(listPath, i)) ?? []);
}

function checkKind(
  reader: WireReader,
  obj: Record<string, unknown>,
  path: string,
  expected: string | undefined,
): void {
  const kind = obj['kind'];
  if (expected !== undefined && kind != null && kind !== expected) {
    reader.fail(join(path, 'kind'), `expected "${expected}", got ${describe(kind)}`);
  }
}
