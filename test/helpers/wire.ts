/**
 * What a test puts on the wire, written once: A2A messages and SendMessageRequests in each dialect
 * (v1.0 ProtoJSON, v0.3 `kind`-tagged JSON), JSON-RPC envelopes, and fetch calls that send JSON and
 * read the answer whole. Every helper that calls the server takes a {@link Target}: a base URL, or
 * anything with a `url` (a started `TestSim`).
 * @note Nothing here moves the virtual clock: wrap a call that waits on it in `t.drive(...)`.
 */
import { postSse, type SseReader } from './sse.js';

/** A base URL (`http://127.0.0.1:4312`), or a started simulator (anything with a `url`). */
export type Target = string | { readonly url: string };

export type HeaderMap = Record<string, string>;

export const JSON_HEADERS: HeaderMap = Object.freeze({ 'Content-Type': 'application/json' });
/** Selects A2A v1.0 where the version is negotiated; a v0.3 client sends no A2A-Version at all. */
export const V1_HEADERS: HeaderMap = Object.freeze({ 'A2A-Version': '1.0' });
/** The `X-Sim-Chaos` header: `chaosHeader('drop-after-events=2')`. */
export const chaosHeader = (pairs: string): HeaderMap => ({ 'X-Sim-Chaos': pairs });
/** `Last-Event-ID`, to resume a stream after `afterSeq`; nothing when there is no cursor yet. */
export const cursorHeader = (afterSeq?: number): HeaderMap =>
  afterSeq === undefined ? {} : { 'Last-Event-ID': String(afterSeq) };

const urlOf = (target: Target) => (typeof target === 'string' ? target : target.url);

let sequence = 0;
/** A messageId no other message of this test file has: `msg-1`, `msg-2`, ... */
const nextMessageId = () => `msg-${++sequence}`;

// ---------------------------------------------------------------------------------------------
// A2A bodies

/**
 * A v1.0 user Message with one text part; `extra` adds or overrides members (messageId, taskId,
 * contextId, metadata, parts). Without a messageId it gets a fresh one.
 * @example v1Message('Book me a flight', { messageId: 'm-1', taskId })
 * // → { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Book me a flight' }], taskId }
 */
