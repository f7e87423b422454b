/**
 * A2A v1.0 as a client speaks it to a real agent, in ProtoJSON: the same shapes over the REST and
 * the JSON-RPC binding. Requests are written by the server's own encoders; answers are read with
 * the server's part grammar, so the simulator reads from an agent exactly what it accepts from a
 * client (snake_case, enum numbers, unknown fields ignored).
 */
import type { WireReader } from '../bindings/shared/wire-reader.js';
import { readPart, toWireMessage } from '../bindings/v1/codec.js';
import type { Role, SendRequest, Task } from '../domain/types.js';
import { TASK_STATE_FROM_WIRE } from '../domain/wire-states.js';
import type { UpstreamItem } from '../runtime/api.js';
import {
  decodeAgentValue,
  readArtifactUpdate,
  readMessageItem,
  readTaskItem,
  readOneMember,
  readStatusUpdate,
  readTask,
  type ObjectGrammar,
} from './agent-objects.js';
import type { UpstreamDialect } from './dialect.js';
import { rpcErrorFromWire } from './rpc-errors.js';

const ROLE_FROM_WIRE: ReadonlyMap<string | number, Role> = new Map<string | number, Role>([
  ['ROLE_USER', 'user'],
  [1, 'user'],
  ['ROLE_AGENT', 'agent'],
  [2, 'agent'],
]);

const PROTO_JSON_OBJECTS: ObjectGrammar = {
  states: TASK_STATE_FROM_WIRE,
  roles: ROLE_FROM_WIRE,
  readPart,
  taskContextIdRequired: false,
};

const SEND_RESPONSE_MEMBERS = ['task', 'message'] as const;
const STREAM_RESPONSE_MEMBERS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

export const V1_DIALECT: UpstreamDialect = {
  sendParams(request: SendRequest, blocking: boolean): Record<string, unknown> {
    const { acceptedOutputModes, historyLength } = request.configuration ?? {};
    return {
      message: toWireMessage(request.message),
      configuration: {
        ...(acceptedOutputModes?.length && { acceptedOutputModes }),
        ...(historyLength !== undefined && { historyLength }),
        // Always written, though false is the default: the caller decides, not the agent's default.
        returnImmediately: !blocking,
      },
      ...(request.metadata && { metadata: request.metadata }),
    };
  },

  sendResult(value: unknown): UpstreamItem {
    return decodeAgentValue((reader) => {
      const found = readOneMember(reader, value, 'SendMessageResponse', SEND_RESPONSE_MEMBERS);
      return found && readStreamMember(reader, found.member, found.content);
    });
  },

  streamItem(value: unknown): UpstreamItem {
    return decodeAgentValue((reader) => {
      const found = readOneMember(reader, value, 'StreamResponse', STREAM_RESPONSE_MEMBERS);
      return found && readStreamMember(reader, found.member, found.content);
    });
  },

  task(value: unknown): Task {
    return decodeAgentValue((reader) => readTask(reader, value, 'task', PROTO_JSON_OBJECTS));
  },

  rpcError: rpcErrorFromWire,
};

/** One member of a StreamResponse (or of a SendMessageResponse, whose members are a subset). */
function readStreamMember(
  reader: WireReader,
  member: (typeof STREAM_RESPONSE_MEMBERS)[number],
  content: unknown,
): UpstreamItem | undefined {
  switch (member) {
    case 'task':
      return readTaskItem(reader, content, member, PROTO_JSON_OBJECTS);
    case 'message':
      return readMessageItem(reader, content, member, PROTO_JSON_OBJECTS);
    case 'statusUpdate':
      return readStatusUpdate(reader, content, member, PROTO_JSON_OBJECTS);
    case 'artifactUpdate':
      return readArtifactUpdate(reader, content, member, PROTO_JSON_OBJECTS);
  }
}
