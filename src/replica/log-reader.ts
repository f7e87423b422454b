/**
 * Follows the shared log: a blocking read on its own connection, each entry handed on in log
 * order, and a way for a request to wait until everything logged before it has been applied.
 */
import { deadline, wallDelay } from '../lib/clock.js';
import type { Entry } from './mirror.js';
import type { RedisLink } from './redis.js';

/** How long a request waits for the log to be applied up to its tail before it is refused. */
const CATCH_UP_TIMEOUT_MS = 5_000;

export class SharedLogReader {
  /** The id of the last entry applied; entries come after it. */
  private applied = '0-0';
  private waiters: { id: string; resolve: () => void }[] = [];
  private running = false;

  constructor(
    private readonly link: RedisLink,
    private readonly key: string,
    private readonly onEntry: (from: string, entry: Entry) => void,
  ) {}

  start(): void {
    this.running = true;
    void this.follow();
  }

  stop(): void {
    this.running = false;
  }

  /** Resolves once every entry the log holds now has been applied. */
  async catchUp(): Promise<void> {
    const [last] = await this.link.requests.xrevrange(this.key, '+', '-', 'COUNT', 1);
    if (!last || !isAfter(last[0], this.applied)) return;
    await new Promise<void>((resolve, reject) => {
      const cancel = deadline(CATCH_UP_TIMEOUT_MS, () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`the shared log was not applied up to ${last[0]} within ${CATCH_UP_TIMEOUT_MS} ms`));
      });
      const waiter = {
        id: last[0],
        resolve: () => {
          cancel();
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  private async follow(): Promise<void> {
    while (this.running) {
      try {
        const reply = await this.link.follower.xread(
          'COUNT',
          1000,
          'BLOCK',
          1000,
          'STREAMS',
          this.key,
          this.applied,
        );
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) this.take(id, fields);
        }
        this.release();
      } catch {
        if (!this.running) return;
        // Away: the connection reconnects by itself; reading resumes where it stopped.
        await wallDelay(200);
      }
    }
  }

  private take(id: string, fields: string[]): void {
    this.applied = id;
    let from = '';
    let data = '';
    for (let i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i] === 'r') from = fields[i + 1]!;
      else if (fields[i] === 'd') data = fields[i + 1]!;
    }
    let entry: Entry;
    try {
      entry = JSON.parse(data) as Entry;
    } catch {
      return;
    }
    this.onEntry(from, entry);
  }

  private release(): void {
    if (this.waiters.length === 0) return;
    const waiting: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (isAfter(waiter.id, this.applied)) waiting.push(waiter);
      else waiter.resolve();
    }
    this.waiters = waiting;
  }
}

/** Whether stream id `a` comes after `b` (`ms-seq`). */
function isAfter(a: string, b: string): boolean {
  const [aMs, aSeq] = a.split('-').map(Number) as [number, number];
  const [bMs, bSeq] = b.split('-').map(Number) as [number, number];
  return aMs > bMs || (aMs === bMs && aSeq > bSeq);
}
