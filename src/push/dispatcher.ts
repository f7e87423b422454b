/**
 * Webhook delivery (protocol digest §5): every event of a task, after the config was made, is
 * POSTed to the config's URL in seq order, in the shapes of the binding that made the config, with
 * its auth. Each config has its own bounded queue and works alone: a receiver that is slow or down
 * never blocks the task, its streams, or other receivers. Failed attempts are retried with seeded
 * exponential backoff; every attempt is recorded. An attempt first takes one of a bounded number of
 * slots (./slots.ts), then connects only to the addresses it checked (./attempt.ts).
 */
import { invalidParams } from '../domain/errors.js';
import type { LoggedEvent, PushConfig, PushDialect } from '../domain/types.js';
import { sampleDelay } from '../lib/delay.js';
import { clip } from '../lib/excerpt.js';
import type { Clock } from '../lib/clock.js';
import { Random } from '../lib/random.js';
import type { CallContext, DeliveryChaos, PushDelivery } from '../runtime/api.js';
import type { TaskRecord } from '../store/task-store.js';
import { hostOf, post, resolveTarget, systemLookup, type AttemptResult, type Lookup } from './attempt.js';
import type { DeliveryLog, DeliveryOutcome } from './delivery-log.js';
import { DELIVERY_SLOTS, type DeliverySlots } from './slots.js';
import { hostRefusal } from './ssrf.js';

export interface DispatcherOptions {
  clock: Clock;
  seed: string;
  log: DeliveryLog;
  /** The body of one delivery, in the dialect's shapes. */
  encode(dialect: PushDialect, event: LoggedEvent): unknown;
  /** Per attempt, ms. */
  timeout: number;
  /** Attempts per event before giving up. */
  maxAttempts: number;
  /** The first retry's delay, ms; each next one doubles, with seeded ±25% jitter. */
  backoff: number;
  /** Events waiting per config; past it the oldest is dropped and recorded. */
  maxQueue: number;
  /** Refuse special-purpose addresses (the SSRF filter, ./ssrf.ts); off for offline development. */
  blockPrivate: boolean;
  /** How host names are resolved; the system's by default. */
  lookup?: Lookup;
  /** The deliveries that may be on the wire at once; the process's by default. */
  slots?: DeliverySlots;
}

const CONTENT_TYPE: Record<PushDialect, string> = {
  '1.0': 'application/a2a+json',
  '0.3': 'application/json',
};

/** What a delivery record keeps of a config's id, its URL and an attempt's error (a host may be long). */
const MAX_SHOWN_ID_CHARS = 128;
const MAX_SHOWN_URL_CHARS = 1024;
const MAX_SHOWN_ERROR_CHARS = 1024;

export class PushDispatcher implements PushDelivery {
  private readonly deliveries = new Map<PushConfig, ConfigDelivery>();

  constructor(private readonly options: DispatcherOptions) {}

  checkUrl(url: string): void {
    if (!this.options.blockPrivate) return;
    const refusal = hostRefusal(hostOf(new URL(url)));
    if (refusal) {
      throw invalidParams([{ field: 'url', description: `${refusal}, refused by the SSRF filter` }]);
    }
  }

  start(record: TaskRecord, config: PushConfig, afterSeq: number, ctx: CallContext): void {
    const delivery = new ConfigDelivery(config, this.options, ctx.deliveryChaos, ctx.traceHeaders);
    this.deliveries.set(config, delivery);
    delivery.unfollow = record.log.follow(afterSeq, {
      onEvent: (event) => delivery.enqueue(event),
      onClose: () => this.stop(config),
    });
  }

  stop(config: PushConfig): void {
    this.deliveries.get(config)?.stop();
    this.deliveries.delete(config);
  }
}

/** One config's queue, drained one delivery at a time so the receiver sees seq order. */
class ConfigDelivery {
  unfollow: (() => void) | undefined;
  private readonly queue: LoggedEvent[] = [];
  private draining = false;
  /** Aborts when the config goes: its wait for a slot, and the attempt on the wire with its socket. */
  private readonly stopping = new AbortController();
  /** The seq held back behind the next event, so it is held back once, not behind every later one. */
  private heldBack: number | undefined;
  /**
   * How its delivery records name the config: bounded copies, made once. The records outlive the
   * task, and a client's config may carry a URL or an id as long as a request body.
   */
  private readonly shown: { configId: string; url: string };

  constructor(
    private readonly config: PushConfig,
    private readonly options: DispatcherOptions,
    private readonly chaos: DeliveryChaos | undefined,
    private readonly traceHeaders: Readonly<Record<string, string>> | undefined,
  ) {
    this.shown = {
      configId: clip(config.id, MAX_SHOWN_ID_CHARS),
      url: clip(config.url, MAX_SHOWN_URL_CHARS),
    };
  }

