/**
 * A2A v0.3 JSON ↔ domain (§1 of the protocol digest): objects carry a `kind`, states and roles
 * are lowercase (spelled exactly as the domain spells them), files nest under `file`, and `data`
 * parts hold objects only. Input is read as leniently as the v1.0 codec reads ProtoJSON.
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
  TaskStatus,
  TaskView,
} from '../../domain/types.js';
import type { DataItem } from '../../calls/wire.js';
import { readPushConfig, readSendRequest, type SendRequestGrammar } from '../shared/send-request.js';
import { BASE64, describe, field, join, WireReader } from '../shared/wire-reader.js';

type WireObject = Record<string, unknown>;

/**
 * The SDK's convention for a `data` value that is not an object: sent as `{"value": x}` with this
 * metadata flag set to true, and unwrapped on receipt.
 */
const DATA_PART_COMPAT_FLAG = 'data_part_compat';

const ROLE_FROM_WIRE: ReadonlyMap<string | number, Role> = new Map<string | number, Role>([
  ['user', 'user'],
  ['agent', 'agent'],
]);

// ---------------------------------------------------------------------------------------------
// Domain → wire

export function toWireTask(task: TaskView): WireObject {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: toWireStatus(task.status),
    ...(task.artifacts && { artifacts: task.artifacts.map(toWireArtifact) }),
    ...(task.history && { history: task.history.map(toWireMessage) }),
    ...(task.metadata && { metadata: task.metadata }),
  };
}

function toWireStatus(status: TaskStatus): WireObject {
  return {
    state: status.state,
    ...(status.message && { message: toWireMessage(status.message) }),
    timestamp: status.timestamp,
  };
}

export function toWireMessage(message: Message): WireObject {
  return {
    kind: 'message',
    messageId: message.messageId,
    ...(message.contextId && { contextId: message.contextId }),
    ...(message.taskId && { taskId: message.taskId }),
    role: message.role,
    parts: message.parts.map(toWirePart),
    ...(message.metadata && { metadata: message.metadata }),
    ...(message.extensions?.length && { extensions: message.extensions }),
    ...(message.referenceTaskIds?.length && { referenceTaskIds: message.referenceTaskIds }),
  };
}

function toWireArtifact(artifact: Artifact): WireObject {
  return {
    artifactId: artifact.artifactId,
    ...(artifact.name && { name: artifact.name }),
    ...(artifact.description && { description: artifact.description }),
    parts: artifact.parts.map(toWirePart),
    ...(artifact.metadata && { metadata: artifact.metadata }),
    ...(artifact.extensions?.length && { extensions: artifact.extensions }),
  };
}

/** @note v0.3 has no media type or file name on text and data parts: they are dropped there. */
function toWirePart(part: Part): WireObject {
  const metadata = part.metadata && { metadata: part.metadata };
  switch (part.kind) {
    case 'text':
      return { kind: 'text', text: part.text, ...metadata };
    case 'bytes':
    case 'url':
      return {
        kind: 'file',
        file: {
          ...(part.kind === 'bytes' ? { bytes: part.bytes } : { uri: part.url }),
          ...(part.filename && { name: part.filename }),
          ...(part.mediaType && { mimeType: part.mediaType }),
        },
        ...metadata,
      };
    case 'data':
      if (isJsonObject(part.data)) return { kind: 'data', data: part.data, ...metadata };
      return {
        kind: 'data',
        data: { value: part.data },
        metadata: { ...part.metadata, [DATA_PART_COMPAT_FLAG]: true },
      };
  }
}

/** One stream item as the bare `kind` object a v0.3 SSE frame carries as its `result`. */
export function toWireStreamResponse(item: DataItem): WireObject {
  if (item.kind === 'message') return toWireMessage(item.message);
  if (item.kind === 'snapshot') return toWireTask(item.task);
  const { taskId, contextId, event } = item.event;
  switch (event.kind) {
    case 'task':
      return toWireTask(event.task);
    case 'status':
      return {
        kind: 'status-update',
        taskId,
        contextId,
        status: toWireStatus(event.status),
        final: item.last === true,
      };
    case 'artifact':
      return {
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: toWireArtifact(event.artifact),
        ...(event.append && { append: true }),
        ...(event.lastChunk && { lastChunk: true }),
      };
  }
}

