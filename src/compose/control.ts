/**
 * The control plane beside the agents: the event bus every record feeds, the request journal, and
 * what the admin API and the live feed read and steer.
 */
import { agentSummary } from '../agents/load.js';
import { SimEventBus, type SimEventBody } from '../admin/events.js';
import { RequestJournal } from '../admin/journal.js';
import { CallTally } from '../admin/call-tally.js';
import type { Scrape } from '../admin/metrics.js';
import { logRequest } from '../admin/request-log.js';
import type { ControlPlane } from '../admin/control-plane.js';
import { VERSION } from '../config.js';
import { placeOf } from '../domain/scope.js';
import { eventBytes } from '../domain/size.js';
import type { TaskEvent } from '../domain/types.js';
import { scenarioSummary } from '../scenario/describe.js';
import { formatIssue } from '../scenario/load.js';
import type { ReplicaHealth } from '../replica/replica.js';
import type { KeptEvent } from '../store/kept-event.js';
import type { TaskRecord } from '../store/task-store.js';
import type { Agents, Shared } from './agents.js';
import type { Catalog } from './catalog.js';
import type { Settings } from './settings.js';
import type { SpanBudget } from '../tracing/budget.js';

export function composeControl(
  settings: Settings,
  catalog: Catalog,
  shared: Shared,
  agents: Agents,
): ControlPlane {
  const { clock } = settings;
  const { store, faults, deliveries, replica } = shared;
  const events = new SimEventBus(() => clock.now());
  // A task's events and ids are the store's to count, while it keeps the task.
  // The history holds the event as the log keeps it: the event itself would outlive the young
  // generation by the ~1,000 events it stays there and become old-space garbage.
  store.onEvent((record, event, kept) => {
    if (event.seq === 1) events.publish(taskCreatedBody, record, undefined, 0);
    events.publish(taskEventBody, record, kept, 0);
  });
  // An evicted task's events stay in the history, but only as much of them as is small.
  store.onEvict((record) => events.release(record, withoutLargeEvent));
  faults.onRecord((fault) => events.publish({ type: 'chaos:fault', fault }));
  const journal = new RequestJournal(settings.journalSize, settings.journalBytes);
  journal.onComplete((exchange) => logRequest(settings.logger, exchange, (id) => store.find(id)?.scenarioId));
  const spans = shared.tracing?.spans;
  if (spans) {
    journal.onOpen((exchange) => spans.opened(exchange));
    journal.onComplete((exchange) => spans.completed(exchange));
    faults.onApplied((fault, exchange) => spans.faulted(exchange, fault));
  }
  deliveries.onRecord((delivery) => events.publish({ type: 'push:attempt', delivery }));
  const { judge } = shared;
  // Calls are counted from the start; prom-client and the registry load on the first scrape.
  const tally = settings.metrics ? new CallTally(journal, faults, clock) : undefined;
  let registry: Promise<{ scrape(): Promise<Scrape> }> | undefined;
  const metrics =
    tally &&
    (() =>
      (registry ??= import('../admin/metrics.js').then(({ simMetrics }) =>
        simMetrics({
          tally,
          store,
          memory: () => ({
            store: { bytes: store.bytes, maxBytes: settings.retention.maxStoreBytes },
            journal: { bytes: journal.bytes, maxBytes: journal.maxBytes },
            verdicts: { bytes: judge.bytes, maxBytes: judge.maxBytes },
            events,
            faults,
            deliveries,
          }),
          verdicts: () => judge.verdicts(),
          ...(replica && { replica: () => replica.health() }),
        }),
      )).then((m) => m.scrape()));
  judge.onChange(
    (verdicts) => events.publish({ type: 'verdict:changed', verdicts }),
    () => events.watched,
  );
  const plane: ControlPlane = {
    clock,
    store,
    events,
    journal,
    faults,
    deliveries,
    chaos: shared.chaos,
    version: VERSION,
    ...(settings.adminToken !== undefined && { adminToken: settings.adminToken }),
    ...(replica && { sync: () => replica.sync(), changed: (change) => replica.changed(change) }),
    ...(metrics && { metrics }),
    health: () => ({
      ...(replica && storeHealth(replica.health())),
      version: VERSION,
      // Clock time, virtual or real: what the dashboard measures task ages against.
      now: new Date(clock.now()).toISOString(),
      scenarios: catalog.scenarios.length,
      agents: agents.defined.length,
      tasks: store.size,
      // What each bounded record holds now against its budget (docs/limits.md).
      memory: {
        store: {
          bytes: store.bytes,
          maxBytes: settings.retention.maxStoreBytes,
          tasks: store.size,
          scopes: store.scopes,
        },
        journal: { bytes: journal.bytes, maxBytes: journal.maxBytes, entries: journal.size },
        verdicts: { bytes: judge.bytes, maxBytes: judge.maxBytes, ...judge.size },
        events: { kept: events.size, bytes: events.bytes, maxBytes: events.maxBytes },
        faults: { records: faults.size, bytes: faults.bytes, maxBytes: faults.maxBytes },
        deliveries: { records: deliveries.size, bytes: deliveries.bytes, maxBytes: deliveries.maxBytes },
        ...(plane.feedMemory && { feed: plane.feedMemory() }),
        ...(shared.tracing && { spans: spansMemory(shared.tracing.budget) }),
        rssBytes: process.memoryUsage.rss(),
      },
    }),
    catalog: () => ({
      scenarios: catalog.scenarios.map(scenarioSummary),
      agents: catalog.agents.map(agentSummary),
      chaosProfiles: [...catalog.chaosProfiles.keys()],
      issues: catalog.issues.map(formatIssue),
    }),
    reload: async () => ({ issues: (await catalog.reload()).issues.map(formatIssue) }),
    verdicts: (client) => ({
      clients: judge.verdicts(client),
      // Calls about one task from several identities: their verdicts may mix two clients.
      sharedTasks: judge.shared(),
      thresholds: judge.thresholds,
    }),
    clearVerdicts: () => judge.clear(),
  };
  return plane;
}

