/**
 * The simulator's metrics in the Prometheus text format (`GET /_sim/metrics`). Every call is tallied
 * in one place, from its exchange record as the journal sees it: when its stream opens and when it
 * is complete. What the simulator holds (tasks by state, memory, verdicts, the replica's store) is
 * read on scrape. Each simulator has a registry of its own, never prom-client's global one: several
 * simulators may live in one process (tests, the programmatic API).
 *
 * @note Every label value comes from a fixed set: a value a caller could choose (a task id, a
 * client's name, a path, a JSON-RPC method no binding knows) becomes `other`, so a client cannot
 * make the registry grow.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Exchange } from '../calls/exchange.js';
import type { FaultLog } from '../chaos/fault-log.js';
import { TASK_STATES, type TaskState } from '../domain/types.js';
import type { Clock } from '../lib/clock.js';
import type { TaskStore } from '../store/task-store.js';
import type { ClientVerdicts } from '../verdicts/judge.js';
import { RULE_IDS } from '../verdicts/rules.js';
import type { RequestJournal } from './journal.js';

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

const OPERATIONS: ReadonlySet<string> = new Set([
  'send',
  'stream',
  'get',
  'list',
  'cancel',
  'subscribe',
  'create-push-config',
  'get-push-config',
  'list-push-configs',
  'delete-push-config',
  'card',
]);

const FAULT_KINDS: ReadonlySet<string> = new Set(['drop', 'duplicate', 'delay', 'error', 'quirk', 'card']);

/** Seconds: a simulated agent answers in microseconds or, with scenario delays, in seconds. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What one byte-budgeted record holds now, and may hold. */
export interface MemoryReading {
  bytes: number;
  maxBytes: number;
}

/** Where the metrics come from; everything but the journal and the fault log is read on scrape. */
export interface MetricsSources {
  clock: Clock;
  journal: RequestJournal;
  faults: FaultLog;
  store: TaskStore;
  /** The byte-budgeted records (`store`, `journal`, `verdicts`), as `GET /_sim/health` shows them. */
  memory(): Record<string, MemoryReading>;
  verdicts(): ClientVerdicts[];
  /** With a shared store: this replica's view of it. */
  replica?(): ReplicaReading;
}

export interface ReplicaReading {
  up: boolean;
  behind: boolean;
  replicas: number;
}

export interface Scrape {
  contentType: string;
  text: string;
}

/**
 * Starts tallying the sources' calls into a registry of its own; `scrape` renders it.
 * @example const metrics = simMetrics(sources); const { contentType, text } = await metrics.scrape();
 */
export function simMetrics(sources: MetricsSources): { scrape(): Promise<Scrape> } {
  const registry = new Registry();
  const registers = [registry];
  tallyCalls(sources, registers);
  readOnScrape(sources, registers);
  return { scrape: async () => ({ contentType: registry.contentType, text: await registry.metrics() }) };
}

type Registers = Registry[];

