/**
 * The record of every fault chaos injected: which request it hit, the task and seq, and what was
 * done, so a client's test can assert what its client met ("dropped after seq 3, resumed from 3").
 * A bounded ring: the newest 10,000 records, within 8 MiB.
 */
import { RingLog } from '../lib/ring-log.js';
import type { Exchange, RequestSummary } from '../calls/exchange.js';

export const FAULT_KINDS = ['drop', 'duplicate', 'delay', 'error', 'quirk', 'card'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRecord {
  /** 1, 2, … in the order faults were injected. */
  n: number;
  /** Clock time, ISO 8601. */
  at: string;
  kind: FaultKind;
  /** What exactly: the drop mode, the duplicated seq, the error returned, the quirk, the delay. */
  detail: Record<string, string | number>;
  /** The profile that asked for it, e.g. `flaky-mobile`. */
  profile: string;
  taskId?: string;
  /** The seq of the event the fault is about (for a drop: the last one delivered). */
  seq?: number;
  /** The request it hit, as its binding read it. */
  request?: RequestSummary;
  /** The replica that recorded it, when another replica of a shared store did (its numbers are its own). */
  replica?: string;
}

export interface FaultQuery {
  taskId?: string;
  kind?: FaultKind;
  /** Records with `n` greater than this. */
  after?: number;
}

/** What a record costs beside its strings, approximately. */
const RECORD_BYTES = 300;

/** What a fault record holds, approximately: a workspace's or tenant's name is the client's, up to a URL's length. */
export function faultBytes(fault: FaultRecord): number {
  let bytes =
    RECORD_BYTES + fault.profile.length + (fault.taskId?.length ?? 0) + (fault.replica?.length ?? 0);
  for (const key in fault.detail) bytes += key.length + String(fault.detail[key]).length;
  const request = fault.request;
  if (request) {
    bytes += request.binding.length + request.operation.length + (request.chaos?.length ?? 0);
    if (typeof request.id === 'string') bytes += request.id.length;
    if (request.scope) bytes += 2 * request.scope.key.length;
  }
  return bytes;
}

export class FaultLog extends RingLog<FaultRecord> {
  private readonly appliedListeners: ((fault: FaultRecord, exchange: Exchange) => void)[] = [];

  constructor(maxBytes?: number) {
    super({ maxBytes, weigh: faultBytes });
  }

  /** Records a fault chaos applied to a call, naming the request, and notes its number on the call's record. */
  applied(fault: Omit<FaultRecord, 'n' | 'request'>, exchange: Exchange): FaultRecord {
    const request = exchange.summary();
    const recorded = this.record({ ...fault, ...(request && { request }) });
    exchange.faulted(recorded.n);
    for (const listener of this.appliedListeners) listener(recorded, exchange);
    return recorded;
  }

  /** Called with each fault chaos applied to a call of this process, and the call's record. */
  onApplied(listener: (fault: FaultRecord, exchange: Exchange) => void): void {
    this.appliedListeners.push(listener);
  }

  list(query: FaultQuery = {}): FaultRecord[] {
    return this.filter(
      (r) =>
        (query.taskId === undefined || r.taskId === query.taskId) &&
        (query.kind === undefined || r.kind === query.kind) &&
        (query.after === undefined || r.n > query.after),
    );
  }
}

/** One line for the log: `drop (reset) on task t1 after seq 3, POST /message:stream [flaky-mobile]`. */
export function describeFault(fault: FaultRecord): string {
  const detail = Object.entries(fault.detail)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  return [
    `${fault.kind} ${detail}`,
    fault.taskId && `task ${fault.taskId}`,
    fault.seq !== undefined && `seq ${fault.seq}`,
    fault.request && `${fault.request.binding} ${fault.request.operation}`,
    `[${fault.profile}]`,
  ]
    .filter(Boolean)
    .join(', ');
}
