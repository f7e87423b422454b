/**
 * The JSON-RPC endpoint (`POST /`), shared by every dialect. The dialect follows the
 * `A2A-Version` header when present, else the method name (`SendMessage` is v1.0, `message/send`
 * v0.3), or in strict version mode 0.3. Every error envelope echoes the request's id and travels
 * with HTTP 200, auth failures aside. The gateway reuses it with its own routing and statuses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WireStream } from '../../calls/wire.js';
import { A2AError } from '../../domain/errors.js';
import type { Exchange } from '../../calls/exchange.js';
import {
  OPERATIONS,
  taskIdOf,
  type AnswerOf,
  type Operation,
  type OperationName,
} from '../../calls/operations.js';
import { merge } from '../../lib/objects.js';
import {
  noteReading,
  readRequest,
  refusedWhileReading,
  type BindingContext,
  type Reading,
} from './context.js';
import { answerFailure } from './errors.js';
import { declaredVersion, errorHeaders, readBody, requireJsonBody, sendJson } from './http.js';
import { authenticate } from './auth.js';
import { negotiateExtensions } from './extensions.js';
import {
  EnvelopeError,
  jsonRpcHttpStatus,
  parseJsonRpcRequest,
  rpcResult,
  type JsonRpcId,
  type JsonRpcRequest,
} from './jsonrpc.js';
import { pipeToSse, sseError, type StreamEncoding } from './stream.js';

export type MethodOutcome =
  /** `about`: the task the answer is about, when the request did not name it (a send). */
  { kind: 'result'; result: unknown; about?: string } | { kind: 'stream'; stream: WireStream };

/**
 * Serves the operation a method's params were decoded into, in the tenant the params name (v1.0
 * `params.tenant`; the root tenant otherwise).
 */
export type ServeIn = <O extends Operation>(operation: O, tenant?: string) => Promise<AnswerOf<O>>;

export type MethodHandler = (
  params: unknown,
  context: BindingContext,
  serve: ServeIn,
  req: IncomingMessage,
) => MethodOutcome | Promise<MethodOutcome>;

export interface JsonRpcDialect {
  /** The `A2A-Version` this dialect answers to. */
  version: string;
  /** How records name it, e.g. `JSON-RPC 1.0`. */
  binding: string;
  methods: ReadonlyMap<string, MethodHandler>;
  /** The shape of this dialect's method names, to place an unknown method sent without a header. */
  methodPattern?: RegExp;
  /** Methods that answer with an event stream even when they fail before their first event. */
  alwaysStreams?: ReadonlySet<string>;
  toError(id: JsonRpcId, error: A2AError): Record<string, unknown>;
  streamEncoding(id: JsonRpcId): StreamEncoding;
}

export interface EndpointRouting {
  /** Whether `A2A-Version` picks the dialect (the gateway speaks one dialect and ignores it). */
  negotiatesVersion: boolean;
  /** The agent a request is for, once the caller is allowed to call it; throws otherwise. */
  resolve(request: JsonRpcRequest, req: IncomingMessage, res: ServerResponse): BindingContext;
  /** The HTTP status an error answer travels with. */
  httpStatus(error: A2AError): number;
}

const JSON_TYPE = 'application/json';

/** One agent's endpoint: its own context, behind its declared security. */
function agentRouting(context: BindingContext): EndpointRouting {
  return {
    negotiatesVersion: true,
    resolve: (_request, req, res) => {
      if (context.access) authenticate(req, res, context.access);
      if (context.extensions) negotiateExtensions(req, res, context.extensions);
      return context;
    },
    httpStatus: jsonRpcHttpStatus,
  };
}

