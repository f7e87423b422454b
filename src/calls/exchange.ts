/**
 * One request to an agent, as one record (WireMock's ServeEvent): what arrived, what a binding read
 * it as, who called, the task it touched, what it was answered, how its stream ended and why, the
 * faults chaos applied, and its timings. The journal keeps it and shows its entry; the witness hands
 * it to the judge, whose rules read it; chaos annotates it. Every field is a bounded copy owned by
 * the record, never the raw request.
 */
import type { CardSignatureFault } from '../domain/card-signature.js';
import { A2AError } from '../domain/errors.js';
import { clip } from '../lib/excerpt.js';
import { headersBytes } from '../lib/bytes.js';
import type { Place, Scope } from '../domain/scope.js';
import { placeOf, scopeOf } from '../domain/scope.js';
import type { PushDialect, TaskState } from '../domain/types.js';
import type { ClientIdentity } from '../runtime/api.js';
import { AnswerCopy, type AnswerEntry } from './answer-copy.js';
import type { OperationName } from './operations.js';
import { traceContextOf, type CallTrace } from './trace-context.js';

/** A JSON-RPC id, or a task id the client named, longer than this is kept clipped (the answer echoes it whole). */
const MAX_ID_CHARS = 128;
/** A header value kept for more than the journal (the chaos header on fault records). */
const MAX_HEADER_CHARS = 1024;
/**
 * Fault numbers one record keeps: a client's chaos can fault an endless stream at every event, and
 * past these the record only counts them (`/_sim/faults?taskId=` still lists each, while kept).
 */
export const MAX_FAULTS_KEPT = 100;

/** What a binding read a request as. */
export interface ReadAs {
  /** e.g. `REST`, `JSON-RPC 1.0`, `JSON-RPC 0.3`, `gateway`. */
  binding: string;
  /** The A2A version of its shapes (unknown on a record adopted from another replica). */
  version?: PushDialect;
  /** The operation as the binding names it: `POST /message:stream`, `SendMessage`, `tasks/get`. */
  operation: string;
  /** What it asks for, whatever the binding; undefined for a method no binding knows. */
  kind?: OperationName;
  /** The JSON-RPC request id, if any. */
  id?: string | number | null;
  /** The scope the call acts in. */
  scope?: Scope;
  /** The `X-Sim-Chaos` header, as sent (clipped when long). */
  chaos?: string;
}

/** Why a call was refused: the error's type and reason, and how long it asked the client to wait. */
export interface Refusal {
  type: string;
  reason: string;
  retryAfterMs?: number;
}

/** How a fault record names the request it hit. */
export type RequestSummary = Omit<ReadAs, 'kind'>;

/** What the judge knows of one event a stream delivered to the client. */
export interface DeliveredFacts {
  /** Its seq; none for a snapshot or a made-up (quirk) event. */
  seq?: number;
  /** The state a status (or snapshot) showed. */
  state?: TaskState;
  /** Made up by a chaos quirk, not in the task's log. */
  synthetic?: boolean;
  /** The task's generation it carried (v1.1 draft §3.2.7, with `--preview generation`). */
  generation?: number;
}

/**
 * One event a stream delivered. A real event that showed nothing the judge needs (no state, or the
 * non-terminal state the stream showed last, and no generation: an artifact's chunk, a working
 * task's tick, most of a long stream) is kept as its seq alone, a number in the array where an
 * object of its own took 48 bytes more.
 */
export type Delivered = number | DeliveredFacts;

/** The facts of a delivered event, however it is kept. */
export const factsOf = (delivered: Delivered): DeliveredFacts =>
  typeof delivered === 'number' ? { seq: delivered } : delivered;

/** How a stream ended: cleanly, with an error frame, cut by chaos, or closed by the client. */
export type StreamEnd = 'clean' | 'error' | 'cut' | 'closed';

/** What the control plane shows of an exchange (`GET /_sim/requests`, the feed, the request log). */
export interface JournalEntry extends Place {
  n: number;
  /** When the request arrived, ISO 8601 clock time. */
  at: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  binding?: string;
  operation?: string;
  /** The JSON-RPC id (clipped when long). */
  id?: string | number | null;
  taskId?: string;
  /** Set when the response is complete; 0 when the connection closed without an answer. */
  status?: number;
  /** Whether the answer was an event stream. */
  streamed?: boolean;
  durationMs?: number;
  /** The answer as sent (a bounded copy); absent for a call that did not come over HTTP/1. */
  answer?: AnswerEntry;
  /** The `n` of each chaos fault applied to this request: the first 100. */
  faults: readonly number[];
  /** Faults applied past the first 100, only counted. */
  moreFaults?: number;
  /** The replica that recorded it, when another replica of a shared store did (its numbers are its own). */
  replica?: string;
  /** The W3C trace it belongs to: its `traceparent`'s, and its own span when spans are exported. */
  trace?: CallTrace;
}

