/**
 * The record of every webhook delivery attempt and its outcome, for tests to assert on and for
 * the log. A bounded ring: the newest 10,000 records, within 8 MiB.
 */
import { RingLog } from '../lib/ring-log.js';

export type DeliveryOutcome =
  /** The receiver answered 2xx. */
  | 'delivered'
  /** The receiver answered, but not 2xx. */
  | 'http-error'
  /** No answer within the timeout. */
  | 'timeout'
  /** The connection failed: refused, reset, DNS. */
  | 'network-error'
  /** A delivery chaos made this attempt fail; nothing was sent. */
  | 'chaos-fail'
  /** The SSRF filter refused the address the URL resolves to. */
  | 'blocked'
  /** Every attempt failed; the event is not delivered to this config. */
  | 'gave-up'
  /** The config's queue was full; its oldest undelivered event was dropped. */
  | 'overflow';

export interface DeliveryRecord {
  n: number;
  /** Clock time, ISO 8601. */
  at: string;
  taskId: string;
  configId: string;
  url: string;
  seq: number;
  /** 1 for the first attempt. */
  attempt: number;
  outcome: DeliveryOutcome;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  error?: string;
  /** Delivery chaos at work on this attempt, e.g. `duplicate`, `out-of-order`. */
  chaos?: string;
  /** The replica that recorded it, when another replica of a shared store did (its numbers are its own). */
  replica?: string;
}

export interface DeliveryQuery {
  taskId?: string;
  configId?: string;
  outcome?: DeliveryOutcome;
  after?: number;
}

/** What a record costs beside its strings, approximately. */
const RECORD_BYTES = 300;

/** What a delivery record holds, approximately (its URL and error are clipped: dispatcher.ts). */
export function deliveryBytes(delivery: DeliveryRecord): number {
  return (
    RECORD_BYTES +
    delivery.taskId.length +
    delivery.configId.length +
    delivery.url.length +
    (delivery.error?.length ?? 0) +
    (delivery.chaos?.length ?? 0) +
    (delivery.replica?.length ?? 0)
  );
}

export class DeliveryLog extends RingLog<DeliveryRecord> {
  constructor(maxBytes?: number) {
    super({ maxBytes, weigh: deliveryBytes });
  }

  list(query: DeliveryQuery = {}): DeliveryRecord[] {
    return this.filter(
      (r) =>
        (query.taskId === undefined || r.taskId === query.taskId) &&
        (query.configId === undefined || r.configId === query.configId) &&
        (query.outcome === undefined || r.outcome === query.outcome) &&
        (query.after === undefined || r.n > query.after),
    );
  }
}

/** One line for the log: `delivered seq 3 to http://… (task t1, config c1, attempt 1, 200)`. */
export function describeDelivery(r: DeliveryRecord): string {
  const status = r.status === undefined ? '' : `, ${r.status}`;
  const chaos = r.chaos ? `, chaos ${r.chaos}` : '';
  const error = r.error ? `: ${r.error}` : '';
  return `${r.outcome} seq ${r.seq} to ${r.url} (task ${r.taskId}, config ${r.configId}, attempt ${r.attempt}${status}${chaos})${error}`;
}