export function jsonRpcEndpoint(
  context: BindingContext,
  dialects: readonly JsonRpcDialect[],
  routing: EndpointRouting = agentRouting(context),
) {
  const fallback = dialects[0]!;
  return async (req: IncomingMessage, res: ServerResponse, exchange: Exchange): Promise<void> => {
    let id: JsonRpcId = null;
    let dialect = fallback;
    let method: string | undefined;
    let resolved: BindingContext | undefined;
    const answer = (error: A2AError) =>
      sendJson(res, routing.httpStatus(error), dialect.toError(id, error), JSON_TYPE, errorHeaders(error));
    try {
      const declared = routing.negotiatesVersion ? declaredVersion(req, undefined) : undefined;
      // Strictly, a request without the header speaks 0.3 (§7); leniently, the method name decides.
      const version = declared ?? (context.strictVersion && routing.negotiatesVersion ? '0.3' : undefined);
      // Envelope errors already answer in the dialect the request declares.
      dialect = dialects.find((d) => d.version === version) ?? fallback;
      requireJsonBody(req);
      const text = await readBody(req, res, context.maxBodyBytes);
      exchange.readBody(text);
      const request = parseJsonRpcRequest(text);
      id = request.id;
      dialect = chooseDialect(dialects, request.method, version);
      const target = (resolved = routing.resolve(request, req, res));
      method = request.method;
      const handler = dialect.methods.get(method);
      if (!handler) throw methodNotFound(method, dialect, dialects, declared === undefined);
      const reading = {
        binding: dialect.binding,
        version: dialect.version === '0.3' ? ('0.3' as const) : ('1.0' as const),
        operation: request.method,
        id: request.id,
        ...(KIND_BY_METHOD.has(method) && { kind: KIND_BY_METHOD.get(method)! }),
      };
      // Before the params are decoded: a refusal of them (a bad cursor) is still this client's call.
      const named = namedTask(request.params);
      noteReading(target, req, exchange, named === undefined ? reading : merge(reading, { taskId: named }));
      const serve: ServeIn = (operation, tenant) => {
        const named =
          operation.name === 'send' || operation.name === 'stream' ? undefined : taskIdOf(operation);
        // Merged, not spread: a spread and then a property gave each call's reading a hidden class of its own (Node 20).
        let read: Reading = reading;
        if (tenant !== undefined) read = merge(read, { tenant });
        if (named !== undefined) read = merge(read, { taskId: named });
        return readRequest(target, req, exchange, read)(operation);
      };
      const outcome = await handler(request.params, target, serve, req);
      if (outcome.kind === 'result') {
        if (outcome.about !== undefined) exchange.about(outcome.about);
        sendJson(res, 200, rpcResult(id, outcome.result), JSON_TYPE);
      } else {
        if (outcome.stream.taskId !== undefined) exchange.about(outcome.stream.taskId);
        pipeToSse(res, outcome.stream, merge(target, { encoding: dialect.streamEncoding(id), exchange }));
      }
    } catch (error) {
      if (error instanceof EnvelopeError) {
        id = error.id;
        if (!res.headersSent) answer(error.error);
        return;
      }
      answerFailure(res, error, context.report, (failure) => {
        if (resolved) refusedWhileReading(resolved, exchange, failure);
        if (method !== undefined && dialect.alwaysStreams?.has(method)) {
          sseError(
            res,
            { keepAlive: context.keepAlive, encoding: dialect.streamEncoding(id), exchange },
            failure,
          );
        } else {
          answer(failure);
        }
      });
    }
  };
}

/** Every dialect's method names (v1.0 `GetTask`, v0.3 and the gateway's `tasks/get`) → the operation. */
const KIND_BY_METHOD: ReadonlyMap<string, OperationName> = new Map(
  (Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]).flatMap(
    ([name, { v1, v03 }]) => [[v1, name] as const, ...(v03 ? [[v03, name] as const] : [])],
  ),
);

/**
 * The task the params name, read before they are decoded (`id`; `taskId` on a v0.3 or gateway
 * resubscribe), so that a refusal of the rest is still about it.
 */
function namedTask(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { id, taskId } = params as { id?: unknown; taskId?: unknown };
  if (typeof taskId === 'string' && taskId !== '') return taskId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function chooseDialect(
  dialects: readonly JsonRpcDialect[],
  method: string,
  version: string | undefined,
): JsonRpcDialect {
  if (version !== undefined) {
    const declared = dialects.find((d) => d.version === version);
    if (declared) return declared;
    const speaker = dialects.find((d) => d.methods.has(method));
    throw new A2AError(
      'VersionNotSupportedError',
      `This endpoint does not serve A2A ${version} on JSON-RPC${speaker ? `; "${method}" is an A2A ${speaker.version} method: send "A2A-Version: ${speaker.version}"` : ''}.`,
      { metadata: { requestedVersion: version } },
    );
  }
  return (
    dialects.find((d) => d.methods.has(method)) ??
    dialects.find((d) => d.methodPattern?.test(method)) ??
    dialects[0]!
  );
}

function methodNotFound(
  method: string,
  dialect: JsonRpcDialect,
  dialects: readonly JsonRpcDialect[],
  headerless: boolean,
): A2AError {
  const other = dialects.find((d) => d !== dialect && d.methods.has(method));
  const declares = headerless
    ? `a request without an A2A-Version header speaks A2A ${dialect.version} (strict version mode)`
    : `the request declares A2A-Version ${dialect.version}`;
  const hint = other
    ? `"${method}" is an A2A ${other.version} method, but ${declares}: send "A2A-Version: ${other.version}"`
    : `A2A ${dialect.version} methods are ${[...dialect.methods.keys()].join(', ')}`;
  return new A2AError('MethodNotFoundError', `Method not found: "${method}". ${hint}.`, {
    metadata: { method },
  });
}
