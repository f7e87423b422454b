/**
 * How the journal learns about a request: its exchange record opens when the request arrives, the
 * binding that serves it and the layers of the call fill it in (what it was read as, its task, its
 * body, that it streams, the faults chaos applied), and it is complete when the response is done.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Exchange, JournalEntry } from '../calls/exchange.js';
import type { Clock } from '../lib/clock.js';
import { requestEventBytes, type SimEventBody, type SimEventBus } from './events.js';
import type { RequestJournal } from './journal.js';

/** Headers whose values are secrets: the journal shows that they were sent, not what they hold. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-admin-token', 'cookie']);

/**
 * Opens the exchange record of a request when it arrives, for the binding that serves it to fill
 * in; the record is complete when the response is done.
 */
export function journalRequests(journal: RequestJournal, events: SimEventBus, clock: Clock) {
  const open = journalCalls(journal, events, clock);
  return (req: IncomingMessage, res: ServerResponse): Exchange => {
    const call = open({
      method: req.method ?? '',
      // Mounted inside another express app, the path as the client sent it is `originalUrl`.
      path: (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/',
      headers: req.headers,
    });
    if (journal.keeps) copyAnswer(res, call.exchange);
    res.on('close', () => call.complete(statusOf(res), res.headersSent));
    return call.exchange;
  };
}

/**
 * Copies what the response writes into the exchange's answer, as it goes out. Through the exchange,
 * not a copy held here: once the journal forgets the exchange, nothing more is copied.
 */
function copyAnswer(res: ServerResponse, exchange: Exchange): void {
  exchange.copyAnswer();
  const take = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) exchange.answer?.take(chunk);
  };
  const { write, end, writeHead } = res;
  // Headers given to writeHead go straight out, never into getHeaders(): both are read here. An
  // implicit head (a write without one) goes through writeHead too.
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const given = rest.find((arg): arg is Record<string, unknown> => isHeaderObject(arg));
    const result = (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
    exchange.answer?.sentHeaders(this.getHeaders(), given as Record<string, string> | undefined);
    return result;
  } as typeof res.writeHead;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    take(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') take(chunk);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
}

/** A call that arrived other than as an HTTP/1 request (gRPC): how the journal opens its record. */
export interface CallArrival {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface JournaledCall {
  exchange: Exchange;
  /**
   * The answer is done: `status` is the HTTP status sent (0 when the call closed without an
   * answer), `answered` whether anything went out.
   */
  complete(status: number, answered: boolean): void;
}

/** Opens the exchange record of a call whatever carried it; {@link journalRequests} for HTTP. */
export function journalCalls(journal: RequestJournal, events: SimEventBus, clock: Clock) {
  const streamEvent = (type: 'stream:opened' | 'stream:closed', exchange: Exchange) =>
    events.publish({
      type,
      request: exchange.n,
      ...(exchange.taskId !== undefined && { taskId: exchange.taskId }),
    });
  const opened = (exchange: Exchange) => {
    journal.streamOpened(exchange);
    streamEvent('stream:opened', exchange);
  };
  return (arrival: CallArrival): JournaledCall => {
    const exchange = journal.open(
      {
        atMs: clock.now(),
        method: arrival.method,
        path: arrival.path,
        headers: visibleHeaders(arrival.headers),
      },
      opened,
    );
    let completed = false;
    const complete = (status: number, answered: boolean) => {
      if (completed) return;
      completed = true;
      exchange.status = status;
      if (answered) exchange.streamed ??= false;
      exchange.durationMs = clock.now() - exchange.atMs;
      if (exchange.streamed) streamEvent('stream:closed', exchange);
      journal.complete(exchange);
    };
    // As it arrived: the entry fills in later, and an event in the bus history must not change after
    // the fact (the live feed and a replay of it would disagree).
    events.publish(
      requestReceivedBody,
      exchange,
      exchange.headers,
      requestEventBytes(exchange.path, exchange.headers),
    );
    return { exchange, complete };
  };
}

/** Made from what never changes on an exchange: what arrived, and the headers as they were. */
function requestReceivedBody(exchange: Exchange, headers: Record<string, string>): SimEventBody {
  const { n, atMs, method, path } = exchange;
  const request: JournalEntry = { n, at: new Date(atMs).toISOString(), method, path, headers, faults: [] };
  return { type: 'request:received', request };
}

function isHeaderObject(arg: unknown): arg is Record<string, unknown> {
  return typeof arg === 'object' && arg !== null && !Array.isArray(arg);
}

/** The status sent, or 0 when the connection closed without an answer. */
function statusOf(res: ServerResponse): number {
  return res.headersSent ? res.statusCode : 0;
}

function visibleHeaders(sent: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  // for…in over Node's header object (a null-prototype object): no entry arrays per request.
  for (const name in sent) {
    const value = sent[name];
    if (value === undefined) continue;
    headers[name] = SECRET_HEADERS.has(name) ? '(redacted)' : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
