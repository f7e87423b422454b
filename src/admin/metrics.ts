/**
 * The simulator's metrics in the Prometheus text format (`GET /_sim/metrics`). The calls and the
 * faults are the tally's (call-tally.ts), counted from the start; what the simulator holds (tasks by
 * state, memory, verdicts, the replica's store) is read on scrape. This module, and prom-client with
 * it, is loaded on the first scrape. Each simulator has a registry of its
 * own, never prom-client's global one: several simulators may live in one process (tests, the
 * programmatic API). Every label value comes from a fixed set, so a client cannot make it grow.
 */
import { Counter, Gauge, type Histogram, Registry } from 'prom-client';
import { TASK_STATES, type TaskState } from '../domain/types.js';
import type { TaskStore } from '../store/task-store.js';
import type { ClientVerdicts } from '../verdicts/judge.js';
import { RULE_IDS } from '../verdicts/rules.js';
import { LATENCY_BUCKETS, type CallTally } from './call-tally.js';

/** What one byte-budgeted record holds now, and may hold. */
export interface MemoryReading {
  bytes: number;
  maxBytes: number;
}

/** Where the metrics come from; everything but the journal and the fault log is read on scrape. */
export interface MetricsSources {
  tally: CallTally;
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
 * A registry of its own over the tally and the sources; `scrape` renders it.
 * @example const metrics = simMetrics(sources); const { contentType, text } = await metrics.scrape();
 */
export function simMetrics(sources: MetricsSources): { scrape(): Promise<Scrape> } {
  const registry = new Registry();
  tallyCalls(sources.tally, registry);
  readOnScrape(sources, [registry]);
  return { scrape: async () => ({ contentType: registry.contentType, text: await registry.metrics() }) };
}

type Registers = Registry[];

function tallyCalls(tally: CallTally, registry: Registry): void {
  const registers = [registry];
  const labels = ['binding', 'operation'] as const;
  new Counter({
    name: 'a2a_sim_requests_total',
    help: 'Requests to the agents, by the binding that read them, the operation and the HTTP status sent (0: closed without an answer).',
    labelNames: [...labels, 'status'] as const,
    registers,
    collect() {
      this.reset();
      for (const { binding, operation, statuses } of tally.all()) {
        for (const [status, n] of statuses) this.inc({ binding, operation, status }, n);
      }
    },
  });
  registry.registerMetric(latencyHistogram(tally));
  new Gauge({
    name: 'a2a_sim_open_streams',
    help: 'Event streams open now.',
    labelNames: labels,
    registers,
    collect() {
      for (const { binding, operation, openStreams } of tally.all()) {
        this.set({ binding, operation }, openStreams);
      }
    },
  });
  new Counter({
    name: 'a2a_sim_stream_events_sent_total',
    help: "Data frames streams sent (events, snapshots, messages and chaos's made-up events; not keep-alives).",
    labelNames: labels,
    registers,
    collect() {
      this.reset();
      for (const { binding, operation, sent } of tally.all()) {
        if (sent > 0) this.inc({ binding, operation }, sent);
      }
    },
  });
  new Counter({
    name: 'a2a_sim_faults_injected_total',
    help: 'Faults chaos injected, by kind.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.reset();
      for (const [kind, n] of tally.faults) this.inc({ kind }, n);
    },
  });
}

/**
 * The calls' latency, from the tally's buckets.
 * @note Not a prom-client Histogram, which hashes its labels on every observation, but a metric of
 * the shape its registry renders (`get()`), read from the tally on scrape.
 */
function latencyHistogram(tally: CallTally): Histogram {
  const name = 'a2a_sim_request_duration_seconds';
  const help = "Time to answer a call, on the simulator's clock; for a stream, until its headers went out.";
  const shape = { name, help, type: 'histogram', aggregator: 'sum' } as const;
  const metric = {
    ...shape,
    reset() {},
    async get() {
      const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
      for (const { binding, operation, buckets, latencySum, latencyCount } of tally.all()) {
        if (latencyCount === 0) continue;
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += buckets[i]!;
          values.push({
            value: cumulative,
            labels: { binding, operation, le },
            metricName: `${name}_bucket`,
          });
        });
        const labels = { binding, operation };
        values.push({ value: latencyCount, labels: { ...labels, le: '+Inf' }, metricName: `${name}_bucket` });
        values.push({ value: latencySum, labels, metricName: `${name}_sum` });
        values.push({ value: latencyCount, labels, metricName: `${name}_count` });
      }
      return { ...shape, values };
    },
  };
  return metric as unknown as Histogram;
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
