/**
 * One small driver per way of talking to the simulator, so the same conformance cases run over
 * every binding: raw HTTP+JSON, raw JSON-RPC in v1.0 and v0.3 here, the official @a2a-js/sdk client
 * on each transport in sdk-drivers.ts, all of them in all-drivers.ts. Every driver takes and returns
 * v1.0 ProtoJSON (the v0.3 ones translate) and throws DriverError named after the A2A error.
 */
import type { SimulatorOptions } from '../../src/index.js';
import { postSse, getSse, type SseReader } from '../helpers/sse.js';
import { callJson, rpc, rpcStream, V1_HEADERS } from '../helpers/wire.js';
import { fromV03Message, fromV03StreamResult, fromV03Task, toV03SendParams } from './v03-translate.js';

/** The error names of the protocol digest §3, by JSON-RPC code and by ErrorInfo reason. */
const BY_CODE: Record<number, string> = {
  [-32001]: 'TaskNotFoundError',
  [-32002]: 'TaskNotCancelableError',
  [-32003]: 'PushNotificationNotSupportedError',
  [-32004]: 'UnsupportedOperationError',
  [-32005]: 'ContentTypeNotSupportedError',
  [-32006]: 'InvalidAgentResponseError',
  [-32007]: 'ExtendedAgentCardNotConfiguredError',
  [-32008]: 'ExtensionSupportRequiredError',
  [-32009]: 'VersionNotSupportedError',
  [-32700]: 'ParseError',
  [-32600]: 'InvalidRequestError',
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
};
const BY_REASON: Record<string, string> = {
  TASK_NOT_FOUND: 'TaskNotFoundError',
  TASK_NOT_CANCELABLE: 'TaskNotCancelableError',
  PUSH_NOTIFICATION_NOT_SUPPORTED: 'PushNotificationNotSupportedError',
  UNSUPPORTED_OPERATION: 'UnsupportedOperationError',
  CONTENT_TYPE_NOT_SUPPORTED: 'ContentTypeNotSupportedError',
  INVALID_AGENT_RESPONSE: 'InvalidAgentResponseError',
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: 'ExtendedAgentCardNotConfiguredError',
  EXTENSION_SUPPORT_REQUIRED: 'ExtensionSupportRequiredError',
  VERSION_NOT_SUPPORTED: 'VersionNotSupportedError',
  INVALID_PARAMS: 'InvalidParamsError',
};

export class DriverError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(`${type}: ${message}`);
  }
}

/** A JSON-RPC error object as a DriverError, named by its code. */
const rpcError = (error: any) => new DriverError(BY_CODE[error.code] ?? String(error.code), error.message);

export interface Frame {
  /** The SSE `id:`, when the driver can see it (the SDK client discards it). */
  id?: string;
  /** One v1.0 StreamResponse: {task} | {message} | {statusUpdate} | {artifactUpdate}. */
  payload: any;
}

export interface StreamHandle {
  next(): Promise<Frame | undefined>;
  rest(): Promise<Frame[]>;
  cancel(): Promise<void>;
}

export interface Driver {
  name: string;
  seesEventIds: boolean;
  send(request: any): Promise<{ task?: any; message?: any }>;
  stream(request: any): Promise<StreamHandle>;
  getTask(id: string, historyLength?: number): Promise<any>;
  listTasks(query: Record<string, unknown>): Promise<any>;
  cancel(id: string): Promise<any>;
  subscribe(id: string): Promise<StreamHandle>;
}

export type DriverFactory = (baseUrl: string) => Promise<Driver>;

// ---------------------------------------------------------------------------------------------
// Raw HTTP+JSON

const A2A_JSON = { 'Content-Type': 'application/a2a+json', ...V1_HEADERS };

