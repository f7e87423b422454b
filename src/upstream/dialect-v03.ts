/**
 * A2A v0.3 JSON-RPC as a client speaks it to a real agent (§1 of the protocol digest): results are
 * bare objects told apart by `kind`, states and roles are lowercase, files nest under `file`.
 * Requests are written by the v0.3 server codec's encoders, parts read with its part grammar.
 */
import { describe, type WireReader } from '../bindings/shared/wire-reader.js';
import { readPart, toWireMessage } from '../bindings/jsonrpc-v03/codec.js';
import { TASK_STATES, type Role, type SendRequest, type Task, type TaskState } from '../domain/types.js';
import type { UpstreamItem } from '../runtime/api.js';
import {
  decodeAgentValue,
  readArtifactUpdate,
  readMessageItem,
  readTaskItem,
  readStatusUpdate,
  readTask,
  type ObjectGrammar,
} from './agent-objects.js';
import type { UpstreamDialect } from './dialect.js';
import { rpcErrorFromWire } from './rpc-errors.js';

/** v0.3 spells every state as the domain does, `unknown` included. */
const STATE_FROM_WIRE: ReadonlyMap<string | number, TaskState> = new Map<string | number, TaskState>(
  [...TASK_STATES, 'unknown' as const].map((state): [string, TaskState] => [state, state]),
);

const ROLE_FROM_WIRE: ReadonlyMap<string | number, Role> = new Map<string | number, Role>([
  ['user', 'user'],
  ['agent', 'agent'],
]);

const V03_OBJECTS: ObjectGrammar = {
  states: STATE_FROM_WIRE,
  roles: ROLE_FROM_WIRE,
  readPart,
  kinds: { task: 'task', message: 'message' },
  taskContextIdRequired: true,
};

type ResultKind = 'task' | 'message' | 'status-update' | 'artifact-update';

const SEND_RESULT_KINDS: readonly ResultKind[] = ['task', 'message'];
const STREAM_RESULT_KINDS: readonly ResultKind[] = ['task', 'message', 'status-update', 'artifact-update'];

/** Where the answer sits in the JSON-RPC response, so a path reads `result.status.state`. */
const RESULT = 'result';

export const V03_DIALECT: UpstreamDialect = {
  sendParams(request: SendRequest, blocking: boolean): Record<string, unknown> {
    const { acceptedOutputModes, historyLength } = request.configuration ?? {};
    return {
      message: toWireMessage(request.message),
      configuration: {
        ...(acceptedOutputModes?.length && { acceptedOutputModes }),
        ...(historyLength !== undefined && { historyLength }),
        // Always written: agents disagree on what an absent `blocking` means.
        blocking,
      },
      ...(request.metadata && { metadata: request.metadata }),
    };
  },

  sendResult(value: unknown): UpstreamItem {
    return decodeAgentValue((reader) => readResult(reader, value, SEND_RESULT_KINDS));
  },

  streamItem(value: unknown): UpstreamItem {
    return decodeAgentValue((reader) => readResult(reader, value, STREAM_RESULT_KINDS));
  },

  task(value: unknown): Task {
    return decodeAgentValue((reader) => readTask(reader, value, 'task', V03_OBJECTS));
  },

  rpcError: rpcErrorFromWire,
};

/**
 * A kind-tagged result. Here `kind` is what tells the objects apart, so it is required, unlike in
 * nested messages, where a missing tag is forgiven.
 */
function readResult(
  reader: WireReader,
  value: unknown,
  accepted: readonly ResultKind[],
): UpstreamItem | undefined {
  const obj = reader.object(value, RESULT);
  if (!obj) return undefined;
  const kind = accepted.find((k) => k === obj['kind']);
  switch (kind) {
    case 'task':
      return readTaskItem(reader, obj, RESULT, V03_OBJECTS);
    case 'message':
      return readMessageItem(reader, obj, RESULT, V03_OBJECTS);
    case 'status-update':
      // `final` only marks the stream's end, which the stream's close says as well; it must still
      // be what the schema says it is.
      reader.boolean(obj, 'final', RESULT);
      return readStatusUpdate(reader, obj, RESULT, V03_OBJECTS);
    case 'artifact-update':
      return readArtifactUpdate(reader, obj, RESULT, V03_OBJECTS);
    case undefined: {
      const got = obj['kind'] == null ? 'none' : describe(obj['kind']);
      return reader.fail(`${RESULT}.kind`, `expected one of ${accepted.join(', ')}, got ${got}`);
    }
  }
}