export interface Arrival {
  n: number;
  atMs: number;
  method: string;
  path: string;
  headers: Record<string, string>;
}

export class Exchange {
  readonly n: number;
  /** Clock time the request arrived, epoch ms. */
  readonly atMs: number;
  readonly method: string;
  /** Clipped once the call is complete and the journal no longer shows it (see {@link slim}). */
  path: string;
  /** Secrets masked; released with the body when the journal forgets the exchange. */
  headers: Record<string, string>;
  body?: string;

  read?: ReadAs;
  client?: ClientIdentity;
  /** The task the call was about, or the one it created. */
  taskId?: string;
  /** For a message: the task its `taskId` named (a follow-up), if any. */
  continues?: string;
  /** For a resume: the cursor it carried (`afterSeq`, `Last-Event-ID`). */
  cursor?: number;
  /**
   * The W3C trace it belongs to: read from its `traceparent` (and `tracestate`) as it arrived, and
   * given its own span when spans are exported (src/tracing/).
   */
  trace?: CallTrace;
  /** An entry another replica of a shared store recorded, as this replica keeps it. */
  static fromEntry(entry: JournalEntry): Exchange {
    const {
      n,
      at,
      method,
      path,
      headers,
      body,
      binding,
      operation,
      id,
      taskId,
      status,
      streamed,
      durationMs,
    } = entry;
    const exchange = new Exchange({ n, atMs: Date.parse(at), method, path, headers });
    if (body !== undefined) exchange.body = body;
    if (binding !== undefined && operation !== undefined) {
      const { agent, workspace, tenant } = entry;
      const place: Place = {
        ...(agent !== undefined && { agent }),
        ...(workspace !== undefined && { workspace }),
        ...(tenant !== undefined && { tenant }),
      };
      exchange.readAs({ binding, operation, ...(id !== undefined && { id }), scope: scopeOf(place) });
    }
    if (taskId !== undefined) exchange.taskId = taskId;
    if (status !== undefined) exchange.status = status;
    if (streamed !== undefined) exchange.streamed = streamed;
    if (durationMs !== undefined) exchange.durationMs = durationMs;
    if (entry.trace !== undefined) exchange.trace = entry.trace;
    for (const n of entry.faults) exchange.faulted(n);
    exchange.moreFaults = entry.moreFaults ?? 0;
    return exchange;
  }

  /** What the call asks for, once a binding read it; `card` for a card fetch. */
  kind?: OperationName | 'card';
  /** For a card: whether it was asked for conditionally (`If-None-Match`, `If-Modified-Since`). */
  conditional?: boolean;
  /** For a card: how chaos spoiled its signature, when it did (the card the client got is forged). */
  forgedCard?: CardSignatureFault;

  /** The task's state as a non-streamed answer showed it. */
  state?: TaskState;
  /** The call was refused: by the service or chaos, or by its binding while reading it (`refused`). */
  error?: Refusal;
  /** What a stream delivered, in order; set for streamed answers. */
  delivered?: Delivered[];
  /** The stream delivered more than the judge keeps: `delivered` holds the first of them. */
  deliveredClipped?: boolean;
  /** Data frames the stream sent, keep-alives aside: all of them, however many `delivered` keeps. */
  sent = 0;
  ended?: StreamEnd;
  /** The fault that cut the stream, when chaos did. */
  cutBy?: number;
  /** Clock time the answer ended, epoch ms. */
  endedAtMs?: number;

  /** The HTTP status sent; 0 when the connection closed without an answer. */
  status?: number;
  streamed?: boolean;
  durationMs?: number;
  /**
   * The `n` of each chaos fault applied to this request, the first {@link MAX_FAULTS_KEPT}: most
   * have none, and share one empty list.
   */
  get faults(): readonly number[] {
    return this.faultNs ?? NO_FAULTS;
  }
  private faultNs: number[] | undefined;
  /** Faults applied past those `faults` keeps. */
  moreFaults = 0;
  /** The replica that recorded it, when another replica of a shared store did. */
  replica?: string;
  /** What the journal counted for it against its byte budget. */
  journaledBytes = 0;
  private slimmed = false;
  /** The answer as it went out, when the transport lets it be copied (HTTP/1); released with the body. */
  answer?: AnswerCopy;

  /** Told once when the answer turns out to be a stream (its headers go out now). */
  private readonly onStream: ((exchange: Exchange) => void) | undefined;

  constructor(arrival: Arrival, onStream?: (exchange: Exchange) => void) {
    this.n = arrival.n;
    this.atMs = arrival.atMs;
    this.method = arrival.method;
    this.path = arrival.path;
    this.headers = arrival.headers;
    const trace = traceContextOf(arrival.headers);
    if (trace) this.trace = trace;
    this.onStream = onStream;
  }

  /** Chaos applied fault `n` (its record's) to this request. */
  faulted(n: number): void {
    const kept = (this.faultNs ??= []);
    if (kept.length < MAX_FAULTS_KEPT) kept.push(n);
    else this.moreFaults++;
  }