/** A TaskPushNotificationConfig: `{taskId, pushNotificationConfig}`, auth `schemes` as a list. */
export function toWirePushConfig(config: PushConfig): WireObject {
  const { id, taskId, url, token, authentication } = config;
  return {
    taskId,
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

/** `message/send` and `message/stream` params (MessageSendParams). */
export function fromWireSendRequest(value: unknown): SendRequest {
  return readSendRequest(value, V03_GRAMMAR);
}

const V03_GRAMMAR: SendRequestGrammar = {
  roles: ROLE_FROM_WIRE,
  userRole: 'user',
  partExample: '{"kind": "text", "text": "hello"}',
  messageKind: 'message',
  readPart,
  // Absent means blocking (PROJECT rule): only an explicit `blocking: false` answers at once.
  readReturnImmediately: (reader, config, path) => {
    const blocking = reader.boolean(config, 'blocking', path);
    return blocking === undefined ? undefined : !blocking;
  },
  pushConfigKey: 'pushNotificationConfig',
  // v1.0 keeps one scheme; so does the SDK's translation: the first.
  readAuthScheme: (reader, auth, path) => {
    const schemes = field(auth, 'schemes');
    if (schemes == null || (Array.isArray(schemes) && schemes.length === 0)) {
      return reader.fail(join(path, 'schemes'), 'needs a scheme, e.g. ["Bearer"]');
    }
    return reader.stringList(auth, 'schemes', path)?.[0];
  },
};

/** `tasks/pushNotificationConfig/set` params: `{taskId, pushNotificationConfig}`. */
export function fromWirePushConfig(value: unknown): { taskId: string; config: PushConfigInput } {
  const reader = new WireReader();
  const params = reader.object(value, 'params');
  reader.check();
  const taskId = reader.string(params!, 'taskId', '', true);
  const raw = field(params!, 'pushNotificationConfig');
  const config =
    raw == null
      ? reader.fail('pushNotificationConfig', 'is required')
      : readPushConfig(reader, raw, 'pushNotificationConfig', V03_GRAMMAR);
  reader.check();
  return { taskId: taskId!, config: config! };
}

/**
 * `tasks/pushNotificationConfig/get` and `…/delete` params: the task by `id`, the config by
 * `pushNotificationConfigId` (optional for get: the task's first config).
 */
export function fromWirePushConfigIdRequest(
  value: unknown,
  configRequired: boolean,
): { taskId: string; configId?: string } {
  const reader = new WireReader();
  const params = reader.object(value, 'params');
  reader.check();
  const taskId = reader.string(params!, 'id', '', true);
  const configId = reader.string(params!, 'pushNotificationConfigId', '', configRequired);
  reader.check();
  return { taskId: taskId!, ...(configId !== undefined && { configId }) };
}

export function readPart(reader: WireReader, value: unknown, path: string): Part | undefined {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const metadata = reader.struct(obj, 'metadata', path);
  switch (obj['kind']) {
    case 'text': {
      const text = obj['text'];
      if (typeof text !== 'string') return reader.fail(join(path, 'text'), 'expected a string');
      return { kind: 'text', text, ...(metadata && { metadata }) };
    }
    case 'file':
      return readFilePart(reader, obj, path, metadata);
    case 'data':
      return readDataPart(reader, obj, path, metadata);
    default:
      return reader.fail(
        join(path, 'kind'),
        `expected one of text, file, data, got ${describe(obj['kind'])}`,
      );
  }
}

function readFilePart(
  reader: WireReader,
  obj: WireObject,
  path: string,
  metadata: JsonObject | undefined,
): Part | undefined {
  const filePath = join(path, 'file');
  const file = reader.object(obj['file'], filePath);
  if (!file) return undefined;
  const name = reader.string(file, 'name', filePath);
  const mimeType = reader.string(file, 'mimeType', filePath);
  const common = {
    ...(metadata && { metadata }),
    ...(name && { filename: name }),
    ...(mimeType && { mediaType: mimeType }),
  };
  const bytes = field(file, 'bytes');
  const uri = field(file, 'uri');
  if ((bytes == null) === (uri == null)) return reader.fail(filePath, 'expected exactly one of bytes, uri');
  if (bytes != null) {
    if (typeof bytes !== 'string' || !BASE64.test(bytes)) {
      return reader.fail(join(filePath, 'bytes'), 'expected base64-encoded bytes');
    }
    return { kind: 'bytes', bytes, ...common };
  }
  if (typeof uri !== 'string') return reader.fail(join(filePath, 'uri'), 'expected a string');
  return { kind: 'url', url: uri, ...common };
}

function readDataPart(
  reader: WireReader,
  obj: WireObject,
  path: string,
  metadata: JsonObject | undefined,
): Part | undefined {
  const data = obj['data'];
  if (!isJsonObject(data)) {
    return reader.fail(
      join(path, 'data'),
      `expected an object, got ${describe(data)}; send other values as {"value": …} with metadata.${DATA_PART_COMPAT_FLAG} = true`,
    );
  }
  if (metadata?.[DATA_PART_COMPAT_FLAG] !== true || !('value' in data)) {
    return { kind: 'data', data, ...(metadata && { metadata }) };
  }
  const { [DATA_PART_COMPAT_FLAG]: _flag, ...rest } = metadata;
  return { kind: 'data', data: data['value']!, ...(Object.keys(rest).length && { metadata: rest }) };
}

/**
 * `tasks/resubscribe` params: the task by `id` (v0.3) or `taskId` (the gateway's name), and an
 * optional `afterSeq`, the last event seq the client has, to resume after it.
 */
export function fromWireSubscribeRequest(value: unknown): { id: string; afterSeq?: number } {
  const reader = new WireReader();
  const params = reader.object(value, 'params');
  reader.check();
  const p = params!;
  // `id` is the v0.3 name, `taskId` the gateway's: either will do, and both must agree.
  const named = field(p, 'id') == null && field(p, 'taskId') != null ? 'taskId' : 'id';
  const id = reader.string(p, named, '', true);
  const alias = named === 'id' ? reader.string(p, 'taskId', '') : undefined;
  if (id !== undefined && alias !== undefined && alias !== id) {
    reader.fail('taskId', `names task ${alias}, but id names task ${id}; send one of them`);
  }
  const afterSeq = reader.integer(p, 'afterSeq', '');
  if (afterSeq !== undefined && afterSeq < 0) {
    reader.fail('afterSeq', `must be a non-negative integer (an event seq), got ${afterSeq}`);
  }
  reader.check();
  return { id: id!, ...(afterSeq !== undefined && { afterSeq }) };
}

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