/** A replica's health says whether its shared store is up and it is not behind: a load balancer reads it. */
function storeHealth(store: ReplicaHealth) {
  return { status: !store.up ? 'store-unavailable' : store.behind ? 'store-behind' : 'ok', store };
}

function taskCreatedBody(record: TaskRecord): SimEventBody {
  return {
    type: 'task:created',
    taskId: record.id,
    contextId: record.contextId,
    scenario: record.scenarioId,
    ...placeOf(record.scope),
  };
}

function taskEventBody(record: TaskRecord, kept: KeptEvent): SimEventBody {
  const event = kept.logged();
  return {
    type: 'task:event',
    taskId: record.id,
    contextId: event.contextId,
    event,
    ...placeOf(record.scope),
  };
}

/** What the history keeps of an event whose task was evicted: all of it, unless it is large. */
const MAX_KEPT_EVENT_BYTES = 4 * 1024;

function withoutLargeEvent(body: SimEventBody): SimEventBody {
  if (body.type !== 'task:event' || eventBytes(body.event.event) <= MAX_KEPT_EVENT_BYTES) return body;
  const { event } = body;
  const original = event.event;
  const kept: TaskEvent =
    original.kind === 'artifact'
      ? { ...original, artifact: { ...original.artifact, parts: [] } }
      : original.kind === 'task'
        ? { kind: 'task', task: { ...original.task, history: [], artifacts: [] } }
        : { kind: 'status', status: { state: original.status.state, timestamp: original.status.timestamp } };
  return { ...body, event: { ...event, event: kept } };
}

/** What the spans waiting for the collector hold (with `--otel-endpoint`), and how many did not fit. */
const spansMemory = ({ bytes, maxBytes, dropped }: SpanBudget) => ({ bytes, maxBytes, dropped });
