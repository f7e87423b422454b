/**
 * Reads a SendMessageRequest, and a push notification config, in any dialect. The envelope, the
 * message fields, the send configuration and the config read alike in v1.0 and v0.3; a dialect
 * supplies what differs: role names, its part grammar, its spelling of "answer at once" (v1.0
 * `returnImmediately`, v0.3 `blocking`, inverted), the key of an inline push config (v1.0
 * `taskPushNotificationConfig`, v0.3 `pushNotificationConfig`) and its auth scheme (v1.0 `scheme`,
 * v0.3 `schemes[]`).
 */
import type {
  Message,
  Part,
  PushConfigInput,
  Role,
  SendConfiguration,
  SendRequest,
} from '../../domain/types.js';
import { describe, field, join, WireReader } from './wire-reader.js';

export interface SendRequestGrammar {
  roles: ReadonlyMap<string | number, Role>;
  /** The user role as the dialect spells it, for the hint when the role is missing. */
  userRole: string;
  /** One part as the dialect writes it, for the hint when the parts are missing. */
  partExample: string;
  /** The `kind` a message must carry when it names one (v0.3 objects are tagged; v1.0 has none). */
  messageKind?: string;
  /** Where a message keeps its parts: `parts`, but `content` in the v0.3 proto. */
  partsKey?: string;
  readPart(reader: WireReader, value: unknown, path: string): Part | undefined;
  readReturnImmediately(
    reader: WireReader,
    config: Record<string, unknown>,
    path: string,
  ): boolean | undefined;
  /** Where `configuration` holds a push config for the task the message creates. */
  pushConfigKey: string;
  /** Whether `configuration.ifGenerationMatch` is read (the v1.1 draft's field, on the v1.0 shapes). */
  generation?: boolean;
  /** The scheme of a push config's `authentication`. */
  readAuthScheme(reader: WireReader, auth: Record<string, unknown>, path: string): string | undefined;
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

function readConfiguration(
  reader: WireReader,
  value: unknown,
  grammar: SendRequestGrammar,
): SendConfiguration | undefined {
  if (value === undefined || value === null) return undefined;
  const config = reader.object(value, 'configuration');
  if (!config) return undefined;
  const acceptedOutputModes = reader.stringList(config, 'acceptedOutputModes', 'configuration');
  const historyLength = reader.integer(config, 'historyLength', 'configuration');
  const returnImmediately = grammar.readReturnImmediately(reader, config, 'configuration');
  const ifGenerationMatch = grammar.generation
    ? reader.integer(config, 'ifGenerationMatch', 'configuration')
    : undefined;
  const rawPush = field(config, grammar.pushConfigKey);
  const pushConfig =
    rawPush == null
      ? undefined
      : readPushConfig(reader, rawPush, join('configuration', grammar.pushConfigKey), grammar);
  // Set one by one: spreads of several of them gave each configuration a hidden class of its own (Node 20).
  const configuration: SendConfiguration = {};
  if (acceptedOutputModes) configuration.acceptedOutputModes = acceptedOutputModes;
  if (historyLength !== undefined) configuration.historyLength = historyLength;
  if (returnImmediately !== undefined) configuration.returnImmediately = returnImmediately;
  if (pushConfig) configuration.pushConfig = pushConfig;
  if (ifGenerationMatch !== undefined) configuration.ifGenerationMatch = ifGenerationMatch;
  return configuration;
}

/** `{id?, url, token?, authentication?}`: a push config's own fields, without its task. */
export function readPushConfig(
  reader: WireReader,
  value: unknown,
  path: string,
  grammar: Pick<SendRequestGrammar, 'readAuthScheme'>,
): PushConfigInput | undefined {
  const obj = reader.object(value, path);
  if (!obj) return undefined;
  const id = reader.string(obj, 'id', path);
  const url = reader.string(obj, 'url', path, true);
  const token = reader.string(obj, 'token', path);
  const authPath = join(path, 'authentication');
  const rawAuth = field(obj, 'authentication');
  const auth = rawAuth == null ? undefined : reader.object(rawAuth, authPath);
  const scheme = auth && grammar.readAuthScheme(reader, auth, authPath);
  const credentials = auth && reader.string(auth, 'credentials', authPath);
  if (url === undefined || (auth && scheme === undefined)) return undefined;
  return {
    ...(id && { id }),
    url,
    ...(token && { token }),
    ...(scheme && { authentication: { scheme, ...(credentials && { credentials }) } }),
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
  const optional = readMessageOptionals(reader, obj, path);
  const partsKey = grammar.partsKey ?? 'parts';
  const rawParts = field(obj, partsKey);
  let parts: Part[] = [];
  if (!Array.isArray(rawParts) || rawParts.length === 0) {
    reader.fail(join(path, partsKey), `needs at least one part, e.g. [${grammar.partExample}]`);
  } else {
    // `map`, not `flatMap`: the list is kept with the task, and `map` sizes it exactly.
    const read = rawParts.map((p, i) => grammar.readPart(reader, p, join(join(path, partsKey), i)));
    parts = read.includes(undefined) ? read.filter((part) => part !== undefined) : (read as Part[]);
  }
  if (!messageId || !role) return undefined;
  return { messageId, role, parts, ...optional };
}

/** A message's optional fields, as both versions write them, and as a sender or an agent sends them. */
export function readMessageOptionals(
  reader: WireReader,
  obj: Record<string, unknown>,
  path: string,
): Pick<Message, 'contextId' | 'taskId' | 'metadata' | 'extensions' | 'referenceTaskIds'> {
  const contextId = reader.string(obj, 'contextId', path);
  const taskId = reader.string(obj, 'taskId', path);
  const metadata = reader.struct(obj, 'metadata', path);
  const extensions = reader.stringList(obj, 'extensions', path);
  const referenceTaskIds = reader.stringList(obj, 'referenceTaskIds', path);
  // Set one by one: spreads of several of them gave each message a hidden class of its own (Node 20).
  const optionals: Pick<Message, 'contextId' | 'taskId' | 'metadata' | 'extensions' | 'referenceTaskIds'> =
    {};
  if (contextId) optionals.contextId = contextId;
  if (taskId) optionals.taskId = taskId;
  if (metadata) optionals.metadata = metadata;
  if (extensions) optionals.extensions = extensions;
  if (referenceTaskIds) optionals.referenceTaskIds = referenceTaskIds;
  return optionals;
}
