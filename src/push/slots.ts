/**
 * How many webhook deliveries may be on the wire at once: each holds a socket (a file descriptor)
 * until it is answered or times out, so a slow or silent receiver times thousands of configs would
 * otherwise take every descriptor the process has, and the simulator could accept no client. A
 * delivery takes a slot before it resolves or connects, and gives it back when its attempt ends;
 * one that finds no slot free waits, its config's later events waiting in its queue behind it.
 */

/** Deliveries on the wire at once, across every simulator of the process (they share its descriptors). Default 256. */
export const MAX_DELIVERIES = 256;

/** Deliveries on the wire at once to one host (the URL's host name or address), so one slow receiver leaves room for the others. Default 8. */
export const MAX_DELIVERIES_PER_HOST = 8;

type Grant = (release: () => void) => void;

/**
 * A counting gate with a total and a per-host limit. Each host's waiters are served in order, and
 * hosts take turns, so a host at its limit holds up nobody else.
 * @example
 * const release = await slots.take('hooks.example.com', signal);
 * try { await post(); } finally { release?.(); }
 */
export class DeliverySlots {
  private used = 0;
  private readonly perHost = new Map<string, number>();
  /** By host, in the order the hosts began waiting; a host leaves when none of its deliveries waits. */
  private readonly waiting = new Map<string, Grant[]>();
  private waiters = 0;

  constructor(
    readonly total = MAX_DELIVERIES,
    readonly hostLimit = MAX_DELIVERIES_PER_HOST,
  ) {}

  /** Slots in use: the deliveries on the wire. */
  get active(): number {
    return this.used;
  }

  /** Slots in use for `host`. */
  activeFor(host: string): number {
    return this.perHost.get(host) ?? 0;
  }

  /** Deliveries waiting for a slot. */
  get queued(): number {
    return this.waiters;
  }

  /**
   * Resolves with the function that gives the slot back (once) when one is free for `host`; with
   * undefined if `signal` aborts first.
   */
  take(host: string, signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if (!this.waiting.has(host) && this.free(host)) return Promise.resolve(this.grant(host));
    return new Promise((resolve) => {
      const grant: Grant = (release) => {
        signal?.removeEventListener('abort', abandon);
        resolve(release);
      };
      const abandon = () => {
        const queue = this.waiting.get(host)!;
        queue.splice(queue.indexOf(grant), 1);
        if (!queue.length) this.waiting.delete(host);
        this.waiters--;
        resolve(undefined);
      };
      signal?.addEventListener('abort', abandon, { once: true });
      const queue = this.waiting.get(host);
      if (queue) queue.push(grant);
      else this.waiting.set(host, [grant]);
      this.waiters++;
    });
  }

  private free(host: string): boolean {
    return this.used < this.total && this.activeFor(host) < this.hostLimit;
  }

  private grant(host: string): () => void {
    this.used++;
    this.perHost.set(host, this.activeFor(host) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
      const left = this.activeFor(host) - 1;
      if (left) this.perHost.set(host, left);
      else this.perHost.delete(host);
      this.wake();
    };
  }

  /** Grants free slots to the first hosts in turn that may take one; a served host goes last. */
  private wake(): void {
    for (const [host, queue] of this.waiting) {
      if (this.used >= this.total) return;
      if (!this.free(host)) continue;
      const grant = queue.shift()!;
      this.waiters--;
      this.waiting.delete(host);
      if (queue.length) this.waiting.set(host, queue);
      grant(this.grant(host));
    }
  }
}

/** The process's slots, which every dispatcher takes by default. */
export const DELIVERY_SLOTS = new DeliverySlots();
