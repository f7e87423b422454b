/**
 * The JSON-RPC endpoint (`POST /`), shared by every dialect. The dialect follows the
 * `A2A-Version` header when present, else the method name (`SendMessage` is v1.0, `message/send`
 * v0.3), or in strict version mode 0.3. Every error envelope is sent with HTTP 200 and echoes the
 * request's id.
 */
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { A2AError } from '../../domain/errors.js';
import type { TaskStream } from '../../runtime/stream.js';
import type { BindingContext } from './context.js';
import { asA2AError } from './errors.js';
import { declaredVersion, readBody, requireJsonBody, sendJson } from './http.js';
import { EnvelopeError, parseJsonRpcRequest, rpcResult, type JsonRpcId } from './jsonrpc.js';
import { pipeToSse, sseError, type StreamEncoding } from './stream.js';

export type MethodOutcome = { kind: 'result'; result: unknown } | { kind: 'stream'; stream: TaskStream };

export type MethodHandler = (
  params: unknown,
  context: BindingContext,
  req: IncomingMessage,
) => MethodOutcome | Promise<MethodOutcome>;

export interface JsonRpcDialect {
  /** The `A2A-Version` this dialect answers to. */
  version: string;
  methods: ReadonlyMap<string, MethodHandler>;
  /** The shape of this dialect's method names, to place an unknown method sent without a header. */
  methodPattern?: RegExp;
  /** Methods that answer with an event stream even when they fail before their first event. */
  alwaysStreams?: ReadonlySet<string>;
  toError(id: JsonRpcId, error: A2AError): Record<string, unknown>;
  streamEncoding(id: JsonRpcId): StreamEncoding;
}

const JSON_TYPE = 'application/json';

export function jsonRpcEndpoint(context: BindingContext, dialects: readonly JsonRpcDialect[]) {
  const fallback = dialects[0]!;
  return async (req: Request, res: Response): Promise<void> => {
    let id: JsonRpcId = null;
    let dialect = fallback;
    let method: string | undefined;
    try {
      const declared = declaredVersion(req, undefined);
      // Strictly, a request without the header speaks 0.3 (§7); leniently, the method name decides.
      const version = declared ?? (context.strictVersion ? '0.3' : undefined);
      // Envelope errors already answer in the dialect the request declares.
      dialect = dialects.find((d) => d.version === version) ?? fallback;
      requireJsonBody(req);
      const request = parseJsonRpcRequest(await readBody(req, context.maxBodyBytes));
      id = request.id;
      method = request.method;
      dialect = chooseDialect(dialects, method, version);
      const handler = dialect.methods.get(method);
      if (!handler) throw methodNotFound(method, dialect, dialects, declared === undefined);
      const outcome = await handler(request.params, context, req);
      if (outcome.kind === 'result') sendJson(res, 200, rpcResult(id, outcome.result), JSON_TYPE);
      else pipeToSse(req, res, outcome.stream, context.keepAlive, dialect.streamEncoding(id), context.report);
    } catch (error) {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (error instanceof EnvelopeError) {
        sendJson(res, 200, dialect.toError(error.id, error.error), JSON_TYPE);
        return;
      }
      const failure = asA2AError(error, context.report);
      if (method !== undefined && dialect.alwaysStreams?.has(method)) {
        sseError(res, context.keepAlive, dialect.streamEncoding(id), failure);
      } else {
        sendJson(res, 200, dialect.toError(id, failure), JSON_TYPE);
      }
    }
  };
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
