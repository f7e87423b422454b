/**
 * A2A v0.3 ProtoJSON ↔ domain, for both bindings of the v0.3 proto (`a2a.v1`, `a2a-v0.3.proto`):
 * HTTP+JSON, whose bodies are that ProtoJSON as its `google.api.http` annotations transcode it and as
 * the reference SDKs read and write it (a2a-python and a2a-go through `json_format`, @a2a-js/sdk's
 * v0.3 REST transport through its proto types), and gRPC, whose messages grpc/protos.ts turns into
 * the same ProtoJSON. That is not the v0.3 JSON-RPC shape: no `kind`, enums as `TASK_STATE_*`/`ROLE_*`, a
 * message's parts under `content`, `{"text"}`/`{"file"}`/`{"data"}` parts, a send answered as
 * `{"task"}` or `{"message"}`, stream items as `{"statusUpdate"}`, ...
 *
 * @note A send body in the v0.3 JSON-RPC shape (a message with `parts`) is read with that dialect's
 * codec: clients written from the spec's JSON examples send it, and nothing else is ambiguous.
 */
import type {
  Artifact,
  JsonObject,
  Message,
  Part,
  PushConfig,
  PushConfigInput,
  Role,
  SendRequest,
  TaskState,
  TaskStatus,
  TaskView,
} from '../../domain/types.js';
import type { DataItem } from '../../calls/wire.js';
import { fromWireSendRequest as fromJsonRpcSendRequest } from '../jsonrpc-v03/codec.js';
import { readPushConfig, readSendRequest, type SendRequestGrammar } from '../shared/send-request.js';
import { BASE64, describe, field, join, WireReader } from '../shared/wire-reader.js';

type WireObject = Record<string, unknown>;

/** The v0.3 proto's TaskState: v1.0's names, but `CANCELLED`, and the same numbers. */
const TASK_STATE_TO_PROTO = Object.freeze({
  unknown: 'TASK_STATE_UNSPECIFIED',
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELLED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
} as const satisfies Record<TaskState, string>);

const ROLE_TO_PROTO = Object.freeze({ user: 'ROLE_USER', agent: 'ROLE_AGENT' } as const satisfies Record<
  Role,
  string
>);

const ROLE_FROM_PROTO: ReadonlyMap<string | number, Role> = new Map<string | number, Role>([
  ['ROLE_USER', 'user'],
  [1, 'user'],
  ['ROLE_AGENT', 'agent'],
  [2, 'agent'],
]);

// ---------------------------------------------------------------------------------------------
// Domain → wire

export function toProtoTask(task: TaskView): WireObject {
  return {
    id: task.id,
    contextId: task.contextId,
    status: toProtoStatus(task.status),
    ...(task.artifacts?.length && { artifacts: task.artifacts.map(toProtoArtifact) }),
    ...(task.history?.length && { history: task.history.map(toProtoMessage) }),
    ...(task.metadata && { metadata: task.metadata }),
  };
}

function toProtoStatus(status: TaskStatus): WireObject {
  return {
    state: TASK_STATE_TO_PROTO[status.state],
    ...(status.message && { message: toProtoMessage(status.message) }),
    timestamp: status.timestamp,
  };
}

export function toProtoMessage(message: Message): WireObject {
  return {
    messageId: message.messageId,
    ...(message.contextId && { contextId: message.contextId }),
    ...(message.taskId && { taskId: message.taskId }),
    role: ROLE_TO_PROTO[message.role],
    content: message.parts.map(toProtoPart),
    ...(message.metadata && { metadata: message.metadata }),
    ...(message.extensions?.length && { extensions: message.extensions }),
  };
}

function toProtoArtifact(artifact: Artifact): WireObject {
  return {
    artifactId: artifact.artifactId,
    ...(artifact.name && { name: artifact.name }),
    ...(artifact.description && { description: artifact.description }),
    parts: artifact.parts.map(toProtoPart),
    ...(artifact.metadata && { metadata: artifact.metadata }),
    ...(artifact.extensions?.length && { extensions: artifact.extensions }),
  };
}

/**
 * @note The v0.3 proto's Part has no metadata and its FilePart no file name: both are dropped. Its
 * DataPart holds a Struct, so a value that is not an object travels as `{"value": …}`.
 */
