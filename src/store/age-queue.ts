/**
 * Keys with the time each joined, read oldest first: the store's queues of ended and of waiting
 * tasks, which it reads from the front and deletes from the front.
 *
 * Not a `Map` read through its iterator: V8 leaves a deleted entry in the map's table until the
 * table is rebuilt, and an iterator started at the front walks past every one of them, so reading
 * the oldest of 10,000 ended tasks cost ~5 µs. Here the order is kept in two arrays read from a
 * head index. A key deleted before the head reaches it leaves a stale entry there, passed over when
 * read; the arrays are rebuilt once they hold more entries read or stale than live ones.
 */
export class AgeQueue {
  /** Each key's live entry: its index in the arrays. */
  private readonly entryOf = new Map<string, number>();
  private keys: string[] = [];
  private times: number[] = [];
  private head = 0;

  get size(): number {
    return this.entryOf.size;
  }

  /**
   * Entries the queue holds, live, read or stale: what it costs. At most the larger of twice its size
   * and its size plus 1,024.
   */
  get held(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    return this.entryOf.has(key);
  }

  /** Adds `key`, joined at `at`; a key already there moves to the back. */
  set(key: string, at: number): void {
    this.entryOf.set(key, this.keys.length);
    this.keys.push(key);
    this.times.push(at);
    this.rebuildIfStale();
  }

  delete(key: string): boolean {
    return this.entryOf.delete(key);
  }

  clear(): void {
    this.entryOf.clear();
    this.keys = [];
    this.times = [];
    this.head = 0;
  }

  /** The keys and when they joined, oldest first; deleting while reading is fine. */
  *entries(): Generator<[key: string, at: number]> {
    for (let i = this.head; i < this.keys.length; i++) {
      if (this.entryOf.get(this.keys[i]!) === i) yield [this.keys[i]!, this.times[i]!];
    }
  }

  /** The oldest key and when it joined, if any. */
  oldest(): [key: string, at: number] | undefined {
    for (; this.head < this.keys.length; this.head++) {
      const key = this.keys[this.head]!;
      if (this.entryOf.get(key) === this.head) return [key, this.times[this.head]!];
    }
    return undefined;
  }

  /** Rebuilds the arrays once most of what they hold is read or stale: amortised, a constant a key. */
  private rebuildIfStale(): void {
    const wasted = this.keys.length - this.entryOf.size;
    if (wasted < 1024 || wasted <= this.entryOf.size) return;
    const keys: string[] = [];
    const times: number[] = [];
    for (const [key, at] of this.entries()) {
      this.entryOf.set(key, keys.length);
      keys.push(key);
      times.push(at);
    }
    this.keys = keys;
    this.times = times;
    this.head = 0;
  }
}
