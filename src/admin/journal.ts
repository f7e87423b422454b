/**
 * The request journal (WireMock's, for A2A): every request to an agent, as received, with the
 * binding and operation it was read as, the task it touched, the response status and timing, and
 * the chaos faults applied to it. A bounded ring; `GET /_sim/requests` serves it.
 */
import { placeOf, type Place } from '../domain/scope.js';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { FaultLog } from '../chaos/fault-log.js';
import { bodyOf } from '../bindings/shared/http.js';
import { wireRequestOf } from '../bindings/shared/context.js';
import type { Clock } from '../lib/clock.js';
import { merge } from '../lib/objects.js';
import { RingLog } from '../lib/ring-log.js';
import type { WireRequest } from '../runtime/api.js';
import type { SimEventBody, SimEventBus } from './events.js';

/** Bodies are kept up to this size; the rest is cut off (and said so). */
const MAX_BODY_CHARS = 16 * 1024;

/** Headers whose values are secrets: the journal shows that they were sent, not what they hold. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-admin-token', 'cookie']);

export interface JournalEntry extends Place {
  n: number;
  /** When the request arrived, ISO 8601 clock time. */
  at: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** e.g. `REST`, `JSON-RPC 1.0`, `gateway`: once a binding read the request. */
  binding?: string;
  /** e.g. `POST /message:send`, `SendMessage`, `tasks/get`. */
  operation?: string;
  /** The JSON-RPC id. */
  id?: string | number | null;
  taskId?: string;
  /** Set when the response is complete. */
  status?: number;
  /** Whether the answer was an event stream. */
  streamed?: boolean;
  durationMs?: number;
  /** The `n` of each chaos fault applied to this request. */
  faults: number[];
}

export interface JournalQuery {
  binding?: string;
  /** The operation (`SendMessage`) or the HTTP method (`POST`). */
  method?: string;
  taskId?: string;
  workspace?: string;
  /** Entries that arrived at or after this ISO time (or epoch ms). */
  since?: number;
  after?: number;
}

export class RequestJournal extends RingLog<JournalEntry> {
  list(query: JournalQuery = {}): JournalEntry[] {
    return this.filter(
      (e) =>
        (query.binding === undefined || e.binding === query.binding) &&
        (query.method === undefined || e.operation === query.method || e.method === query.method) &&
        (query.taskId === undefined || e.taskId === query.taskId) &&
        (query.workspace === undefined || e.workspace === query.workspace) &&
        (query.since === undefined || Date.parse(e.at) >= query.since) &&
        (query.after === undefined || e.n > query.after),
    );
  }
}

/**
 * Express middleware: opens an entry when a request arrives, fills in what the binding made of it
 * when the response is done, and links the faults chaos applied to it meanwhile.
 */
export function journalRequests(journal: RequestJournal, faults: FaultLog, bus: SimEventBus, clock: Clock) {
  // The faults of each wire request, shared with its entry: those applied later show up there too.
  const faultsOf = new WeakMap<WireRequest, number[]>();
  const faultList = (wire: WireRequest) => {
    let list = faultsOf.get(wire);
    if (!list) faultsOf.set(wire, (list = []));
    return list;
  };
  faults.onRecord((fault) => {
    if (fault.request) faultList(fault.request).push(fault.n);
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = clock.now();
    const arrived = {
      at: new Date(started).toISOString(),
      method: req.method,
      path: req.originalUrl,
      headers: visibleHeaders(req),
    };
    const entry = journal.record(merge(arrived, { faults: [] as number[] }));
    // The binding reads the request after this middleware: what it made of it is known by the time
    // the response starts.
    const learn = () => {
      const wire = wireRequestOf(req);
      if (!wire) return;
      entry.binding = wire.binding;
      entry.operation = wire.operation;
      if (wire.id !== undefined) entry.id = wire.id;
      if (wire.taskId !== undefined) entry.taskId = wire.taskId;
      if (wire.scope !== undefined) Object.assign(entry, placeOf(wire.scope));
      entry.faults = faultList(wire);
    };
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
      learn();
      entry.streamed = contentTypeOf(res, args).startsWith('text/event-stream');
      if (entry.streamed) bus.publish({ type: 'stream:opened', request: entry.n, ...task(entry) });
      return writeHead.apply(this, args);
    } as Response['writeHead'];
    res.on('close', () => {
      learn();
      entry.status = res.headersSent ? res.statusCode : 0;
      entry.durationMs = clock.now() - started;
      const body = bodyOf(req);
      if (body !== undefined) entry.body = clip(body);
      if (entry.streamed) bus.publish({ type: 'stream:closed', request: entry.n, ...task(entry) });
    });
    // As it arrived: the entry fills in later, and an event in the bus history must not change after
    // the fact (the live feed and a replay of it would disagree).
    const { n } = entry;
    bus.publish(requestReceivedBody, n, arrived);
    next();
  };
}

function requestReceivedBody(n: number, arrived: Omit<JournalEntry, 'n' | 'faults'>): SimEventBody {
  return { type: 'request:received', request: merge({ n, ...arrived }, { faults: [] }) };
}

/** The response's Content-Type: the SSE writer passes its headers to `writeHead`, not `setHeader`. */
function contentTypeOf(res: Response, args: readonly unknown[]): string {
  const given = args
    .slice(1)
    .find((a): a is Record<string, unknown> => typeof a === 'object' && a !== null && !Array.isArray(a));
  const value = given && Object.entries(given).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return String(value ?? res.getHeader('content-type') ?? '');
}

function task(entry: JournalEntry): { taskId?: string } {
  return entry.taskId === undefined ? {} : { taskId: entry.taskId };
}

function visibleHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name] = SECRET_HEADERS.has(name) ? '(redacted)' : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function clip(body: string): string {
  if (body.length <= MAX_BODY_CHARS) return body;
  // V8 makes a slice of a long string a view that keeps the whole string alive: copied out, a
  // clipped 4 MiB body costs the journal 16 KiB, not 4 MiB.
  const head = Buffer.from(body.slice(0, MAX_BODY_CHARS), 'utf8').toString('utf8');
  return `${head}… (${body.length - MAX_BODY_CHARS} more characters)`;
}