  /** A binding read the request as this call. */
  readAs(read: ReadAs): void {
    if (read.kind !== undefined) this.kind = read.kind;
    this.read = {
      ...read,
      ...(read.id !== undefined && { id: clippedId(read.id) }),
      ...(read.chaos !== undefined && { chaos: clip(read.chaos, MAX_HEADER_CHARS) }),
    };
  }

  /** How fault records name it. */
  summary(): RequestSummary | undefined {
    if (!this.read) return undefined;
    const { kind: _kind, ...summary } = this.read;
    return summary;
  }

  /**
   * The call was refused: an A2A error (its type, reason and Retry-After), or a connection fault
   * chaos made (no answer at all).
   */
  refused(error: unknown): void {
    if (error instanceof A2AError) {
      const { retryAfterMs } = error.details;
      this.error = {
        type: error.type,
        reason: error.reason,
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      };
    } else {
      this.error = {
        type: 'ConnectionFault',
        reason: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /** The request fetched the agent card. */
  fetchedCard(conditional: boolean): void {
    this.kind = 'card';
    this.conditional = conditional;
  }

  /** The call is about this task (named by the request, or created by it): a named id is the client's to make long. */
  about(taskId: string): void {
    this.taskId = clip(taskId, MAX_ID_CHARS);
  }

  /** The request body, as the binding read it (clipped). */
  readBody(text: string): void {
    this.body = clip(text, MAX_BODY_CHARS);
  }

  /** The answer is an event stream; its headers go out now. */
  streaming(): void {
    this.streamed = true;
    this.onStream?.(this);
  }

  /** Starts copying the answer as it goes out (a bounded copy: see answer-copy.ts). */
  copyAnswer(): AnswerCopy {
    return (this.answer = new AnswerCopy());
  }

  /** What its copies of the request and answer hold, approximately, in bytes: what the journal counts. */
  requestBytes(): number {
    let bytes = EXCHANGE_BYTES + this.path.length + (this.body?.length ?? 0) + (this.answer?.bytes ?? 0);
    if (this.trace) bytes += TRACE_BYTES + (this.trace.state?.length ?? 0);
    return bytes + headersBytes(this.headers);
  }

  /** The journal no longer shows it: only what the verdicts read stays. */
  release(): void {
    this.headers = {};
    // Assigned, not deleted: a `delete` turns the object the verdicts keep into a dictionary, ~4× larger.
    this.body = undefined;
    this.answer = undefined;
    if (this.read?.chaos !== undefined) {
      const { chaos: _chaos, ...read } = this.read;
      this.read = read;
    }
  }

  /**
   * The call is complete and the journal no longer shows it: the facts its completion reported (its
   * place, its trace, its whole path) go too, and only what the verdicts read stays.
   */
  slim(): void {
    if (this.slimmed) return;
    this.slimmed = true;
    this.path = clip(this.path, MAX_SLIM_PATH_CHARS);
    this.trace = undefined;
    if (this.read?.scope !== undefined) {
      const { scope: _scope, ...read } = this.read;
      this.read = read;
    }
  }

  toJSON(): JournalEntry {
    const entry: JournalEntry = {
      n: this.n,
      at: new Date(this.atMs).toISOString(),
      method: this.method,
      path: this.path,
      headers: this.headers,
      ...(this.body !== undefined && { body: this.body }),
      faults: this.faults,
      ...(this.moreFaults > 0 && { moreFaults: this.moreFaults }),
    };
    const { read } = this;
    if (read) {
      entry.binding = read.binding;
      entry.operation = read.operation;
      if (read.id !== undefined) entry.id = read.id;
      if (read.scope !== undefined) Object.assign(entry, placeOf(read.scope));
    }
    if (this.taskId !== undefined) entry.taskId = this.taskId;
    if (this.status !== undefined) entry.status = this.status;
    if (this.streamed !== undefined) entry.streamed = this.streamed;
    if (this.durationMs !== undefined) entry.durationMs = this.durationMs;
    if (this.answer !== undefined) entry.answer = this.answer.toEntry(this.streamed === true);
    if (this.replica !== undefined) entry.replica = this.replica;
    if (this.trace !== undefined) entry.trace = this.trace;
    return entry;
  }
}

const NO_FAULTS: readonly number[] = Object.freeze([]);

/** What an exchange costs beside its request's copies, approximately. */
const EXCHANGE_BYTES = 400;
/** What its trace's ids cost, approximately. */
const TRACE_BYTES = 150;

/** A path a slim record keeps: what a call the verdicts hold costs is counted from it (a path may be 16 KiB). */
export const MAX_SLIM_PATH_CHARS = 256;

/** Bodies are kept up to this size; the rest is cut off (and said so). */
export const MAX_BODY_CHARS = 16 * 1024;

function clippedId(id: string | number | null): string | number | null {
  return typeof id === 'string' ? clip(id, MAX_ID_CHARS) : id;
}