export const restDriver: DriverFactory = async (base) => {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await callJson(base, method, path, { body, headers: A2A_JSON });
    if (answer.status < 200 || answer.status > 299) throw restError(answer.body);
    return answer.body;
  };
  return {
    name: 'REST (fetch)',
    seesEventIds: true,
    send: (request) => call('POST', '/message:send', request),
    stream: async (request) =>
      sseHandle(await openSse(() => postSse(`${base}/message:stream`, request, V1_HEADERS)), (d) => d),
    getTask: (id, historyLength) =>
      call(
        'GET',
        `/tasks/${encodeURIComponent(id)}${historyLength === undefined ? '' : `?historyLength=${historyLength}`}`,
      ),
    listTasks: (query) =>
      call(
        'GET',
        `/tasks?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      ),
    cancel: (id) => call('POST', `/tasks/${encodeURIComponent(id)}:cancel`),
    subscribe: async (id) =>
      sseHandle(
        await openSse(() => getSse(`${base}/tasks/${encodeURIComponent(id)}:subscribe`, V1_HEADERS)),
        (d) => d,
      ),
  };
};

function restError(body: any): DriverError {
  const info = body?.error?.details?.find(
    (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo',
  );
  return new DriverError(
    BY_REASON[info?.reason] ?? info?.reason ?? 'Unknown',
    body?.error?.message ?? JSON.stringify(body),
  );
}

// ---------------------------------------------------------------------------------------------
// Raw JSON-RPC

/**
 * Calls and streams over raw JSON-RPC at `base`, each with a fresh id (`idOf(n)`) that every answer
 * and frame must echo; errors become DriverErrors, results go through `unwrap`.
 */
function rpcTransport(base: string, idOf: (n: number) => string | number, version?: '1.0') {
  let nextId = 1;
  const echoed = (data: any, id: string | number, what: string) => {
    if (data.id !== id)
      throw new Error(`${what} id ${JSON.stringify(data.id)} does not echo request id ${id}`);
    if (data.error) throw rpcError(data.error);
    return data.result;
  };
  return {
    call: async (method: string, params: unknown) => {
      const id = idOf(nextId++);
      return echoed((await rpc(base, method, params, { id, version })).body, id, 'response');
    },
    stream: async (method: string, params: unknown, unwrap: (result: any) => any = (r) => r) => {
      const id = idOf(nextId++);
      const reader = await openSse(() => rpcStream(base, method, params, { id, version }));
      return sseHandle(reader, (data) => unwrap(echoed(data, id, 'frame')));
    },
  };
}

export const jsonRpcDriver: DriverFactory = async (base) => {
  const { call, stream } = rpcTransport(base, (n) => n, '1.0');
  return {
    name: 'JSON-RPC (fetch)',
    seesEventIds: true,
    send: (request) => call('SendMessage', request),
    stream: (request) => stream('SendStreamingMessage', request),
    getTask: (id, historyLength) =>
      call('GetTask', { id, ...(historyLength !== undefined && { historyLength }) }),
    listTasks: (query) => call('ListTasks', query),
    cancel: (id) => call('CancelTask', { id }),
    subscribe: (id) => stream('SubscribeToTask', { id }),
  };
};

/** Opens an SSE stream; a JSON error answer (peek, then commit) becomes a DriverError. */
async function openSse(open: () => Promise<SseReader>): Promise<SseReader> {
  try {
    return await open();
  } catch (error) {
    const match = /^expected an event stream, got \d+: (.*)$/s.exec((error as Error).message);
    if (!match) throw error;
    const body = JSON.parse(match[1]!);
    if (body.jsonrpc) throw rpcError(body.error);
    throw restError(body);
  }
}

function sseHandle(reader: SseReader, unwrap: (data: any) => any): StreamHandle {
  const next = async (): Promise<Frame | undefined> => {
    const event = await reader.next();
    if (!event) return undefined;
    if (event.event === 'error') throw restError(event.json);
    return { ...(event.id !== undefined && { id: event.id }), payload: unwrap(event.json) };
  };
  return { next, rest: () => collect(next), cancel: () => reader.cancel() };
}

export async function collect(next: () => Promise<Frame | undefined>): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (let frame = await next(); frame; frame = await next()) frames.push(frame);
  return frames;
}

// ---------------------------------------------------------------------------------------------
// Raw JSON-RPC in A2A v0.3, without an A2A-Version header as v0.3 clients send it

export const jsonRpcV03Driver: DriverFactory = async (base) => {
  const transport = rpcTransport(base, (n) => `v03-${n}`);
  const call = transport.call;
  const stream = (method: string, params: unknown) => transport.stream(method, params, fromV03StreamResult);
  return {
    name: 'v0.3 JSON-RPC (fetch)',
    seesEventIds: true,
    send: async (request) => {
      const result = await call('message/send', toV03SendParams(request));
      return result.kind === 'task' ? { task: fromV03Task(result) } : { message: fromV03Message(result) };
    },
    stream: (request) => stream('message/stream', toV03SendParams(request)),
    getTask: async (id, historyLength) =>
      fromV03Task(await call('tasks/get', { id, ...(historyLength !== undefined && { historyLength }) })),
    listTasks: (query) => call('tasks/list', query),
    cancel: async (id) => fromV03Task(await call('tasks/cancel', { id })),
    // tasks/resubscribe answers an event stream even when it fails: the first frame tells.
    subscribe: async (id) => peeked(await stream('tasks/resubscribe', { id })),
  };
};

/** Reads the first frame at once, so a failure sent as the stream's only frame surfaces on open. */
async function peeked(handle: StreamHandle): Promise<StreamHandle> {
  let first: Frame | undefined | null = await handle.next();
  const next = async () => {
    if (first === null) return handle.next();
    const frame = first;
    first = null;
    return frame;
  };
  return { next, rest: () => collect(next), cancel: () => handle.cancel() };
}

// ---------------------------------------------------------------------------------------------
// The official SDK client, discovering the transport from the agent card

/** Operations a binding lacks, each with the reason the cases needing it are skipped. */
export interface Unsupported {
  listTasks?: string;
  /** The client drops an artifact update's `append` flag. */
  artifactAppend?: string;
  /** The wire cannot ask for `historyLength: 0` (it reads as no limit). */
  historyLengthZero?: string;
}

export interface DriverEntry {
  name: string;
  factory: DriverFactory;
  unsupported?: Unsupported;
  /** What the simulator needs to serve the binding (gRPC: a port of its own). */
  options?: SimulatorOptions;
}
