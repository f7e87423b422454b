/**
 * One gRPC call, as every binding serves a request: its exchange record opens when it arrives, its
 * metadata is read as the headers the other bindings read (`a2a-version`, `a2a-extensions`,
 * `authorization`, `x-sim-chaos`, `x-sim-client`), its request is decoded into an operation and
 * served by the agent's pipeline, and the answer (a message, a stream, or a status) goes out.
 */
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { constants as http2 } from 'node:http2';
import {
  Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import type { Exchange } from '../../calls/exchange.js';
import { ConnectionFault } from '../../calls/wire.js';
import { A2AError } from '../../domain/errors.js';
import type { PushDialect } from '../../domain/types.js';
import type { ErrorCodeProfile } from '../../domain/error-codes.js';
import { authenticateHeaders } from '../shared/auth.js';
import {
  readRequest,
  refusedWhileReading,
  type BindingContext,
  type CallerRequest,
  type Reading,
  type ServeOperation,
} from '../shared/context.js';
import { asA2AError } from '../shared/errors.js';
import { activatedExtensions } from '../shared/extensions.js';
import { declaredVersion } from '../shared/http.js';
import { toProtoJson } from './protos.js';
import { toGrpcStatus } from './status.js';

/** How the simulator's journal opens a call's record (admin/journal-trace.ts `journalCalls`). */
export type OpenExchange = (arrival: { method: string; path: string; headers: IncomingHttpHeaders }) => {
  exchange: Exchange;
  complete(status: number, answered: boolean): void;
};

/** The metadata key that names the agent a call is for: gRPC has no `/agents/{id}` path. */
export const AGENT_KEY = 'x-sim-agent';

export interface GrpcRouting {
  /** The root agent's context. */
  root: BindingContext;
  /** The defined agents', by id. */
  agents: ReadonlyMap<string, BindingContext>;
  open: OpenExchange;
}

/** What a method of one service is told of its call. */
export interface CallScope {
  context: BindingContext;
  exchange: Exchange;
  /** The request as ProtoJSON, the shape the codecs read. */
  request: Record<string, unknown>;
  /** The call's metadata, as headers. */
  headers: IncomingHttpHeaders;
  /** Serves the operation the request was decoded into, once the method has read it. */
  read(reading: Omit<Reading, 'binding' | 'version' | 'operation'>): ServeOperation;
}

export interface GrpcService {
  binding: string;
  version: PushDialect;
  /** The error table its statuses follow whatever the agent's `--error-codes`; absent, the agent's. */
  errorCodes?: ErrorCodeProfile;
}

export interface CallSetup {
  service: GrpcService;
  method: string;
  /** The request's full message type, e.g. `lf.a2a.v1.SendMessageRequest`. */
  requestType: string;
}

/** The call as a caller the shared reading understands: its metadata as headers, its end as a close. */
class GrpcCaller extends EventEmitter implements CallerRequest {
  readonly headers: IncomingHttpHeaders;
  readonly socket = this;
  destroyed = false;
  readonly remoteAddress: string | undefined;

  constructor(call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>) {
    super();
    this.headers = headersOf(call.metadata);
    // `host:port`: the port is the connection's, not the client's.
    this.remoteAddress = call.getPeer().replace(/:\d+$/, '');
    call.on('cancelled', () => {
      this.destroyed = true;
      this.emit('close');
    });
  }
}

/** Metadata as HTTP headers: text entries joined as repeated headers are; binary ones left out. */
function headersOf(metadata: Metadata): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value === 'string') headers[key] = metadata.get(key).map(String).join(', ');
  }
  return headers;
}

/**
 * Sets a call up: the exchange, the agent, the access policy, extensions and the version. Throws an
 * A2AError for a call refused before its method reads it; `exchange` is open either way.
 */
function setUp(
  routing: GrpcRouting,
  setup: CallSetup,
  call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>,
) {
  const caller = new GrpcCaller(call);
  const journaled = routing.open({ method: 'POST', path: call.getPath(), headers: caller.headers });
  const { exchange } = journaled;
  const begin = (): CallScope & { responseMetadata: Metadata } => {
    const context = agentContext(routing, caller.headers[AGENT_KEY]);
    const request = toProtoJson(setup.requestType, call.request);
    exchange.readBody(JSON.stringify(request));
    if (context.access) authenticateHeaders(caller.headers, context.access);
    const responseMetadata = new Metadata();
    if (context.extensions) {
      const { activated } = activatedExtensions(caller.headers, context.extensions);
      if (activated.length) responseMetadata.set('a2a-extensions', activated.join(','));
    }
    const version = declaredVersion(caller, undefined);
    const own = setup.service.version;
    if (version !== undefined ? version !== own : context.strictVersion && own !== '0.3') {
      throw new A2AError(
        'VersionNotSupportedError',
        `This gRPC service speaks A2A ${own}, but the call declares ${version ?? 'no version (0.3)'}: send the metadata "a2a-version: ${own}", or call the ${own === '1.0' ? 'a2a.v1' : 'lf.a2a.v1'} service.`,
      );
    }
    const read = (reading: Omit<Reading, 'binding' | 'version' | 'operation'>) =>
      readRequest(context, caller, exchange, {
        binding: setup.service.binding,
        version: own,
        operation: setup.method,
        ...reading,
      });
    return { context, exchange, request, headers: caller.headers, read, responseMetadata };
  };
  return { caller, exchange, complete: journaled.complete, begin };
}