function tallyCalls({ journal, faults, clock }: MetricsSources, registers: Registers): void {
  const requests = new Counter({
    name: 'a2a_sim_requests_total',
    help: 'Requests to the agents, by the binding that read them, the operation and the HTTP status sent (0: closed without an answer).',
    labelNames: ['binding', 'operation', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'a2a_sim_request_duration_seconds',
    help: "Time to answer a call, on the simulator's clock; for a stream, until its headers went out.",
    labelNames: ['binding', 'operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const openStreams = new Gauge({
    name: 'a2a_sim_open_streams',
    help: 'Event streams open now.',
    labelNames: ['binding', 'operation'] as const,
    registers,
  });
  const streamEvents = new Counter({
    name: 'a2a_sim_stream_events_sent_total',
    help: "Data frames streams sent (events, snapshots, messages and chaos's made-up events; not keep-alives).",
    labelNames: ['binding', 'operation'] as const,
    registers,
  });
  const faultsInjected = new Counter({
    name: 'a2a_sim_faults_injected_total',
    help: 'Faults chaos injected, by kind.',
    labelNames: ['kind'] as const,
    registers,
  });

  // Children by their label values: prom-client hashes a label object on every call otherwise.
  const requestsBy = new Map<string, Counter.Internal>();
  const latencyBy = new Map<string, Histogram.Internal<'binding' | 'operation'>>();
  const callOf = (exchange: Exchange) => {
    const binding = bindingOf(exchange);
    const operation = operationOf(exchange, binding);
    return { binding, operation, key: `${binding}|${operation}` };
  };
  const latencyOf = (binding: string, operation: string, key: string) => {
    let child = latencyBy.get(key);
    if (!child) latencyBy.set(key, (child = latency.labels(binding, operation)));
    return child;
  };

  journal.onStreamOpen((exchange) => {
    const { binding, operation, key } = callOf(exchange);
    latencyOf(binding, operation, key).observe((clock.now() - exchange.atMs) / 1000);
    openStreams.inc({ binding, operation });
  });
  journal.onComplete((exchange) => {
    const { binding, operation, key } = callOf(exchange);
    const status = statusOf(exchange.status);
    const requestKey = `${key}|${status}`;
    let child = requestsBy.get(requestKey);
    if (!child) requestsBy.set(requestKey, (child = requests.labels(binding, operation, status)));
    child.inc();
    if (exchange.streamed) {
      openStreams.dec({ binding, operation });
      if (exchange.sent > 0) streamEvents.inc({ binding, operation }, exchange.sent);
    } else if (exchange.durationMs !== undefined) {
      latencyOf(binding, operation, key).observe(exchange.durationMs / 1000);
    }
  });
  faults.onRecord((fault) => {
    // Another replica's fault, mirrored here for the fault list: that replica counts it.
    if (fault.replica !== undefined) return;
    faultsInjected.inc({ kind: FAULT_KINDS.has(fault.kind) ? fault.kind : 'other' });
  });
}

function readOnScrape(sources: MetricsSources, registers: Registers): void {
  const { store } = sources;
  const rules: ReadonlySet<string> = new Set(RULE_IDS);
  new Gauge({
    name: 'a2a_sim_tasks',
    help: 'Tasks in the store, by state.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const counts = new Map<TaskState, number>([...TASK_STATES, 'unknown'].map((s) => [s as TaskState, 0]));
      for (const record of store.all()) {
        const state = record.status.state;
        counts.set(state, (counts.get(state) ?? 0) + 1);
      }
      for (const [state, count] of counts) this.set({ state }, count);
    },
  });
  new Gauge({
    name: 'a2a_sim_memory_bytes',
    help: 'What each byte-budgeted record holds now, approximately (docs/limits.md).',
    labelNames: ['record'] as const,
    registers,
    collect() {
      for (const [record, { bytes }] of Object.entries(sources.memory())) this.set({ record }, bytes);
    },
  });
  new Gauge({
    name: 'a2a_sim_memory_max_bytes',
    help: "Each byte-budgeted record's budget.",
    labelNames: ['record'] as const,
    registers,
    collect() {
      for (const [record, { maxBytes }] of Object.entries(sources.memory())) this.set({ record }, maxBytes);
    },
  });
  new Gauge({
    name: 'a2a_sim_verdicts',
    help: "Clients whose verdict on a rule has this outcome (the judge's, as GET /_sim/verdicts).",
    labelNames: ['rule', 'outcome'] as const,
    registers,
    collect() {
      // A rule or outcome no client has any more reads 0, not its last count.
      this.reset();
      for (const client of sources.verdicts()) {
        for (const { rule, outcome } of client.verdicts) {
          this.inc({ rule: rules.has(rule) ? rule : 'other', outcome });
        }
      }
    },
  });
  const { replica } = sources;
  if (!replica) return;
  const gauge = (name: string, help: string, read: (health: ReplicaReading) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(replica()));
      },
    });
  gauge('a2a_sim_replica_up', "1 while this replica's shared store answers.", (h) => Number(h.up));
  gauge(
    'a2a_sim_replica_behind',
    '1 while this replica is behind the shared log (rebuilding, or not reading it).',
    (h) => Number(h.behind),
  );
  gauge('a2a_sim_replicas', 'Replicas sharing the store, as this one last saw them.', (h) => h.replicas);
}

/** The binding that read the call, `none` when none did (a card, an unknown path). */
function bindingOf(exchange: Exchange): string {
  const binding = exchange.read?.binding;
  if (binding === undefined) return 'none';
  return BINDINGS.has(binding) ? binding : 'other';
}

/** The operation the call asked for: `other` for a method no binding knows, `none` when nothing read it. */
function operationOf(exchange: Exchange, binding: string): string {
  const { kind } = exchange;
  if (kind === undefined) return binding === 'none' ? 'none' : 'other';
  return OPERATIONS.has(kind) ? kind : 'other';
}

/** HTTP statuses are three digits; 0 is a connection closed without an answer. */
function statusOf(status: number | undefined): string {
  if (status === undefined) return 'none';
  return Number.isInteger(status) && status >= 0 && status <= 599 ? String(status) : 'other';
}