function toProtoPart(part: Part): WireObject {
  switch (part.kind) {
    case 'text':
      return { text: part.text };
    case 'bytes':
    case 'url':
      return {
        file: {
          ...(part.kind === 'bytes' ? { fileWithBytes: part.bytes } : { fileWithUri: part.url }),
          ...(part.mediaType && { mimeType: part.mediaType }),
        },
      };
    case 'data':
      return { data: { data: isJsonObject(part.data) ? part.data : { value: part.data } } };
  }
}

/** One stream item as a v0.3 `StreamResponse`: `{"task"}`, `{"message"}`, `{"statusUpdate"}` or `{"artifactUpdate"}`. */
export function toProtoStreamResponse(item: DataItem): WireObject {
  if (item.kind === 'message') return { message: toProtoMessage(item.message) };
  if (item.kind === 'snapshot') return { task: toProtoTask(item.task) };
  const { taskId, contextId, event } = item.event;
  switch (event.kind) {
    case 'task':
      return { task: toProtoTask(event.task) };
    case 'status':
      return {
        statusUpdate: {
          taskId,
          contextId,
          status: toProtoStatus(event.status),
          // ProtoJSON writers leave false out.
          ...(item.last === true && { final: true }),
        },
      };
    case 'artifact':
      return {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: toProtoArtifact(event.artifact),
          ...(event.append && { append: true }),
          ...(event.lastChunk && { lastChunk: true }),
        },
      };
  }
}