  enqueue(event: LoggedEvent): void {
    if (this.stopped) return;
    this.queue.push(event);
    if (this.queue.length > this.options.maxQueue) {
      this.note(this.queue.shift()!, 0, 'overflow');
    }
    if (!this.draining) void this.drain();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  stop(): void {
    this.stopping.abort();
    this.queue.length = 0;
    this.unfollow?.();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (!this.stopped && this.queue.length) {
      const random = new Random(`${this.options.seed}/push/${this.config.id}/${this.queue[0]!.seq}`);
      // Out of order: the head waits for the one behind it, when there is one; once only.
      const head = this.queue[0]!.seq;
      const swap =
        this.queue.length > 1 &&
        this.heldBack !== head &&
        !!this.chaos?.outOfOrder &&
        random.next() < this.chaos.outOfOrder;
      if (swap) this.heldBack = head;
      const event = this.queue.splice(swap ? 1 : 0, 1)[0]!;
      await this.deliver(event, random, swap ? 'out-of-order' : undefined);
      if (this.chaos?.duplicate && random.next() < this.chaos.duplicate)
        await this.deliver(event, random, 'duplicate');
    }
    this.draining = false;
  }

  /** Attempts until one succeeds or the attempts run out. */
  private async deliver(event: LoggedEvent, random: Random, chaos: string | undefined): Promise<void> {
    const { maxAttempts } = this.options;
    for (let attempt = 1; attempt <= maxAttempts && !this.stopped; attempt++) {
      if (this.chaos?.delay) await this.sleep(sampleDelay(this.chaos.delay, random));
      if (this.stopped) return;
      if (attempt <= (this.chaos?.failFirst ?? 0)) {
        this.note(event, attempt, 'chaos-fail', { chaos: 'fail-first' });
      } else {
        const result = await this.post(event);
        if (!result) return;
        this.note(event, attempt, result.outcome, { ...result, ...(chaos && { chaos }) });
        if (result.outcome === 'delivered' || result.outcome === 'blocked') return;
      }
      if (attempt < maxAttempts) {
        const base = this.options.backoff * 2 ** (attempt - 1);
        await this.sleep(Math.round(base * (0.75 + random.next() / 2)));
      }
    }
    if (!this.stopped) this.note(event, maxAttempts, 'gave-up');
  }

  /**
   * One attempt: a slot first (waiting while the caps are reached), then resolve, check and POST
   * within the timeout, which starts once the slot is taken and destroys the socket when it fires.
   */
  private async post(event: LoggedEvent): Promise<AttemptResult | undefined> {
    const { config, options } = this;
    const url = new URL(config.url);
    const release = await (options.slots ?? DELIVERY_SLOTS).take(hostOf(url), this.stopping.signal);
    if (!release) return undefined;
    const abort = new AbortController();
    const stop = () => abort.abort();
    this.stopping.signal.addEventListener('abort', stop);
    let timedOut = false;
    const timer = options.clock.setTimer(options.timeout, () => {
      timedOut = true;
      abort.abort();
    });
    try {
      const target = await Promise.race([
        resolveTarget(url, options.lookup ?? systemLookup, options.blockPrivate),
        aborted(abort.signal),
      ]);
      if (abort.signal.aborted) return timedOut ? { outcome: 'timeout' } : undefined;
      if ('refused' in target) return target.refused;
      return await post({
        url,
        addresses: target.addresses,
        headers: this.headers(event),
        body: JSON.stringify(options.encode(config.dialect, event)),
        signal: abort.signal,
      });
    } catch (error) {
      if (abort.signal.aborted) return timedOut ? { outcome: 'timeout' } : undefined;
      return { outcome: 'network-error', error: (error as Error).message };
    } finally {
      timer.cancel();
      this.stopping.signal.removeEventListener('abort', stop);
      release();
    }
  }

  private headers(event: LoggedEvent): Record<string, string> {
    const { config } = this;
    const headers: Record<string, string> = {
      'Content-Type': CONTENT_TYPE[config.dialect],
      'X-A2A-Sim-Seq': String(event.seq),
      'X-A2A-Sim-Task-Id': config.taskId,
      ...this.traceHeaders,
    };
    if (config.token) headers['X-A2A-Notification-Token'] = config.token;
    const auth = config.authentication;
    if (auth)
      headers['Authorization'] = auth.credentials ? `${auth.scheme} ${auth.credentials}` : auth.scheme;
    return headers;
  }

  private note(
    event: LoggedEvent,
    attempt: number,
    outcome: DeliveryOutcome,
    extra: { status?: number; error?: string; chaos?: string } = {},
  ): void {
    this.options.log.record({
      at: new Date(this.options.clock.now()).toISOString(),
      taskId: this.config.taskId,
      configId: this.shown.configId,
      url: this.shown.url,
      seq: event.seq,
      attempt,
      outcome,
      ...extra,
      ...(extra.error !== undefined && { error: clip(extra.error, MAX_SHOWN_ERROR_CHARS) }),
    });
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.options.clock.setTimer(ms, resolve));
  }
}

/** Settles (never resolves) once `signal` aborts: a race's way out of a lookup that cannot be cancelled. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
