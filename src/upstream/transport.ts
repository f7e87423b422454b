/**
 * How a call reaches the real agent on each binding it may offer: HTTP+JSON (v1.0), JSON-RPC v1.0,
 * JSON-RPC v0.3, and the workspace gateway's v0.3 JSON-RPC with its `agent_code`. Each answers in
 * the wire values of its dialect; the client (client.ts) reads them into the domain.
 */
import { isRecord } from '../lib/objects.js';
import type { UpstreamCall } from '../runtime/api.js';
import type { UpstreamDialect } from './dialect.js';
import { invalidAgentResponse } from './dialect.js';
import { V03_DIALECT } from './dialect-v03.js';
import { V1_DIALECT } from './dialect-v1.js';
import { requestJson, requestStream, type Frames, type HttpOptions, type JsonAnswer } from './http.js';
import { restError } from './rest-errors.js';

export type UpstreamBinding = 'rest' | 'jsonrpc' | 'jsonrpc-0.3' | 'gateway';

export interface Transport {
  readonly binding: UpstreamBinding;
  readonly url: string;
  readonly dialect: UpstreamDialect;
  send(params: Record<string, unknown>, call: UpstreamCall): Promise<unknown>;
  stream(params: Record<string, unknown>, call: UpstreamCall): Promise<Frames>;
  get(taskId: string, call: UpstreamCall): Promise<unknown>;
  cancel(taskId: string, call: UpstreamCall): Promise<unknown>;
  subscribe(taskId: string, call: UpstreamCall): Promise<Frames>;
}

export function restTransport(base: string, options: HttpOptions): Transport {
  const root = base.replace(/\/+$/, '');
  const http: HttpOptions = { ...options, headers: { 'a2a-version': '1.0', ...options.headers } };
  const fail = (answer: JsonAnswer): never => {
    throw restError(answer.status, answer.body, answer.retryAfter);
  };
  const json = async (method: 'GET' | 'POST', path: string, body: unknown, call: UpstreamCall) => {
    const answer = await requestJson(method, root + path, body, call, http);
    return answer.status >= 200 && answer.status < 300 ? answer.body : fail(answer);
  };
  const task = (id: string) => `/tasks/${encodeURIComponent(id)}`;
  return {
    binding: 'rest',
    url: root,
    dialect: V1_DIALECT,
    send: (params, call) => json('POST', '/message:send', params, call),
    stream: (params, call) => requestStream('POST', `${root}/message:stream`, params, call, http, fail),
    get: (id, call) => json('GET', task(id), undefined, call),
    cancel: (id, call) => json('POST', `${task(id)}:cancel`, {}, call),
    subscribe: (id, call) =>
      requestStream('GET', `${root}${task(id)}:subscribe`, undefined, call, http, fail),
  };
}

interface RpcFlavour {
  binding: UpstreamBinding;
  dialect: UpstreamDialect;
  version: string;
  methods: { send: string; stream: string; get: string; cancel: string; subscribe: string };
  /** Top-level members of every request besides the JSON-RPC envelope (the gateway's selector). */
  envelope?: Record<string, unknown>;
}

const V1_METHODS = {
  send: 'SendMessage',
  stream: 'SendStreamingMessage',
  get: 'GetTask',
  cancel: 'CancelTask',
  subscribe: 'SubscribeToTask',
};
const V03_METHODS = {
  send: 'message/send',
  stream: 'message/stream',
  get: 'tasks/get',
  cancel: 'tasks/cancel',
  subscribe: 'tasks/resubscribe',
};

export function jsonRpcTransport(url: string, options: HttpOptions): Transport {
  return rpcTransport(url, options, {
    binding: 'jsonrpc',
    dialect: V1_DIALECT,
    version: '1.0',
    methods: V1_METHODS,
  });
}

export function jsonRpcV03Transport(url: string, options: HttpOptions): Transport {
  return rpcTransport(url, options, {
    binding: 'jsonrpc-0.3',
    dialect: V03_DIALECT,
    version: '0.3',
    methods: V03_METHODS,
  });
}

/** The seeds' workspace gateway: v0.3 JSON-RPC, the agent named by `agent_code` beside the envelope. */
export function gatewayTransport(url: string, agentCode: string, options: HttpOptions): Transport {
  return rpcTransport(url, options, {
    binding: 'gateway',
    dialect: V03_DIALECT,
    version: '0.3',
    methods: V03_METHODS,
    envelope: { agent_code: agentCode },
  });
}

function rpcTransport(url: string, options: HttpOptions, flavour: RpcFlavour): Transport {
  const http: HttpOptions = { ...options, headers: { 'a2a-version': flavour.version, ...options.headers } };
  const { dialect, methods } = flavour;
  let nextId = 0;
  const body = (method: string, params: unknown) => ({
    ...flavour.envelope,
    jsonrpc: '2.0',
    id: `a2a-sim-${++nextId}`,
    method,
    params,
  });
  const result = (envelope: unknown): unknown => {
    if (!isRecord(envelope) || envelope['jsonrpc'] !== '2.0') {
      throw invalidAgentResponse(`${url} answered with something that is not a JSON-RPC 2.0 response`);
    }
    if (envelope['error'] !== undefined) throw dialect.rpcError(envelope['error']);
    if (!('result' in envelope))
      throw invalidAgentResponse(`${url} answered a JSON-RPC response without a result`);
    return envelope['result'];
  };
  const call = async (method: string, params: unknown, upstreamCall: Parameters<Transport['get']>[1]) => {
    const answer = await requestJson('POST', url, body(method, params), upstreamCall, http);
    if (isRecord(answer.body) && ('result' in answer.body || 'error' in answer.body))
      return result(answer.body);
    throw restError(answer.status, answer.body, answer.retryAfter);
  };
  const stream = async (method: string, params: unknown, upstreamCall: Parameters<Transport['get']>[1]) => {
    const frames = await requestStream('POST', url, body(method, params), upstreamCall, http, (answer) => {
      if (isRecord(answer.body) && 'error' in answer.body) throw dialect.rpcError(answer.body['error']);
      throw restError(answer.status, answer.body, answer.retryAfter);
    });
    return unwrap(frames, result);
  };
  return {
    binding: flavour.binding,
    url,
    dialect,
    send: (params, c) => call(methods.send, params, c),
    stream: (params, c) => stream(methods.stream, params, c),
    get: (id, c) => call(methods.get, { id }, c),
    cancel: (id, c) => call(methods.cancel, { id }, c),
    subscribe: (id, c) => stream(methods.subscribe, { id }, c),
  };
}

async function* unwrap(frames: Frames, result: (envelope: unknown) => unknown): AsyncGenerator<unknown> {
  for await (const frame of frames) yield result(frame);
}
