/**
 * Every call counted once, from its exchange record as the journal sees it: when its stream opens
 * and when its answer is done. Plain numbers, added to on the request path and read on scrape
 * (metrics.ts): prom-client hashes and validates its labels on every increment, which cost ~2 µs a
 * call where this costs a few map lookups.
 *
 * @note Every key comes from a fixed set: a value a caller could choose (a task id, a client's name,
 * a path, a JSON-RPC method no binding knows) becomes `other` or `none`, so a client cannot make the
 * tally grow.
 */
import type { Exchange } from '../calls/exchange.js';
import { OPERATIONS } from '../calls/operations.js';
import { FAULT_KINDS, type FaultLog } from '../chaos/fault-log.js';
import type { Clock } from '../lib/clock.js';
import type { RequestJournal } from './journal.js';

/** The labels a fault's kind may take: the kinds there are, and `other`. */
const FAULT_KIND_LABELS: ReadonlySet<string> = new Set(FAULT_KINDS);

/** The bindings as the journal names them (`ReadAs.binding`). */
const BINDINGS: ReadonlySet<string> = new Set([
  'REST',
  'REST 0.3',
  'JSON-RPC 1.0',
  'JSON-RPC 0.3',
  'gateway',
  'gRPC',
  'gRPC 0.3',
]);

/** The operations, and the card fetch: what an exchange's `kind` may be. */
const OPERATION_KINDS: ReadonlySet<string> = new Set([...Object.keys(OPERATIONS), 'card']);

/** Upper bounds in seconds: a simulated agent answers in microseconds or, with scenario delays, in seconds. */
export const LATENCY_BUCKETS: readonly number[] = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** What one binding's operation saw. */
export interface CallCounts {
  readonly binding: string;
  readonly operation: string;
  /** Requests by the HTTP status sent (0: closed without an answer; `none`, `other`). */
  readonly statuses: Map<number | string, number>;
  /** Latencies by bucket, not cumulative; the last is past every bound. */
  readonly buckets: number[];
  /** Seconds. */
  latencySum: number;
  latencyCount: number;
  openStreams: number;
  /** Data frames its streams sent. */
  sent: number;
}

export class CallTally {
  private readonly byBinding = new Map<string, Map<string, CallCounts>>();
  /** Faults chaos injected here, by kind. */
  readonly faults = new Map<string, number>();

  constructor(journal: RequestJournal, faults: FaultLog, clock: Clock) {
    faults.onRecord((fault) => {
      // Another replica's fault, mirrored here for the fault list: that replica counts it.
      if (fault.replica !== undefined) return;
      const kind = FAULT_KIND_LABELS.has(fault.kind) ? fault.kind : 'other';
      this.faults.set(kind, (this.faults.get(kind) ?? 0) + 1);
    });
    journal.onStreamOpen((exchange) => {
      const counts = this.countsOf(exchange);
      counts.openStreams++;
      // A stream's latency is until its headers went out: its whole life says nothing of speed.
      observe(counts, clock.now() - exchange.atMs);
    });
    journal.onComplete((exchange) => {
      const counts = this.countsOf(exchange);
      const status = statusOf(exchange.status);
      counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
      if (exchange.streamed) {
        counts.openStreams--;
        counts.sent += exchange.sent;
      } else if (exchange.durationMs !== undefined) {
        observe(counts, exchange.durationMs);
      }
    });
  }

  /** Every binding and operation seen so far. */
  *all(): IterableIterator<CallCounts> {
    for (const operations of this.byBinding.values()) yield* operations.values();
  }

  private countsOf(exchange: Exchange): CallCounts {
    const binding = bindingOf(exchange);
    const operation = operationOf(exchange, binding);
    let operations = this.byBinding.get(binding);
    if (!operations) this.byBinding.set(binding, (operations = new Map()));
    let counts = operations.get(operation);
    if (!counts) {
      counts = {
        binding,
        operation,
        statuses: new Map(),
        buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0),
        latencySum: 0,
        latencyCount: 0,
        openStreams: 0,
        sent: 0,
      };
      operations.set(operation, counts);
    }
    return counts;
  }
}

function observe(counts: CallCounts, ms: number): void {
  const seconds = ms / 1000;
  let i = 0;
  while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
  counts.buckets[i]!++;
  counts.latencySum += seconds;
  counts.latencyCount++;
}

/** The binding that read the call, `none` when none did (a card, an unknown path or method). */
function bindingOf(exchange: Exchange): string {
  const binding = exchange.read?.binding;
  if (binding === undefined) return 'none';
  return BINDINGS.has(binding) ? binding : 'other';
}

/** The operation the call asked for: `other` for one no binding knows, `none` when nothing read it. */
function operationOf(exchange: Exchange, binding: string): string {
  const { kind } = exchange;
  if (kind === undefined) return binding === 'none' ? 'none' : 'other';
  return OPERATION_KINDS.has(kind) ? kind : 'other';
}

/** HTTP statuses are three digits; 0 is a connection closed without an answer. */
function statusOf(status: number | undefined): number | string {
  if (status === undefined) return 'none';
  return Number.isInteger(status) && status >= 0 && status <= 599 ? status : 'other';
}
