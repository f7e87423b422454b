/**
 * The request journal (WireMock's, for A2A): every request to an agent, as received, with the
 * binding and operation it was read as, the task it touched, the response status and timing, and
 * the chaos faults applied to it. A bounded ring; `GET /_sim/requests` serves it. How entries are
 * filled in is journal-trace.ts.
 */
import { Exchange, type Arrival, type JournalEntry } from '../calls/exchange.js';

export type { JournalEntry };

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

/** What the journal's exchanges may hold by default (their headers and bodies), approximately. */
export const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;

export class RequestJournal {
  /** Oldest first; those before `first` are forgotten, dropped in batches. */
  private exchanges: Exchange[] = [];
  private first = 0;
  private counter = 0;
  private heldBytes = 0;
  /** The `n` of the newest exchange when it was last cleared. */
  private clearedUpTo = 0;
  private readonly opened: ((exchange: Exchange) => void)[] = [];
  private readonly completed: ((exchange: Exchange) => void)[] = [];
  private readonly streamsOpened: ((exchange: Exchange) => void)[] = [];

  constructor(
    private readonly capacity = 10_000,
    readonly maxBytes = DEFAULT_JOURNAL_BYTES,
  ) {}

  /** Whether it keeps requests at all: a journal of size 0 keeps none, yet tells its listeners of each. */
  get keeps(): boolean {
    return this.capacity > 0;
  }

  /** What the exchanges it shows hold, approximately, in bytes. */
  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.exchanges.length - this.first;
  }

  /** Opens the record of a request that just arrived. */
  open(arrival: Omit<Arrival, 'n'>, onStream?: (exchange: Exchange) => void): Exchange {
    const exchange = new Exchange({ n: ++this.counter, ...arrival }, onStream);
    if (this.keeps) this.keep(exchange);
    for (const listener of this.opened) listener(exchange);
    return exchange;
  }

  /** Keeps an entry another replica of a shared store recorded (its numbers are its own). */
  adopt(entry: Omit<JournalEntry, 'n'>, replica: string): void {
    const exchange = Exchange.fromEntry({ n: ++this.counter, ...entry });
    exchange.replica = replica;
    if (this.keeps) this.keep(exchange);
  }

  /** Called with each exchange as its request arrives, before any binding reads it. */
  onOpen(listener: (exchange: Exchange) => void): void {
    this.opened.push(listener);
  }

  /** Called with each exchange once its response is done (a stream's, when the stream ends). */
  onComplete(listener: (exchange: Exchange) => void): void {
    this.completed.push(listener);
  }

  /** The exchange's response is done: it is filled in for good, its body counted. */
  complete(exchange: Exchange): void {
    if (!this.keeps) exchange.release();
    else if (exchange.n > this.forgottenUpTo()) {
      this.count(exchange);
      this.fit();
    }
    for (const listener of this.completed) listener(exchange);
    // Its listeners told, a call the journal does not show keeps only what the verdicts read.
    if (exchange.n <= this.forgottenUpTo()) exchange.slim();
  }

  /** Called with each exchange whose answer turns out to be a stream, as its headers go out. */
  onStreamOpen(listener: (exchange: Exchange) => void): void {
    this.streamsOpened.push(listener);
  }

  /** The exchange's answer is a stream: its headers go out now. */
  streamOpened(exchange: Exchange): void {
    for (const listener of this.streamsOpened) listener(exchange);
  }

  list(query: JournalQuery = {}): JournalEntry[] {
    return [...this.entries(query)];
  }

  /**
   * The entries `query` selects, oldest first, each made when it is asked for: an export streams
   * them, and the journal may forget some or compact meanwhile, so it walks a copy of the list and
   * skips what is no longer kept.
   */
  *entries(query: JournalQuery = {}): Generator<JournalEntry> {
    for (const e of this.exchanges.slice(this.first)) {
      if (this.indexOf(e.n) === undefined) continue;
      const read = e.read;
      if (
        (query.binding === undefined || read?.binding === query.binding) &&
        (query.method === undefined || read?.operation === query.method || e.method === query.method) &&
        (query.taskId === undefined || e.taskId === query.taskId) &&
        (query.workspace === undefined || read?.scope?.workspace === query.workspace) &&
        (query.since === undefined || e.atMs >= query.since) &&
        (query.after === undefined || e.n > query.after)
      ) {
        yield e.toJSON();
      }
    }
  }

  /** The entry numbered `n`, while the journal keeps it. */
  find(n: number): JournalEntry | undefined {
    const i = this.indexOf(n);
    return i === undefined ? undefined : this.exchanges[i]!.toJSON();
  }

  private indexOf(n: number): number | undefined {
    // Numbers only grow, one per exchange, but adopted entries and clears leave gaps: search.
    let low = this.first;
    let high = this.exchanges.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const exchange = this.exchanges[mid]!;
      if (exchange.n === n) return mid;
      if (exchange.n < n) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  clear(): void {
    for (let i = this.first; i < this.exchanges.length; i++) forget(this.exchanges[i]!);
    this.clearedUpTo = this.counter;
    this.exchanges = [];
    this.first = 0;
    this.heldBytes = 0;
  }

  private keep(exchange: Exchange): Exchange {
    this.exchanges.push(exchange);
    this.count(exchange);
    this.fit();
    return exchange;
  }

  /** Counts what the exchange holds now (its body is read after it opened). */
  private count(exchange: Exchange): void {
    const bytes = exchange.requestBytes();
    this.heldBytes += bytes - exchange.journaledBytes;
    exchange.journaledBytes = bytes;
  }

  /** The `n` of the newest exchange it forgot (all of them, when it keeps none). */
  private forgottenUpTo(): number {
    if (!this.keeps) return this.counter;
    return this.first > 0 ? this.exchanges[this.first - 1]!.n : this.clearedUpTo;
  }

  /**
   * Forgets the oldest exchanges past the count or the byte budget. A forgotten exchange keeps only
   * what the verdicts read (the judge may still hold it); the array is compacted in batches, so
   * each request costs amortised O(1).
   */
  private fit(): void {
    while (this.size > 1 && (this.size > this.capacity || this.heldBytes > this.maxBytes)) {
      const oldest = this.exchanges[this.first++]!;
      this.heldBytes -= oldest.journaledBytes;
      forget(oldest);
    }
    if (this.first > 1024 && this.first * 2 > this.exchanges.length) {
      this.exchanges = this.exchanges.slice(this.first);
      this.first = 0;
    }
  }
}

/** The journal no longer shows the exchange; once its call is complete, only what the verdicts read stays. */
function forget(exchange: Exchange): void {
  exchange.release();
  if (exchange.status !== undefined) exchange.slim();
}