function agentContext(routing: GrpcRouting, agent: string | string[] | undefined): BindingContext {
  if (agent === undefined || agent === '') return routing.root;
  const id = Array.isArray(agent) ? agent[0]! : agent;
  const context = routing.agents.get(id);
  if (context) return context;
  const known = [...routing.agents.keys()].join(', ') || '(none defined)';
  throw new A2AError(
    'AgentNotFoundError',
    `Agent not found: no agent "${id}" is defined. Known agents: ${known}; name one in the "${AGENT_KEY}" metadata, or leave it out for the root agent.`,
    { metadata: { agentId: id } },
  );
}

/** The failure of a call that has not answered yet: a status, or no answer at all (chaos). */
function fail(
  routing: GrpcRouting,
  service: GrpcService,
  call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>,
  exchange: Exchange,
  error: unknown,
): { answered: boolean; status?: ReturnType<typeof toGrpcStatus> } {
  if (error instanceof ConnectionFault) {
    resetCall(call, error.mode === 'reset' ? http2.NGHTTP2_CANCEL : http2.NGHTTP2_NO_ERROR);
    return { answered: false };
  }
  const failure = asA2AError(error, routing.root.report);
  refusedWhileReading(routing.root, exchange, failure);
  return { answered: true, status: toGrpcStatus(failure, service.errorCodes ?? routing.root.errorCodes) };
}

/** Serves a unary method: `answer` returns the response as ProtoJSON, already in loader shape. */
export function unaryCall(
  routing: GrpcRouting,
  setup: CallSetup,
  answer: (scope: CallScope) => Promise<Record<string, unknown>>,
) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const { exchange, complete, begin } = setUp(routing, setup, call);
    void (async () => {
      const scope = begin();
      const response = await answer(scope);
      callback(null, response, scope.responseMetadata);
      complete(200, true);
    })().catch((error: unknown) => {
      const { answered, status } = fail(routing, setup.service, call, exchange, error);
      if (status) callback(status as ServiceError);
      complete(answered ? 200 : 0, answered);
    });
  };
}

/** What a streaming method's answer is piped with (stream.ts). */
export type StreamPipe = (
  call: ServerWritableStream<unknown, unknown>,
  scope: CallScope & { responseMetadata: Metadata },
  complete: (status: number, answered: boolean) => void,
) => Promise<void>;

/** Serves a server-streaming method: errors before the stream starts are a plain status. */
export function streamingCall(routing: GrpcRouting, setup: CallSetup, pipe: StreamPipe) {
  return (call: ServerWritableStream<unknown, unknown>): void => {
    const { exchange, complete, begin } = setUp(routing, setup, call);
    void (async () => pipe(call, begin(), complete))().catch((error: unknown) => {
      const { answered, status } = fail(routing, setup.service, call, exchange, error);
      if (status) call.emit('error', status);
      complete(answered ? 200 : 0, answered);
    });
  };
}

/**
 * Ends the call's HTTP/2 stream with RST_STREAM and no status, as a server that went away does.
 * grpc-js has no API for it, so the stream is found under the call's wrappers; were it not there
 * (grpc-js changed), the call ends with UNAVAILABLE, what the client would make of a reset anyway.
 * @note Reaches into grpc-js internals (`call.call.nextCall.stream`), guarded.
 */
export function resetCall(call: object, code: number): void {
  let node: unknown = call;
  for (let i = 0; i < 8 && node !== null && typeof node === 'object'; i++) {
    const candidate = (node as { stream?: unknown }).stream;
    if (isHttp2Stream(candidate)) {
      candidate.close(code);
      return;
    }
    const next = node as { call?: unknown; nextCall?: unknown };
    node = next.nextCall ?? next.call;
  }
  (call as EventEmitter).emit('error', { code: 14, details: 'Connection reset' });
}

function isHttp2Stream(value: unknown): value is { close(code: number): void } {
  return (
    value !== null &&
    typeof value === 'object' &&
    'rstCode' in value &&
    typeof (value as { close?: unknown }).close === 'function'
  );
}
