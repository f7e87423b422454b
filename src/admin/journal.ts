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

export class RequestJournal {
  private exchanges: Exchange[] = [];
  private counter = 0;
  private readonly completed: ((exchange: Exchange) => void)[] = [];

  constructor(private readonly capacity = 10_000) {}

  /** Opens the record of a request that just arrived. */
  open(arrival: Omit<Arrival, 'n'>, onStream?: (exchange: Exchange) => void): Exchange {
    return this.keep(new Exchange({ n: ++this.counter, ...arrival }, onStream));
  }

  /** Keeps an entry another replica of a shared store recorded (its numbers are its own). */
  adopt(entry: Omit<JournalEntry, 'n'>, replica: string): void {
    const exchange = Exchange.fromEntry({ n: ++this.counter, ...entry });
    exchange.replica = replica;
    this.keep(exchange);
  }

  /** Called with each exchange once its response is done (a stream's, when the stream ends). */
  onComplete(listener: (exchange: Exchange) => void): void {
    this.completed.push(listener);
  }

  /** The exchange's response is done: it is filled in for good. */
  complete(exchange: Exchange): void {
    for (const listener of this.completed) listener(exchange);
  }

  list(query: JournalQuery = {}): JournalEntry[] {
    const kept: JournalEntry[] = [];
    // Trimming is batched: exchanges beyond the newest `capacity` may still be held, never shown.
    for (let i = Math.max(0, this.exchanges.length - this.capacity); i < this.exchanges.length; i++) {
      const e = this.exchanges[i]!;
      const read = e.read;
      if (
        (query.binding === undefined || read?.binding === query.binding) &&
        (query.method === undefined || read?.operation === query.method || e.method === query.method) &&
        (query.taskId === undefined || e.taskId === query.taskId) &&
        (query.workspace === undefined || read?.scope?.workspace === query.workspace) &&
        (query.since === undefined || e.atMs >= query.since) &&
        (query.after === undefined || e.n > query.after)
      ) {
        kept.push(e.toJSON());
      }
    }
    return kept;
  }

  clear(): void {
    for (const exchange of this.exchanges) exchange.release();
    this.exchanges = [];
  }

  private keep(exchange: Exchange): Exchange {
    this.exchanges.push(exchange);
    // Trimmed in batches, so each request costs amortised O(1); a forgotten exchange keeps only
    // what the verdicts read (the judge may still hold it).
    if (this.exchanges.length > this.capacity + Math.ceil(this.capacity / 4)) {
      const cut = this.exchanges.length - this.capacity;
      for (let i = 0; i < cut; i++) this.exchanges[i]!.release();
      this.exchanges = this.exchanges.slice(cut);
    }
    return exchange;
  }
}
