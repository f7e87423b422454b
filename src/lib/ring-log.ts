/**
 * An append-only record that keeps only its newest `capacity` entries, numbered 1, 2, … in order,
 * with listeners for each new one: what the fault and delivery logs are made of.
 */
export class RingLog<T extends { n: number }> {
  private entries: T[] = [];
  private counter = 0;
  private readonly listeners: ((entry: T) => void)[] = [];

  constructor(private readonly capacity = 10_000) {}

  record(entry: Omit<T, 'n'>): T {
    const numbered = { n: ++this.counter, ...entry } as T;
    this.entries.push(numbered);
    // Trim in batches so each record costs amortised O(1).
    if (this.entries.length > this.capacity + Math.ceil(this.capacity / 4)) {
      this.entries = this.entries.slice(-this.capacity);
    }
    for (const listener of this.listeners) listener(numbered);
    return numbered;
  }

  /** The kept entries that pass `where`, oldest first. */
  filter(where: (entry: T) => boolean): T[] {
    // Trimming is batched: entries beyond the newest `capacity` may still be held, never shown.
    const kept: T[] = [];
    for (let i = Math.max(0, this.entries.length - this.capacity); i < this.entries.length; i++) {
      if (where(this.entries[i]!)) kept.push(this.entries[i]!);
    }
    return kept;
  }

  onRecord(listener: (entry: T) => void): void {
    this.listeners.push(listener);
  }

  clear(): void {
    this.entries = [];
  }
}
