/**
 * A binary heap: the item `first` puts before every other is on top. The clock's timers (the one
 * due soonest on top) and a task listing's best page (the one listed last on top, to be replaced
 * by a better one) are kept in one.
 */
export class Heap<T> {
  private readonly items: T[] = [];

  /** @param first whether `a` goes before `b` */
  constructor(private readonly first: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const { items } = this;
    let at = items.push(item) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.first(item, items[parent]!)) break;
      items[at] = items[parent]!;
      at = parent;
    }
    items[at] = item;
  }

  /** Takes the top item off. */
  pop(): T | undefined {
    const { items } = this;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0) this.sink(last!);
    return top;
  }

  /** Puts `item` in place of the top one. */
  replaceTop(item: T): void {
    if (this.items.length === 0) this.items.push(item);
    else this.sink(item);
  }

  /** Every item, top first; the heap is empty afterwards. */
  drain(): T[] {
    const drained: T[] = [];
    while (this.items.length > 0) drained.push(this.pop()!);
    return drained;
  }

  /** Puts `item` at the top and moves it down to its place. */
  private sink(item: T): void {
    const { items } = this;
    let at = 0;
    for (let child = 1; child < items.length; child = 2 * at + 1) {
      if (child + 1 < items.length && this.first(items[child + 1]!, items[child]!)) child++;
      if (!this.first(items[child]!, item)) break;
      items[at] = items[child]!;
      at = child;
    }
    items[at] = item;
  }
}
