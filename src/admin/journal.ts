/**
 * The request journal (WireMock's, for A2A): every request to an agent, as received, with the
 * binding and operation it was read as, the task it touched, the response status and timing, and
 * the chaos faults applied to it. A bounded ring; `GET /_sim/requests` serves it. How entries are
 * filled in is journal-trace.ts.
 */
import type { Place } from '../domain/scope.js';
import { RingLog } from '../lib/ring-log.js';

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
  /** The replica that recorded it, when another replica of a shared store did (its numbers are its own). */
  replica?: string;
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
  private readonly completed: ((entry: JournalEntry) => void)[] = [];

  /** Called with each entry once its response is done (a stream's, when the stream ends). */
  onComplete(listener: (entry: JournalEntry) => void): void {
    this.completed.push(listener);
  }

  /** The entry's response is done: it is filled in for good. */
  complete(entry: JournalEntry): void {
    for (const listener of this.completed) listener(entry);
  }

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
