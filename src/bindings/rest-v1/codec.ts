/**
 * HTTP+JSON specifics on top of the shared ProtoJSON codec: paths and query strings.
 * `{id}` is one path segment: the `:verb` is split off first, then the id is percent-decoded.
 */
import { A2AError, invalidParams } from '../../domain/errors.js';
import type { ListTasksQuery } from '../../domain/types.js';
import { merge } from '../../lib/objects.js';
import {
  fromWireListPushConfigsRequest,
  fromWireListTasksRequest,
  fromWireTaskIdRequest,
} from '../v1/codec.js';

export type RestOperation =
  | { op: 'send' }
  | { op: 'stream' }
  | { op: 'list' }
  | { op: 'get'; id: string }
  | { op: 'cancel'; id: string }
  | { op: 'subscribe'; id: string }
  | { op: 'push-configs'; taskId: string; configId?: string }
  | { op: 'extended-card' };

export interface RestRoute {
  operation: RestOperation;
  tenant?: string;
  /** The HTTP methods the path accepts. */
  allow: readonly string[];
}

/** Maps a path to an operation, trying it first without, then with, a leading `/{tenant}`. */
export function matchRestPath(pathname: string): RestRoute | undefined {
  const segments = pathname.split('/').slice(1);
  const direct = matchSegments(segments);
  if (direct) return direct;
  if (segments.length < 2 || segments[0] === '') return undefined;
  const tenanted = matchSegments(segments.slice(1));
  return tenanted && merge(tenanted, { tenant: decodeSegment(segments[0]!) });
}

function matchSegments(segments: string[]): RestRoute | undefined {
  const [first, second, third, fourth, ...rest] = segments;
  if (rest.length) return undefined;
  if (segments.length === 1) {
    if (first === 'message:send') return { operation: { op: 'send' }, allow: ['POST'] };
    if (first === 'message:stream') return { operation: { op: 'stream' }, allow: ['POST'] };
    if (first === 'tasks') return { operation: { op: 'list' }, allow: ['GET'] };
    if (first === 'extendedAgentCard') return { operation: { op: 'extended-card' }, allow: ['GET'] };
    return undefined;
  }
  if (first !== 'tasks' || !second) return undefined;
  if (segments.length === 2) {
    const verb = /:(cancel|subscribe)$/.exec(second);
    if (!verb) return { operation: { op: 'get', id: decodeSegment(second) }, allow: ['GET'] };
    const id = decodeSegment(second.slice(0, verb.index));
    return verb[1] === 'cancel'
      ? { operation: { op: 'cancel', id }, allow: ['POST'] }
      : { operation: { op: 'subscribe', id }, allow: ['GET', 'POST'] };
  }
  if (third !== 'pushNotificationConfigs') return undefined;
  const taskId = decodeSegment(second);
  if (fourth === undefined || fourth === '') {
    return { operation: { op: 'push-configs', taskId }, allow: ['GET', 'POST'] };
  }
  return {
    operation: { op: 'push-configs', taskId, configId: decodeSegment(fourth) },
    allow: ['GET', 'DELETE'],
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidParams([
      { field: 'path', description: `"${segment}" is not a valid percent-encoded path segment` },
    ]);
  }
}

const INTEGER_PARAMS = new Set([
  'pageSize',
  'historyLength',
  'currentGeneration',
  'page_size',
  'history_length',
  'current_generation',
]);
const BOOLEAN_PARAMS = new Set(['includeArtifacts', 'include_artifacts']);

/** Query parameters as the JSON a JSON-RPC client would have sent, then decoded the same way. */
export function fromRestListQuery(query: URLSearchParams): ListTasksQuery {
  return fromWireListTasksRequest(typedQuery(query));
}

/** `GET /tasks/{taskId}/pushNotificationConfigs?pageSize=&pageToken=`: the path names the task. */
export function fromRestPushConfigsQuery(query: URLSearchParams, taskId: string) {
  return fromWireListPushConfigsRequest(withPathParam(typedQuery(query), 'taskId', taskId));
}

/** `GET /tasks/{id}?historyLength=&currentGeneration=`: the v1.1 draft's long poll (§3.2.7, §11.5). */
export function fromRestGetQuery(query: URLSearchParams, id: string) {
  return fromWireTaskIdRequest(withPathParam(typedQuery(query), 'id', id));
}

export function fromRestHistoryLength(query: URLSearchParams): number | undefined {
  const typed = typedQuery(query);
  const value = typed['historyLength'] ?? typed['history_length'];
  return value === undefined ? undefined : (value as number);
}

/**
 * The query's parameters with the path's over them. Set on the object, not merged: `Object.assign`
 * would turn a client's `?__proto__=` into the object's prototype, where it is a parameter like any other.
 */
function withPathParam(
  params: Record<string, unknown>,
  name: string,
  value: string,
): Record<string, unknown> {
  params[name] = value;
  return params;
}

/** Built with `fromEntries`, which defines keys: `?__proto__=` is then a key like any other, not a setter. */
function typedQuery(query: URLSearchParams): Record<string, unknown> {
  return Object.fromEntries([...query].map(([key, raw]) => [key, typedValue(key, raw)]));
}

function typedValue(key: string, raw: string): unknown {
  if (INTEGER_PARAMS.has(key)) {
    if (!/^-?\d+$/.test(raw))
      throw invalidParams([{ field: key, description: `expected an integer, got "${raw}"` }]);
    return Number(raw);
  }
  if (BOOLEAN_PARAMS.has(key)) {
    if (raw !== 'true' && raw !== 'false') {
      throw invalidParams([{ field: key, description: `expected true or false, got "${raw}"` }]);
    }
    return raw === 'true';
  }
  return raw;
}

export function methodNotAllowed(method: string, pathname: string, allow: readonly string[]): A2AError {
  return new A2AError(
    'MethodNotAllowedError',
    `No operation for ${method} ${pathname}: this path accepts ${allow.join(', ')}.`,
    { metadata: { method, allow: allow.join(', ') } },
  );
}
