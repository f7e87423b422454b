/**
 * A2A v1.0 ProtoJSON ↔ domain, for both v1.0 bindings (REST and JSON-RPC): camelCase fields, enums
 * by name, parts discriminated by their member (`text`, `raw`, `url`, `data`), defaults omitted.
 * Input is read leniently (snake_case, numeric enums, unknown fields ignored), as the SDK does.
 */
import type {
  Artifact,
  JsonValue,
  ListTasksQuery,
  Message,
  Part,
  PushConfig,
  PushConfigInput,
  Role,
  SendRequest,
  TaskStatus,
  TaskView,
} from '../../domain/types.js';
import { TASK_STATE_FROM_WIRE, TASK_STATE_TO_WIRE } from '../../domain/wire-states.js';
import type { PushConfigPage, PushConfigPageQuery } from '../../runtime/api.js';
import type { DataItem } from '../../calls/wire.js';
import { readPushConfig, readSendRequest, type SendRequestGrammar } from '../shared/send-request.js';
import { BASE64, join, WireReader } from '../shared/wire-reader.js';

const ROLE_TO_WIRE = Object.freeze({ user: 'ROLE_USER', agent: 'ROLE_AGENT' } as const satisfies Record<
  Role,
  string
>);
const ROLE_FROM_WIRE: ReadonlyMap<string | number, Role> = new Map<string | number, Role>([
  ['ROLE_USER', 'user'],
  [1, 'user'],
  ['ROLE_AGENT', 'agent'],
  [2, 'agent'],
]);

// ---------------------------------------------------------------------------------------------
// Domain → wire

export function toWireTask(task: TaskView): Record<string, unknown> {
  return {
    id: task.id,
    contextId: task.contextId,
    status: toWireStatus(task.status),
    ...(task.artifacts && { artifacts: task.artifacts.map(toWireArtifact) }),
    ...(task.history && { history: task.history.map(toWireMessage) }),
    ...(task.metadata && { metadata: task.metadata }),
    ...(task.generation !== undefined && { generation: task.generation }),
  };
}

export function toWireStatus(status: TaskStatus): Record<string, unknown> {
  return {
    state: TASK_STATE_TO_WIRE[status.state],
    ...(status.message && { message: toWireMessage(status.message) }),
    timestamp: status.timestamp,
  };
}

export function toWireMessage(message: Message): Record<string, unknown> {
  return {
    messageId: message.messageId,
    ...(message.contextId && { contextId: message.contextId }),
    ...(message.taskId && { taskId: message.taskId }),
    role: ROLE_TO_WIRE[message.role],
    parts: message.parts.map(toWirePart),
    ...(message.metadata && { metadata: message.metadata }),
    ...(message.extensions?.length && { extensions: message.extensions }),
    ...(message.referenceTaskIds?.length && { referenceTaskIds: message.referenceTaskIds }),
  };
}

export function toWireArtifact(artifact: Artifact): Record<string, unknown> {
  return {
    artifactId: artifact.artifactId,
    ...(artifact.name && { name: artifact.name }),
    ...(artifact.description && { description: artifact.description }),
    parts: artifact.parts.map(toWirePart),
    ...(artifact.metadata && { metadata: artifact.metadata }),
    ...(artifact.extensions?.length && { extensions: artifact.extensions }),
  };
}

export function toWirePart(part: Part): Record<string, unknown> {
  const wire: Record<string, unknown> =
    part.kind === 'text'
      ? { text: part.text }
      : part.kind === 'bytes'
        ? { raw: part.bytes }
        : part.kind === 'url'
          ? { url: part.url }
          : { data: part.data };
  // Set one by one: a spread of the content and then these gave each part a hidden class of its own (Node 20).
  if (part.metadata) wire['metadata'] = part.metadata;
  if (part.filename) wire['filename'] = part.filename;
  if (part.mediaType) wire['mediaType'] = part.mediaType;
  return wire;
}