export function v1Message(text: string, extra: Record<string, unknown> = {}) {
  return { messageId: nextMessageId(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/**
 * A v1.0 SendMessageRequest: {@link v1Message} of `text` and `message`, beside `request`'s members
 * (configuration, metadata).
 * @example v1Send('What is the weather today?', { messageId: 'w-1' }, { configuration: { historyLength: 0 } })
 */
export function v1Send(
  text: string,
  message: Record<string, unknown> = {},
  request: Record<string, unknown> = {},
) {
  return { message: v1Message(text, message), ...request };
}

/** SendMessageRequest members that make a send answer at once, before its task has run. */
export const RETURN_IMMEDIATELY = Object.freeze({
  configuration: Object.freeze({ returnImmediately: true }),
});

/**
 * A v0.3 user Message: `kind` tags, a lowercase role, one text part.
 * @example v03Message('Hello', { messageId: 'v03-1' })
 * // → { kind: 'message', messageId: 'v03-1', role: 'user', parts: [{ kind: 'text', text: 'Hello' }] }
 */
export function v03Message(text: string, extra: Record<string, unknown> = {}) {
  return {
    kind: 'message',
    messageId: nextMessageId(),
    role: 'user',
    parts: [{ kind: 'text', text }],
    ...extra,
  };
}

/**
 * v0.3 `message/send` and `message/stream` params: {@link v03Message} beside `request`'s members.
 * @example v03Send('Book me a flight', { messageId: 'm-1', contextId }, { configuration: { blocking: false } })
 */
export function v03Send(
  text: string,
  message: Record<string, unknown> = {},
  request: Record<string, unknown> = {},
) {
  return { message: v03Message(text, message), ...request };
}

/**
 * A JSON-RPC 2.0 request object, `id` 1 unless `extra` names one. `extra` comes last, so it can also
 * add a member (the gateway's `agent_code`) or spoil one (`{ jsonrpc: '1.0' }`).
 * @example rpcEnvelope('GetTask', { id: taskId }, { id: 'g-1' })
 * // → { jsonrpc: '2.0', id: 'g-1', method: 'GetTask', params: { id: taskId } }
 */
export function rpcEnvelope(method: string, params?: unknown, extra: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id: 1 as string | number | null, method, params, ...extra };
}

// ---------------------------------------------------------------------------------------------
// HTTP calls, answered whole

/** An HTTP answer read to its end: `body` is `text` parsed as JSON, undefined when it is not JSON. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface CallOptions {
  /** Sent as JSON with `Content-Type: application/json`; a string is sent as it is. */
  body?: unknown;
  headers?: HeaderMap;
}

/**
 * One HTTP call to `path` under `target`, read whole.
 * @example const { status, body } = await callJson(t, 'DELETE', `/tasks/${id}/pushNotificationConfigs/c1`);
 */
export async function callJson(
  target: Target,
  method: string,
  path: string,
  { body, headers = {} }: CallOptions = {},
): Promise<JsonAnswer> {
  const response = await fetch(`${urlOf(target)}${path}`, {
    method,
    headers: { ...(body !== undefined && JSON_HEADERS), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: parseJson(text), text };
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `GET path`, read whole.
 * @example expect((await getJson(t, '/tasks', chaosHeader('off'))).body.totalSize).toBe(1);
 */
export const getJson = (target: Target, path: string, headers: HeaderMap = {}) =>
  callJson(target, 'GET', path, { headers });

/**
 * `POST path` with a JSON body, read whole.
 * @example const { body } = await t.drive(postJson(t, '/message:send', v1Send('Hello'), V1_HEADERS));
 */
export const postJson = (target: Target, path: string, body: unknown, headers: HeaderMap = {}) =>
  callJson(target, 'POST', path, { body, headers });

export interface RpcOptions {
  /** Where the JSON-RPC endpoint is: `/` unless an agent's (`/agents/explore/`) or the gateway's. */
  path?: string;
  id?: string | number | null;
  headers?: HeaderMap;
  /** `'1.0'` or `'0.3'` sends that A2A-Version; without it none is sent, as a v0.3 client does. */
  version?: '1.0' | '0.3';
  /** Members beside the standard ones, e.g. the gateway's `agent_code`. */
  envelope?: Record<string, unknown>;
}

const rpcHeaders = ({ version, headers = {} }: RpcOptions): HeaderMap => ({
  ...(version && { 'A2A-Version': version }),
  ...headers,
});
const rpcBody = (method: string, params: unknown, { id = 1, envelope = {} }: RpcOptions) =>
  rpcEnvelope(method, params, { ...envelope, id });

/**
 * A JSON-RPC call in either dialect, read whole: the envelope answered is `body`.
 * @example const { body } = await t.drive(rpc(t, 'SendMessage', v1Send('Hello'), { version: '1.0' }));
 * @example await rpc(t, 'tasks/get', { id }, { path: '/agents/explore/' });
 */
export function rpc(target: Target, method: string, params: unknown, options: RpcOptions = {}) {
  return postJson(target, options.path ?? '/', rpcBody(method, params, options), rpcHeaders(options));
}

/**
 * A streaming JSON-RPC call (`SendStreamingMessage`, `message/stream`, `tasks/resubscribe`) as an
 * SSE reader; it throws with the answer if the server does not open a stream.
 * @example const events = await t.drive(rpcStream(t, 'message/stream', v03Send('Hi')).then((s) => s.rest()));
 */
export function rpcStream(
  target: Target,
  method: string,
  params: unknown,
  options: RpcOptions = {},
): Promise<SseReader> {
  return postSse(
    `${urlOf(target)}${options.path ?? '/'}`,
    rpcBody(method, params, options),
    rpcHeaders(options),
  );
}

/**
 * POSTs JSON asking for an event stream, and hands back the Response unread: for a test that reads
 * a stream in pieces, aborts it, or expects a refusal instead of a stream.
 * @example const response = await postForStream(t, '/message:stream', v1Send(REPORT_TEXT), cursorHeader(3));
 */
export function postForStream(
  target: Target,
  path: string,
  body: unknown,
  headers: HeaderMap = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${urlOf(target)}${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, Accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  });
}

/**
 * A call to the admin API under `/_sim`, as a script makes it. It sends `X-Sim-Admin: 1`, which a
 * change without a JSON body needs.
 * @example const { body } = await admin(t, 'GET', '/tasks?agent=explore');
 */
export const admin = (
  target: Target,
  method: string,
  path: string,
  body?: unknown,
  headers: HeaderMap = {},
) => callJson(target, method, `/_sim${path}`, { body, headers: { 'X-Sim-Admin': '1', ...headers } });
