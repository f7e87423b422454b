/**
 * How the journal learns about a request: an entry opens when the request arrives, and the binding
 * that serves it tells the entry's trace what it read the request as, which task it is about, its
 * body and that it streams. The entry closes with the response; the faults chaos applied to the
 * request meanwhile are linked to it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultLog } from '../chaos/fault-log.js';
import type { RequestTrace } from '../bindings/shared/trace.js';
import { placeOf } from '../domain/scope.js';
import type { Clock } from '../lib/clock.js';
import { merge } from '../lib/objects.js';
import type { WireRequest } from '../runtime/api.js';
import type { SimEventBody, SimEventBus } from './events.js';
import type { JournalEntry, RequestJournal } from './journal.js';

/** Bodies are kept up to this size; the rest is cut off (and said so). */
const MAX_BODY_CHARS = 16 * 1024;

/** Headers whose values are secrets: the journal shows that they were sent, not what they hold. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-admin-token', 'cookie']);

/**
 * Opens an entry when a request arrives and returns its trace, for the binding that serves the
 * request to fill in; the entry closes when the response is done.
 */
export function journalRequests(
  journal: RequestJournal,
  faults: FaultLog,
  events: SimEventBus,
  clock: Clock,
) {
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
  return (req: IncomingMessage, res: ServerResponse): RequestTrace => {
    const started = clock.now();
    const arrived = {
      at: new Date(started).toISOString(),
      method: req.method ?? '',
      // Mounted inside another express app, the path as the client sent it is `originalUrl`.
      path: (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/',
      headers: visibleHeaders(req),
    };
    const entry = journal.record(merge(arrived, { faults: [] as number[] }));
    const streamEvent = (type: 'stream:opened' | 'stream:closed') =>
      events.publish({ type, request: entry.n, ...(entry.taskId !== undefined && { taskId: entry.taskId }) });
    const trace: RequestTrace = {
      read(wire) {
        entry.binding = wire.binding;
        entry.operation = wire.operation;
        if (wire.id !== undefined) entry.id = wire.id;
        if (wire.scope !== undefined) Object.assign(entry, placeOf(wire.scope));
        entry.faults = faultList(wire);
      },
      about(taskId) {
        entry.taskId = taskId;
      },
      body(text) {
        entry.body = clip(text);
      },
      streaming() {
        entry.streamed = true;
        streamEvent('stream:opened');
      },
    };
    res.on('close', () => {
      entry.status = statusOf(res);
      if (res.headersSent) entry.streamed ??= false;
      entry.durationMs = clock.now() - started;
      if (entry.streamed) streamEvent('stream:closed');
      journal.complete(entry);
    });
    // As it arrived: the entry fills in later, and an event in the bus history must not change after
    // the fact (the live feed and a replay of it would disagree).
    const { n } = entry;
    events.publish(requestReceivedBody, n, arrived);
    return trace;
  };
}

function requestReceivedBody(n: number, arrived: Omit<JournalEntry, 'n' | 'faults'>): SimEventBody {
  return { type: 'request:received', request: merge({ n, ...arrived }, { faults: [] }) };
}

/** The status sent, or 0 when the connection closed without an answer. */
function statusOf(res: ServerResponse): number {
  return res.headersSent ? res.statusCode : 0;
}

function visibleHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const sent = req.headers;
  // for…in over Node's header object (a null-prototype object): no entry arrays per request.
  for (const name in sent) {
    const value = sent[name];
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