/** One `StreamResponse`: exactly one of task, message, statusUpdate, artifactUpdate. */
export function toWireStreamResponse(item: DataItem): Record<string, unknown> {
  if (item.kind === 'message') return { message: toWireMessage(item.message) };
  if (item.kind === 'snapshot') return { task: toWireTask(item.task) };
  const { taskId, contextId, event, generation } = item.event;
  // The generation after the event (v1.1 draft §3.2.7); a made-up (quirk) event has none.
  const stamp = generation !== undefined && !item.synthetic ? { generation } : undefined;
  switch (event.kind) {
    case 'task':
      return { task: toWireTask(event.task) };
    case 'status':
      return { statusUpdate: { taskId, contextId, status: toWireStatus(event.status), ...stamp } };
    case 'artifact':
      return {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: toWireArtifact(event.artifact),
          ...(event.append && { append: true }),
          ...(event.lastChunk && { lastChunk: true }),
          ...stamp,
        },
      };
  }
}

/** A TaskPushNotificationConfig: flat, with its task (and the tenant it was asked in). */
export function toWirePushConfig(config: PushConfig, tenant?: string): Record<string, unknown> {
  const { id, taskId, url, token, authentication } = config;
  return {
    ...(tenant && { tenant }),
    id,
    taskId,
    url,
    ...(token && { token }),
    ...(authentication && {
      authentication: {
        scheme: authentication.scheme,
        ...(authentication.credentials && { credentials: authentication.credentials }),
      },
    }),
  };
}

/** ListTaskPushNotificationConfigsResponse. */
export function toWirePushConfigPage(page: PushConfigPage, tenant?: string): Record<string, unknown> {
  return {
    configs: page.configs.map((config) => toWirePushConfig(config, tenant)),
    nextPageToken: page.nextPageToken,
  };
}

// ---------------------------------------------------------------------------------------------
// Wire → domain

/** A SendMessageRequest (the JSON-RPC params, or the REST body). */
export function fromWireSendRequest(value: unknown): SendRequest {
  return readSendRequest(value, PROTO_JSON_GRAMMAR);
}

const PROTO_JSON_GRAMMAR: SendRequestGrammar = {
  roles: ROLE_FROM_WIRE,
  userRole: 'ROLE_USER',
  partExample: '{"text": "hello"}',
  readPart,
  readReturnImmediately: (reader, config, path) => reader.boolean(config, 'returnImmediately', path),
  pushConfigKey: 'taskPushNotificationConfig',
  generation: true,
  readAuthScheme: (reader, auth, path) => reader.string(auth, 'scheme', path, true),
};

/**
 * A TaskPushNotificationConfig to create: the JSON-RPC params, or the REST body, whose task the
 * path names (`taskId`: the path wins over the body).
 */
export function fromWirePushConfig(
  value: unknown,
  taskId?: string,
): { taskId: string; config: PushConfigInput } {
  const reader = new WireReader();
  const params = reader.object(value, taskId === undefined ? 'params' : 'body');
  reader.check();
  const task = taskId ?? reader.string(params!, 'taskId', '', true);
  const config = readPushConfig(reader, params, '', PROTO_JSON_GRAMMAR);
  reader.check();
  return { taskId: task!, config: config! };
}

/** `{taskId, id}`: GetTaskPushNotificationConfigRequest, DeleteTaskPushNotificationConfigRequest. */
export function fromWirePushConfigIdRequest(value: unknown): { taskId: string; id: string } {
  const reader = new WireReader();
  const params = reader.object(value, 'params');
  reader.check();
  const taskId = reader.string(params!, 'taskId', '', true);
  const id = reader.string(params!, 'id', '', true);
  reader.check();
  return { taskId: taskId!, id: id! };
}

/** ListTaskPushNotificationConfigsRequest, from JSON-RPC params or typed REST query values. */
export function fromWireListPushConfigsRequest(value: unknown): {
  taskId: string;
  page: PushConfigPageQuery;
} {
  const reader = new WireReader();
  const params = reader.object(value, 'params');
  reader.check();
  const taskId = reader.string(params!, 'taskId', '', true);
  const pageSize = reader.integer(params!, 'pageSize', '');
  const pageToken = reader.string(params!, 'pageToken', '');
  reader.check();
  return {
    taskId: taskId!,
    page: { ...(pageSize !== undefined && { pageSize }), ...(pageToken && { pageToken }) },
  };
}

