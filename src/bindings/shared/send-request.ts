/**
 * Reads a SendMessageRequest in any dialect. The envelope, the message fields and the send
 * configuration read alike in v1.0 and v0.3; a dialect supplies what differs: role names, its part
 * grammar and its spelling of "answer at once" (v1.0 `returnImmediately`, v0.3 `blocking`, inverted).
 */
import { A2AError } from '../../domain/errors.js';
import type { Message, Part, Role, SendConfiguration, SendRequest } from '../../domain/types.js';
import { describe, field, join, WireReader } from './wire-reader.js';

export interface SendRequestGrammar {
  roles: ReadonlyMap<string | number, Role>;
  /** The user role as the dialect spells it, for the hint when the role is missing. */
  userRole: string;
  /** One part as the dialect writes it, for the hint when the parts are missing. */
  partExample: string;
  /** The `kind` a message must carry when it names one (v0.3 objects are tagged; v1.0 has none). */
  messageKind?: string;
  readPart(reader: WireReader, value: unknown, path: string): Part | undefined;
  readReturnImmediately(
    reader: WireReader,
    config: Record<string, unknown>,
    path: string,
  ): boolean | undefined;
}

/** The JSON-RPC params, or the REST body, as a SendRequest; InvalidParamsError lists every violation. */
export function readSendRequest(value: unknown, grammar: SendRequestGrammar): SendRequest {
  const reader = new WireReader();
  const body = reader.object(value, 'params');
  reader.check();
  const message = readMessage(reader, field(body!, 'message'), 'message', grammar);
  const configuration = readConfiguration(reader, field(body!, 'configuration'), grammar);
  const metadata = reader.struct(body!, 'metadata', '');
  reader.check();
  return { message: message!, ...(configuration && { configuration }), ...(metadata && { metadata }) };
}

/** Push configs are refused whole: this agent does not push (capabilities.pushNotifications false). */
const PUSH_CONFIG_KEYS = ['taskPushNotificationConfig', 'pushNotificationConfig'] as const;

function readConfiguration(
  reader: WireReader,
  value: unknown,
  grammar: SendRequestGrammar,
): SendConfiguration | undefined {
  if (value === undefined || value === null) return undefined;
  const config = reader.object(value, 'configuration');
  if (!config) return undefined;
  const pushKey = PUSH_CONFIG_KEYS.find((key) => field(config, key) != null);
  if (pushKey) {
    throw new A2AError(
      'PushNotificationNotSupportedError',
      `Push notifications are not supported: remove configuration.${pushKey}, or stream the task instead.`,
    );
  }
  const acceptedOutputModes = reader.stringList(config, 'acceptedOutputModes', 'configuration');
  const historyLength = reader.integer(config, 'historyLength', 'configuration');
  const returnImmediately = grammar.readReturnImmediately(reader, config, 'configuration');
  return {
    ...(acceptedOutputModes && { acceptedOutputModes }),
    ...(historyLength !== undefined && { historyLength }),
    ...(returnImmediately !== undefined && { returnImmediately }),
  };
}

function readMessage(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: SendRequestGrammar,
): Message | undefined {
  if (value === undefined || value === null) return reader.fail(path, 'is required');
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const kind = obj['kind'];
  if (grammar.messageKind !== undefined && kind !== undefined && kind !== grammar.messageKind) {
    reader.fail(join(path, 'kind'), `expected "${grammar.messageKind}", got ${describe(kind)}`);
  }
  const messageId = reader.string(obj, 'messageId', path, true);
  const role = reader.enumValue(obj, 'role', path, grammar.roles);
  if (role === undefined && field(obj, 'role') == null)
    reader.fail(join(path, 'role'), `is required (${grammar.userRole})`);
  const contextId = reader.string(obj, 'contextId', path);
  const taskId = reader.string(obj, 'taskId', path);
  const metadata = reader.struct(obj, 'metadata', path);
  const extensions = reader.stringList(obj, 'extensions', path);
  const referenceTaskIds = reader.stringList(obj, 'referenceTaskIds', path);
  const rawParts = field(obj, 'parts');
  let parts: Part[] = [];
  if (!Array.isArray(rawParts) || rawParts.length === 0) {
    reader.fail(join(path, 'parts'), `needs at least one part, e.g. [${grammar.partExample}]`);
  } else {
    parts = rawParts.flatMap((p, i) => grammar.readPart(reader, p, join(join(path, 'parts'), i)) ?? []);
  }
  if (!messageId || !role) return undefined;
  return {
    messageId,
    role,
    parts,
    ...(contextId && { contextId }),
    ...(taskId && { taskId }),
    ...(metadata && { metadata }),
    ...(extensions && { extensions }),
    ...(referenceTaskIds && { referenceTaskIds }),
  };
}
