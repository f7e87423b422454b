/**
 * An append-only record that keeps only its newest entries, numbered 1, 2, … in order, with
 * listeners for each new one: what the fault and delivery logs are made of. It keeps at most
 * `capacity` entries and what they hold within `maxBytes` (by `weigh`, an estimate): an entry's
 * strings are its callers' (a scope's names, a webhook's URL), so a count alone bounds nothing.
 */
export interface RingLogLimits<T> {
  /** Entries kept at most (default 10,000). */
  capacity?: number;
  /** What the kept entries may hold, approximately, in bytes (default 8 MiB); the newest is kept whatever its size. */
  maxBytes?: number;
  /** What one entry holds, approximately, in bytes. */
  weigh(entry: T): number;
}

export class RingLog<T extends { n: number }> {
  /** Entries from `start` on are kept; those before it are dropped, and compacted away in batches. */
  private entries: T[] = [];
  private weights: number[] = [];
  private start = 0;
  private counter = 0;
  private heldBytes = 0;
  private readonly listeners: ((entry: T) => void)[] = [];
  private readonly capacity: number;
  readonly maxBytes: number;
  private readonly weigh: (entry: T) => number;

  constructor({ capacity = 10_000, maxBytes = 8 * 1024 ** 2, weigh }: RingLogLimits<T>) {
    this.capacity = capacity;
    this.maxBytes = maxBytes;
    this.weigh = weigh;
  }

  /** What the kept entries hold, approximately, in bytes. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** How many entries are kept. */
  get size(): number {
    return this.entries.length - this.start;
  }

  record(entry: Omit<T, 'n'>): T {
    const numbered = { n: ++this.counter, ...entry } as T;
    const weight = this.weigh(numbered);
    this.entries.push(numbered);
    this.weights.push(weight);
    this.heldBytes += weight;
    while (this.size > 1 && (this.size > this.capacity || this.heldBytes > this.maxBytes)) {
      this.heldBytes -= this.weights[this.start]!;
      this.start++;
    }
    // Compacted in batches, so each record costs amortised O(1).
    if (this.start > Math.ceil(this.capacity / 4)) {
      this.entries = this.entries.slice(this.start);
      this.weights = this.weights.slice(this.start);
      this.start = 0;
    }
    for (const listener of this.listeners) listener(numbered);
    return numbered;
  }

  /** The kept entries that pass `where`, oldest first. */
  filter(where: (entry: T) => boolean): T[] {
    const kept: T[] = [];
    for (let i = this.start; i < this.entries.length; i++) {
      if (where(this.entries[i]!)) kept.push(this.entries[i]!);
    }
    return kept;
  }

  onRecord(listener: (entry: T) => void): void {
    this.listeners.push(listener);
  }

  clear(): void {
    this.entries = [];
    this.weights = [];
    this.start = 0;
    this.heldBytes = 0;
  }
}
