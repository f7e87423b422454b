/**
 * Follows the shared log: a blocking read on its own connection, each entry handed on in log
 * order, and a way for a request to wait until everything logged before it has been applied.
 *
 * Each entry carries its count `n` (1, 2, …, given by the script that adds it); one stream entry
 * holds the entries of one write, in order (scripts.ts). An entry whose count is not the next one
 * means the entries between were trimmed before this replica read them (it was paused, or slow, or
 * started late): it has fallen behind. It refuses calls, rebuilds from the snapshots, and then goes
 * on reading where it was, skipping what the snapshots already hold.
 */
import { deadline, wallDelay, wallNow } from '../lib/clock.js';
import { TurnBatch } from '../lib/turn-batch.js';
import type { Entry } from './mirror.js';
import { messageOf, type RedisLink } from './redis.js';

/** How long a request waits for the log to be applied up to its tail before it is refused. */
const CATCH_UP_TIMEOUT_MS = 5_000;
const BLOCK_MS = 1_000;
/** A read that answered this much later than its block is a replica that was not running. */
const STALE_AFTER_MS = BLOCK_MS + 2_000;
/** Entries read at most at once (and at first), and the bytes a read aims at. */
const MAX_BATCH = 1_000;
const FIRST_BATCH = 100;
const BATCH_BYTES = 8 * 1024 ** 2;
/** Replicas of an older version named at most, however many write. */
const MAX_OLDER_WRITERS = 16;

export interface LogFollower {
  /** Whether entries `from` this replica are to be applied: its own, already applied, are not even read. */
  applies(from: string): boolean;
  /**
   * An entry, in log order. `covered`: the snapshots this replica last rebuilt from hold it
   * already; only what they do not keep (journal, faults, deliveries) is still to apply.
   */
  entry(from: string, entry: Entry, covered: boolean): void;
  /** Entries after count `after` are gone: brings the store to the snapshots; resolves with `covers`. */
  rebuild(after: number, next: number): Promise<number>;
  /** The replica fell behind: what it serves is stale until it has rebuilt. */
  behind(): void;
}

/** The replica fell behind the shared log and is rebuilding: a call must not be answered from it. */
export class BehindError extends Error {
  constructor() {
    super('this replica fell behind the shared log and is rebuilding its tasks from the store');
  }
}

interface Waiter {
  id: string;
  resolve(): void;
  reject(error: Error): void;
}

export class SharedLogReader {
  /** The id of the last entry applied; entries come after it. */
  private applied = '0-0';
  /** The count of the last entry applied; 0 before the first. */
  private count = 0;
  /** Entries up to this count are in the snapshots the store was last rebuilt from. */
  private covered = 0;
  private rebuilding = false;
  private current: Promise<void> = Promise.resolve();
  private readonly waiters = new Set<Waiter>();
  /**
   * The id of the log's last entry, read after the call asked: the calls of one turn of the event
   * loop share one read.
   */
  private readonly tail = new TurnBatch<undefined, string | undefined>(async (calls) => {
    const [last] = await this.link.requests.xrevrange(this.key, '+', '-', 'COUNT', 1);
    return calls.map(() => last?.[0]);
  });
  private running = false;
  /** The replicas found writing in the older format, told once each. */
  private readonly olderWriters = new Set<string>();
  /** When the last read that answered was asked for. */
  private askedAt = wallNow();
  private batch = FIRST_BATCH;

  constructor(
    private readonly link: RedisLink,
    private readonly key: string,
    private readonly follower: LogFollower,
    private readonly warn: (message: string) => void,
    /** Writes made since this instant (epoch ms) are live replicas'; those before, a kept log's. */
    private readonly liveSince = wallNow(),
  ) {}

  /** Rebuilding, or not reading: a paused process finds its last read answered long after it asked. */
  get behind(): boolean {
    return this.rebuilding || wallNow() - this.askedAt > STALE_AFTER_MS;
  }

  start(): void {
    this.running = true;
    void this.follow();
  }

  stop(): void {
    this.running = false;
  }

  /**
   * Resolves once every entry the log holds now has been applied; throws BehindError while the
   * replica rebuilds, or when it finds it fell behind meanwhile. `throughRebuild`: waits instead.
   */
  async catchUp(throughRebuild = false): Promise<void> {
    for (;;) {
      try {
        return await this.catchUpOnce();
      } catch (error) {
        if (!throughRebuild || !(error instanceof BehindError)) throw error;
        await this.current;
      }
    }
  }

  private async catchUpOnce(): Promise<void> {
    if (this.rebuilding) throw new BehindError();
    const last = await this.tail.ask(undefined);
    if (last === undefined || !isAfter(last, this.applied)) return;
    await new Promise<void>((resolve, reject) => {
      const cancel = deadline(CATCH_UP_TIMEOUT_MS, () => {
        this.waiters.delete(waiter);
        reject(new Error(`the shared log was not applied up to ${last} within ${CATCH_UP_TIMEOUT_MS} ms`));
      });
      const settle = () => {
        cancel();
        this.waiters.delete(waiter);
      };
      const waiter: Waiter = {
        id: last,
        resolve: () => (settle(), resolve()),
        reject: (error) => (settle(), reject(error)),
      };
      this.waiters.add(waiter);
    });
  }

