/**
 * The agents the simulator serves, one record each: the root agent (every loaded scenario, at `/`)
 * and each agent file's agent (at `/agents/{id}/` and through the gateway), each with its service,
 * its card and the context its bindings are built from. What they share is made once, here.
 */
import type { AgentDefinition } from '../agents/load.js';
import { AgentCards } from '../bindings/agent-card.js';
import { cardSignatureFault } from '../chaos/card-chaos.js';
import { agentCalls, tenantCalls, type BindingContext } from '../bindings/shared/context.js';
import { pushBody } from '../bindings/push-body.js';
import { KeepAliveHub } from '../bindings/shared/sse.js';
import { describeFault, FaultLog } from '../chaos/fault-log.js';
import { chaosLayer } from '../chaos/layer.js';
import { GlobalChaos } from '../chaos/setting.js';
import { DeliveryLog, describeDelivery } from '../push/delivery-log.js';
import { PushDispatcher } from '../push/dispatcher.js';
import { Replica } from '../replica/replica.js';
import { syncLayer } from '../replica/sync-layer.js';
import { ProxyService } from '../runtime/proxy.js';
import { SimService } from '../runtime/service.js';
import type { ConnectedUpstream } from '../upstream/agent.js';
import { summarizeCard } from '../upstream/card.js';
import type { Scenario, SkillInfo } from '../scenario/model.js';
import { ScenarioRegistry } from '../scenario/registry.js';
import { Judge } from '../verdicts/judge.js';
import { witnessLayer, witnessRefused } from '../verdicts/witness.js';
import { generationLayer, LongPolls } from '../calls/generation.js';
import { perform, pipeline, type Layer } from '../calls/pipeline.js';
import { TaskStore } from '../store/task-store.js';
import { startTracing, type Tracing } from '../tracing/export.js';
import { traceLayer } from '../tracing/layer.js';
import { VERSION } from '../config.js';
import type { Catalog } from './catalog.js';
import type { Settings } from './settings.js';

/** What every agent plays on: one store, one fault and delivery record, one global chaos level. */
export interface Shared {
  store: TaskStore;
  /** Judges every client of every agent, rule by rule. */
  judge: Judge;
  faults: FaultLog;
  deliveries: DeliveryLog;
  chaos: GlobalChaos;
  keepAlive: KeepAliveHub;
  /** Present with `--store redis://…`: this process is one replica of a simulator shared through Redis. */
  replica?: Replica;
  /** The GetTask calls held for their task's generation; present with `--preview generation`. */
  longPolls?: LongPolls;
  /** Exports a span per call; present with `--otel-endpoint`. */
  tracing?: Tracing;
}

export interface ServedAgent {
  /** Undefined for the root agent. */
  definition?: AgentDefinition;
  /** Plays this agent's scenarios; shares the simulator's store and clock. */
  service: SimService;
  /** The root agent's relay to a real agent (`proxy`), in front of {@link service}. */
  proxy?: ProxyService;
  cards: AgentCards;
  /** What its bindings are built from. */
  context: BindingContext;
}

export interface DefinedAgent extends ServedAgent {
  definition: AgentDefinition;
  id: string;
  /** The gateway's `agent_code`. */
  code: string;
  /** The gateway workspaces it is exposed in; `"*"` is any. */
  workspaces: readonly string[];
}

export interface Agents {
  root: ServedAgent;
  defined: DefinedAgent[];
}

/** {@link createShared}, then the shared store's connection when the settings name one. */
export async function connectShared(
  settings: Settings,
  chaosProfiles: Catalog['chaosProfiles'],
): Promise<Shared> {
  const created = createShared(settings, chaosProfiles);
  const { otelEndpoint: endpoint, clock } = settings;
  const shared =
    endpoint === undefined
      ? created
      : {
          ...created,
          tracing: await startTracing({
            endpoint,
            clock,
            version: VERSION,
            report: (error) => settings.logger.error('tracing: the last spans could not be exported', error),
          }),
        };
  if (settings.store.kind === 'memory') return shared;
  return { ...shared, replica: await Replica.connect(settings.store, shared.store, settings.logger) };
}

/** What every agent shares, with the chaos profiles it may name; the global level starts unset. */
export function createShared(settings: Settings, chaosProfiles: Catalog['chaosProfiles']): Shared {
  const { logger, clock } = settings;
  const faults = new FaultLog();
  faults.onRecord((fault) => logger.info(`chaos: ${describeFault(fault)}`));
  const deliveries = new DeliveryLog();
  deliveries.onRecord((delivery) => logger.info(`push: ${describeDelivery(delivery)}`));
  // Every agent plays on the same store; scopes keep their tasks apart.
  const store = new TaskStore(settings.retention, { generation: settings.previews.has('generation') });
  const judge = new Judge({
    facts: (taskId) => {
      const record = store.find(taskId);
      return record && { state: record.status.state, latestSeq: record.log.latestSeq };
    },
    ...(settings.verdicts && { thresholds: settings.verdicts }),
    maxBytes: settings.verdictBytes,
    report: (error) => logger.error('verdicts: a rule could not judge; the others did', error),
  });
  return {
    store,
    judge,
    faults,
    deliveries,
    chaos: new GlobalChaos(chaosProfiles),
    keepAlive: new KeepAliveHub(clock, settings.keepAlive),
    ...(settings.previews.has('generation') && { longPolls: new LongPolls(clock) }),
  };
}