/** A TaskPushNotificationConfig: the config named by its resource name, auth `schemes` as a list. */
export function toProtoPushConfig(config: PushConfig): WireObject {
  const { id, taskId, url, token, authentication } = config;
  return {
    name: `tasks/${taskId}/pushNotificationConfigs/${id}`,
    pushNotificationConfig: {
      id,
      url,
      ...(token && { token }),
      ...(authentication && {
        authentication: {
          schemes: [authentication.scheme],
          ...(authentication.credentials && { credentials: authentication.credentials }),
        },
      }),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Wire → domain

/** The body of `POST /v1/message:send` and `:stream`: a v0.3 SendMessageRequest. */
export function fromProtoSendRequest(value: unknown): SendRequest {
  const message = isJsonObject(value) ? field(value, 'message') : undefined;
  if (isJsonObject(message) && field(message, 'content') === undefined && 'parts' in message) {
    return fromJsonRpcSendRequest(value);
  }
  return readSendRequest(value, PROTO_GRAMMAR);
}

const PROTO_GRAMMAR: SendRequestGrammar = {
  roles: ROLE_FROM_PROTO,
  userRole: 'ROLE_USER',
  partExample: '{"text": "hello"}',
  partsKey: 'content',
  readPart,
  /**
   * A ProtoJSON writer leaves `blocking: false` out, so within a configuration its absence means
   * "answer at once", as a proto reader takes it. Without a configuration the send blocks, as on
   * every other binding.
   */
  readReturnImmediately: (reader, config, path) => reader.boolean(config, 'blocking', path) !== true,
  pushConfigKey: 'pushNotification',
  readAuthScheme: (reader, auth, path) => {
    const schemes = reader.stringList(auth, 'schemes', path);
    return schemes?.length
      ? schemes[0]
      : reader.fail(join(path, 'schemes'), 'needs a scheme, e.g. ["Bearer"]');
  },
};

/**
 * The body of `POST /v1/tasks/{id}/pushNotificationConfigs`: a TaskPushNotificationConfig (the
 * proto's `body: "config"`), or the spec text's `{"config": …}` around one.
 */
export function fromProtoPushConfig(value: unknown): PushConfigInput {
  const reader = new WireReader();
  let body = reader.object(value, 'body');
  reader.check();
  const wrapped = field(body!, 'config');
  if (wrapped != null) {
    body = reader.object(wrapped, 'config');
    reader.check();
  }
  const raw = field(body!, 'pushNotificationConfig');
  const config =
    raw == null
      ? reader.fail('pushNotificationConfig', 'is required, e.g. {"url": "https://client.example/hook"}')
      : readPushConfig(reader, raw, 'pushNotificationConfig', PROTO_GRAMMAR);
  reader.check();
  return config!;
}

/** The task a resource name names: `tasks/{id}` (a v0.3 gRPC request's `name` or `parent`). */
export function fromProtoTaskName(value: unknown, key: 'name' | 'parent'): string {
  return fromProtoName(value, key, TASK_NAME, 'tasks/{id}').taskId;
}

/** The config a resource name names: `tasks/{id}/pushNotificationConfigs/{configId}`. */
export function fromProtoPushConfigName(value: unknown): { taskId: string; configId: string } {
  const { taskId, configId } = fromProtoName(
    value,
    'name',
    PUSH_CONFIG_NAME,
    'tasks/{id}/pushNotificationConfigs/{configId}',
  );
  return { taskId, configId: configId! };
}

/** A GetTaskRequest: `{name: "tasks/{id}", historyLength?}`. */
export function fromProtoGetTaskRequest(value: unknown): { id: string; historyLength?: number } {
  const id = fromProtoTaskName(value, 'name');
  const reader = new WireReader();
  const historyLength = reader.integer(value as WireObject, 'historyLength', '');
  reader.check();
  return { id, ...(historyLength !== undefined && { historyLength }) };
}

/**
 * A CreateTaskPushNotificationConfigRequest: `{parent: "tasks/{id}", configId, config}`. The
 * config's own `id` wins over `configId`; either names the config, or the server makes its id.
 */
export function fromProtoCreatePushConfigRequest(value: unknown): { taskId: string; input: PushConfigInput } {
  const taskId = fromProtoTaskName(value, 'parent');
  const input = fromProtoPushConfig(value);
  const configId = field(value as WireObject, 'configId');
  if (input.id !== undefined || typeof configId !== 'string' || configId === '') return { taskId, input };
  return { taskId, input: { ...input, id: configId } };
}

const TASK_NAME = /^tasks\/([^/]+)$/;
const PUSH_CONFIG_NAME = /^tasks\/([^/]+)\/pushNotificationConfigs\/([^/]+)$/;

function fromProtoName(
  value: unknown,
  key: string,
  pattern: RegExp,
  form: string,
): { taskId: string; configId?: string } {
  const reader = new WireReader();
  const request = reader.object(value, 'request');
  reader.check();
  const name = reader.string(request!, key, '');
  const match = name === undefined ? null : pattern.exec(name);
  if (!match) reader.fail(key, `expected a resource name like "${form}", got ${describe(name)}`);
  reader.check();
  return { taskId: match![1]!, ...(match![2] !== undefined && { configId: match![2] }) };
}

function readPart(reader: WireReader, value: unknown, path: string): Part | undefined {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const text = field(obj, 'text');
  const file = field(obj, 'file');
  const data = field(obj, 'data');
  const set = [text, file, data].filter((member) => member != null).length;
  if (set !== 1) return reader.fail(path, 'expected exactly one of text, file, data');
  if (text != null) {
    if (typeof text !== 'string')
      return reader.fail(join(path, 'text'), `expected a string, got ${describe(text)}`);
    return { kind: 'text', text };
  }
  if (file != null) return readFilePart(reader, file, join(path, 'file'));
  const dataPath = join(path, 'data');
  const holder = reader.object(data, dataPath);
  const struct = holder && field(holder, 'data');
  if (!isJsonObject(struct)) {
    return reader.fail(join(dataPath, 'data'), `expected an object, got ${describe(struct)}`);
  }
  return { kind: 'data', data: struct };
}

function readFilePart(reader: WireReader, value: unknown, path: string): Part | undefined {
  const file = reader.object(value, path);
  if (!file) return undefined;
  const mimeType = reader.string(file, 'mimeType', path);
  const common = mimeType ? { mediaType: mimeType } : {};
  const bytes = field(file, 'fileWithBytes');
  const uri = field(file, 'fileWithUri');
  if ((bytes == null) === (uri == null))
    return reader.fail(path, 'expected exactly one of fileWithUri, fileWithBytes');
  if (bytes != null) {
    if (typeof bytes !== 'string' || !BASE64.test(bytes)) {
      return reader.fail(join(path, 'fileWithBytes'), 'expected base64-encoded bytes');
    }
    return { kind: 'bytes', bytes, ...common };
  }
  if (typeof uri !== 'string') return reader.fail(join(path, 'fileWithUri'), 'expected a string');
  return { kind: 'url', url: uri, ...common };
}

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