  private async follow(): Promise<void> {
    while (this.running) {
      try {
        const asked = wallNow();
        const reply = await this.link.follower.xread(
          'COUNT',
          this.batch,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          this.key,
          this.applied,
        );
        this.askedAt = asked;
        const entries = reply?.[0]?.[1] ?? [];
        let bytes = 0;
        for (const [id, fields] of entries) {
          const read = readWrite(fields, this.count + 1);
          if (read.n > this.count + 1 && read.n - 1 > this.covered) await this.rebuild(read.n);
          bytes += this.take(id, read);
          if (!this.running) return;
        }
        this.resize(entries.length, bytes);
        this.release();
      } catch {
        if (!this.running) return;
        // Away: the connection reconnects by itself; reading resumes where it stopped.
        await wallDelay(200);
      }
    }
  }

  /**
   * Applies one write's entries, once the entries before them are applied or rebuilt from (the
   * caller rebuilds first when they are gone); answers its size. Not async: most reads apply every
   * entry at once.
   */
  private take(id: string, { from, text, n, count, many }: ReadWrite): number {
    if (n <= this.count) {
      // The count went back: Redis started again without its data, and the log with it.
      this.warn(`replica: the shared log starts again at entry ${n} (Redis lost its data)`);
      this.covered = 0;
    }
    this.applied = id;
    this.count = n + count - 1;
    // Its own writes, applied when made, are not even parsed.
    if (!this.follower.applies(from)) return text.length;
    if (!many) this.olderWriter(id, from);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return text.length;
    }
    const entries = (many ? parsed : [parsed]) as Entry[];
    for (let i = 0; i < entries.length; i++) this.follower.entry(from, entries[i]!, n + i <= this.covered);
    return text.length;
  }

  /**
   * A replica of a version before writes were batched is read here, but cannot read this one's
   * writes: it takes each for a gap and keeps rebuilding. Told once a replica, for writes made
   * since this one started (a log kept from before an upgrade is not a running replica).
   */
  private olderWriter(id: string, from: string): void {
    if (Number(id.split('-')[0]) < this.liveSince || this.olderWriters.has(from)) return;
    if (this.olderWriters.size >= MAX_OLDER_WRITERS) return;
    this.olderWriters.add(from);
    this.warn(
      `replica: replica ${from} writes the shared log one entry at a time, as versions before this one did: it cannot read this replica's writes and will keep falling behind. Run the same version on every replica.`,
    );
  }

  /** Refuses what waits, then rebuilds until it works (Redis may be away meanwhile). */
  private async rebuild(next: number): Promise<void> {
    this.rebuilding = true;
    let done!: () => void;
    this.current = new Promise((resolve) => (done = resolve));
    for (const waiter of this.waiters) waiter.reject(new BehindError());
    this.follower.behind();
    try {
      while (this.running) {
        try {
          this.covered = await this.follower.rebuild(this.count, next);
          return;
        } catch (error) {
          this.warn(`replica: rebuilding from the store's snapshots failed: ${messageOf(error)}; retrying`);
          await wallDelay(500);
        }
      }
    } finally {
      this.rebuilding = false;
      done();
    }
  }

  /** Reads more at once while entries are small, fewer when they are big: a read stays bounded. */
  private resize(read: number, bytes: number): void {
    if (bytes > BATCH_BYTES) this.batch = Math.max(1, Math.floor(this.batch / 2));
    else if (read === this.batch && bytes < BATCH_BYTES / 2) this.batch = Math.min(MAX_BATCH, this.batch * 2);
  }

  private release(): void {
    for (const waiter of this.waiters) {
      if (!isAfter(waiter.id, this.applied)) waiter.resolve();
    }
  }
}

/** One write of a replica, as the log holds it. */
interface ReadWrite {
  /** The replica that wrote it. */
  from: string;
  /** Its entries: a JSON array (`many`), or one entry as logs written before batches hold it. */
  text: string;
  many: boolean;
  /** The count of its first entry; `next` when it carries none. */
  n: number;
  /** How many entries it holds. */
  count: number;
}

/** A stream entry's fields, as Redis answers them: name, value, name, value. */
function readWrite(fields: string[], next: number): ReadWrite {
  const read: ReadWrite = { from: '', text: '', many: false, n: next, count: 1 };
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const value = fields[i + 1]!;
    switch (fields[i]) {
      case 'r':
        read.from = value;
        break;
      case 'b':
        read.text = value;
        read.many = true;
        break;
      case 'd':
        read.text = value;
        break;
      case 'n':
        read.n = Number(value);
        break;
      case 'c':
        read.count = Math.max(1, Number(value) || 1);
        break;
    }
  }
  return read;
}

/** Whether stream id `a` comes after `b` (`ms-seq`). */
function isAfter(a: string, b: string): boolean {
  const [aMs, aSeq] = a.split('-').map(Number) as [number, number];
  const [bMs, bSeq] = b.split('-').map(Number) as [number, number];
  return aMs > bMs || (aMs === bMs && aSeq > bSeq);
}