export function composeAgents(
  settings: Settings,
  catalog: Catalog,
  shared: Shared,
  upstream?: ConnectedUpstream,
): Agents {
  const root = serveAgent(settings, shared, {
    scenarios: catalog.scenarios,
    seed: settings.seed,
    card: settings.card,
    callContext: tenantCalls,
    ...(upstream && { upstream }),
  });
  shared.replica?.register('', root.service.player);
  const defined = catalog.agents.map((definition): DefinedAgent => {
    const { id, security, extensions } = definition;
    const agent = serveAgent(settings, shared, {
      scenarios: catalog.scenarios.filter((s) => definition.scenarioIds.includes(s.id)),
      // A seed of its own: what the root or another agent was asked never shifts this agent's ids.
      seed: `${settings.seed}/agents/${id}`,
      card: {
        ...settings.card,
        name: definition.name,
        description: definition.description,
        version: definition.version ?? settings.card.version,
        path: `/agents/${id}`,
        ...(security && { security }),
        ...(extensions && { extensions }),
        inputModes: definition.defaultInputModes ?? settings.card.inputModes,
        outputModes: definition.defaultOutputModes ?? settings.card.outputModes,
      },
      ...(definition.skills && { skills: definition.skills }),
      callContext: agentCalls(id),
      ...(security && {
        access: { agentId: id, security, ...(settings.apiKeys && { apiKeys: settings.apiKeys }) },
      }),
      ...(extensions && { extensions }),
    });
    shared.replica?.register(id, agent.service.player);
    return { ...agent, definition, id, code: definition.code, workspaces: definition.workspaces };
  });
  catalog.onReload((scenarios) => {
    root.service.useScenarios(new ScenarioRegistry(scenarios));
    for (const { service, definition } of defined) {
      const { everyScenario, scenarioIds } = definition;
      service.useScenarios(
        new ScenarioRegistry(scenarios.filter((s) => everyScenario || scenarioIds.includes(s.id))),
      );
    }
  });
  return { root, defined };
}

export interface AgentPlan extends Pick<BindingContext, 'callContext' | 'access' | 'extensions'> {
  scenarios: readonly Scenario[];
  seed: string;
  card: ConstructorParameters<typeof AgentCards>[0];
  /** The skills its card lists; by default, its scenarios'. */
  skills?: readonly SkillInfo[];
  /** A real agent the messages no scenario takes go to (`proxy`). */
  upstream?: ConnectedUpstream;
}

/** One agent: its service over its scenarios, its card, and what its bindings are built from. */
export function serveAgent(settings: Settings, shared: Shared, plan: AgentPlan): ServedAgent {
  const { clock, push, logger } = settings;
  const service = new SimService({
    ...(push.enabled && {
      push: new PushDispatcher({ ...push, clock, seed: plan.seed, log: shared.deliveries, encode: pushBody }),
    }),
    registry: new ScenarioRegistry(plan.scenarios),
    store: shared.store,
    clock,
    contentTime: settings.contentTime,
    seed: plan.seed,
    speed: settings.speed,
    inputModes: plan.card.inputModes,
    closeStreamOnAuthRequired: settings.closeStreamOnAuthRequired,
    ...(shared.replica && { plays: shared.replica }),
  });
  const { upstream } = plan;
  const proxyAll = settings.proxy?.all ?? false;
  const proxy = upstream
    ? new ProxyService(service, {
        upstream,
        mode: proxyAll ? 'all' : 'unmatched',
        store: shared.store,
        clock,
      })
    : undefined;
  const real = upstream?.card && summarizeCard(upstream.card);
  const scenarioSkills = () => service.scenarios.list().flatMap((s) => (s.skill ? [s.skill] : []));
  const { skills } = plan;
  // In front of a real agent, the card shows its skills too; standing in for it, the card is its own.
  const cards = new AgentCards(
    real && proxyAll ? { ...plan.card, name: real.name, description: real.description } : plan.card,
    skills
      ? () => skills
      : real
        ? () => [...(proxyAll ? [] : scenarioSkills()), ...real.skills]
        : scenarioSkills,
    clock,
    settings.cardSigner,
  );
  const played = proxy ?? service;
  const chaos = chaosLayer(played, {
    clock,
    seed: plan.seed,
    profiles: shared.chaos.profiles,
    faults: shared.faults,
    global: shared.chaos,
  });
  const { judge } = shared;
  // What each client is given is witnessed after chaos, as the client gets it.
  const witness = settings.judge ? witnessLayer(judge, clock) : undefined;
  const context: BindingContext = {
    serve: pipeline(layersOf(shared, witness, chaos), perform(played)),
    onCardFetched: (exchange) => {
      if (witness && exchange.client) judge.observe(exchange.client, exchange);
    },
    cardChaos: (header, exchange) =>
      cardSignatureFault(
        { clock, profiles: shared.chaos.profiles, global: shared.chaos, faults: shared.faults },
        header,
        exchange,
      ),
    ...(witness && { onRefused: witnessRefused(judge, clock) }),
    keepAlive: shared.keepAlive,
    cards,
    maxBodyBytes: settings.maxBodyBytes,
    strictVersion: settings.strictVersion,
    errorCodes: settings.errorCodes,
    callContext: plan.callContext,
    ...(plan.access && { access: plan.access }),
    ...(plan.extensions && { extensions: plan.extensions }),
    report: (error: unknown) => logger.error('unexpected error', error),
  };
  return { service, cards, context, ...(proxy && { proxy }) };
}

/**
 * The per-call layers, outermost first: the replica's sync, the trace (outside chaos: a span shows
 * what the client got), then the witness, then chaos, then the
 * generation preview nearest the service (a held GetTask is held after chaos had its say).
 */
function layersOf(shared: Shared, witness: Layer | undefined, chaos: Layer): Layer[] {
  const { replica, longPolls, store, tracing } = shared;
  return [
    ...(replica ? [syncLayer(replica)] : []),
    traceLayer(tracing?.spans),
    ...(witness ? [witness] : []),
    chaos,
    ...(longPolls ? [generationLayer(store, longPolls)] : []),
  ];
}