const PART_MEMBERS = ['text', 'raw', 'url', 'data'] as const;

export function readPart(reader: WireReader, value: unknown, path: string): Part | undefined {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const present = PART_MEMBERS.filter((m) => obj[m] !== undefined && obj[m] !== null);
  if (present.length !== 1) {
    return reader.fail(
      path,
      `expected exactly one of text, raw, url, data; got ${present.length ? present.join(', ') : 'none'}`,
    );
  }
  const metadata = reader.struct(obj, 'metadata', path);
  const filename = reader.string(obj, 'filename', path);
  const mediaType = reader.string(obj, 'mediaType', path);
  const common = {
    ...(metadata && { metadata }),
    ...(filename && { filename }),
    ...(mediaType && { mediaType }),
  };
  const member = present[0]!;
  const content = obj[member];
  switch (member) {
    case 'text':
      if (typeof content !== 'string') return reader.fail(join(path, 'text'), 'expected a string');
      return { kind: 'text', text: content, ...common };
    case 'raw':
      if (typeof content !== 'string' || !BASE64.test(content)) {
        return reader.fail(join(path, 'raw'), 'expected base64-encoded bytes');
      }
      return { kind: 'bytes', bytes: content, ...common };
    case 'url':
      if (typeof content !== 'string') return reader.fail(join(path, 'url'), 'expected a string');
      return { kind: 'url', url: content, ...common };
    case 'data':
      return { kind: 'data', data: content as JsonValue, ...common };
  }
}

/**
 * `{id, historyLength?, currentGeneration?}` for GetTask (`currentGeneration`: the v1.1 draft's
 * long poll, §3.2.7); `{id}` for CancelTask and SubscribeToTask.
 */
export function fromWireTaskIdRequest(value: unknown): {
  id: string;
  historyLength?: number;
  currentGeneration?: number;
} {
  const reader = new WireReader();
  const params = reader.object(value, 'params');
  reader.check();
  const id = reader.string(params!, 'id', '', true);
  const historyLength = reader.integer(params!, 'historyLength', '');
  const currentGeneration = reader.integer(params!, 'currentGeneration', '');
  reader.check();
  return {
    id: id!,
    ...(historyLength !== undefined && { historyLength }),
    ...(currentGeneration !== undefined && { currentGeneration }),
  };
}

/** ListTasksRequest, from JSON-RPC params or from REST query values already typed as JSON. */
export function fromWireListTasksRequest(value: unknown): ListTasksQuery {
  const reader = new WireReader();
  const params = reader.object(value ?? {}, 'params');
  reader.check();
  const p = params!;
  const contextId = reader.string(p, 'contextId', '');
  const status = reader.enumValue(p, 'status', '', TASK_STATE_FROM_WIRE);
  const pageSize = reader.integer(p, 'pageSize', '');
  const pageToken = reader.string(p, 'pageToken', '');
  const historyLength = reader.integer(p, 'historyLength', '');
  const includeArtifacts = reader.boolean(p, 'includeArtifacts', '');
  const after = reader.string(p, 'statusTimestampAfter', '');
  let statusTimestampAfter: number | undefined;
  if (after !== undefined) {
    statusTimestampAfter = Date.parse(after);
    if (Number.isNaN(statusTimestampAfter) || !/^\d{4}-\d{2}-\d{2}T/.test(after)) {
      reader.fail(
        'statusTimestampAfter',
        `expected an ISO 8601 timestamp like 2026-01-01T00:00:00Z, got "${after}"`,
      );
    }
  }
  reader.check();
  // Set one by one: spreads of several of them gave each query a hidden class of its own (Node 20).
  const query: ListTasksQuery = {};
  if (contextId) query.contextId = contextId;
  // TASK_STATE_UNSPECIFIED means "no filter".
  if (status && status !== 'unknown') query.status = status;
  if (pageSize !== undefined) query.pageSize = pageSize;
  if (pageToken) query.pageToken = pageToken;
  if (historyLength !== undefined) query.historyLength = historyLength;
  if (includeArtifacts !== undefined) query.includeArtifacts = includeArtifacts;
  if (statusTimestampAfter !== undefined) query.statusTimestampAfter = statusTimestampAfter;
  return query;
}
