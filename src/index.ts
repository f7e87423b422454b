/**
 * The programmatic API: start a simulator from any test runner or script.
 *
 * @example
 * import { createSimulator, VirtualClock } from 'a2a-sim';
 * const clock = new VirtualClock();
 * const sim = await createSimulator({ port: 0, clock });
 * const res = await fetch(`${sim.url}/message:send`, { method: 'POST', ... });
 * clock.advance(5_000);
 * await sim.close();
 */
import { placeOf } from './domain/scope.js';
import { watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { agentSummary, loadAgentDirs, type AgentDefinition } from './agents/load.js';
import { AgentCards } from './bindings/agent-card.js';
import { agentCalls, tenantCalls, type BindingContext } from './bindings/shared/context.js';
import { KeepAliveHub } from './bindings/shared/sse.js';
import { DEFAULTS, VERSION, type SimulatorOptions } from './config.js';
import { RealClock, type Clock, type Timer } from './lib/clock.js';
import { createLogger, type Logger } from './lib/log.js';
import { SimService } from './runtime/service.js';
import { BUILTIN_SCENARIO_DIR, formatIssue, loadScenarioDirs, type ScenarioIssue } from './scenario/load.js';
import type { Scenario } from './scenario/model.js';
import { ScenarioRegistry } from './scenario/registry.js';
import { answerUnroutable, buildApp } from './server.js';
import { SimEventBus, type SimEventBody } from './admin/events.js';
import { attachFeed } from './admin/feed.js';
import { RequestJournal } from './admin/journal.js';
import type { ControlPlane } from './admin/routes.js';
import { scenarioSummary } from './scenario/describe.js';
import { loadChaosDirs } from './chaos/catalog.js';
import { describeFault, FaultLog } from './chaos/fault-log.js';
import { ChaosService } from './chaos/service.js';
import { GlobalChaos } from './chaos/setting.js';
import { chaosTextProblem, scenarioChaos } from './chaos/scenario-chaos.js';
import { pushBody } from './bindings/shared/push-body.js';
import { DeliveryLog, describeDelivery } from './push/delivery-log.js';
import { PushDispatcher } from './push/dispatcher.js';
import { TaskStore, type TaskRecord } from './store/task-store.js';
import type { LoggedEvent } from './domain/types.js';

/** An agent defined by an `*.agent.yaml` file, served at {@link SimAgent.url}. */
export interface SimAgent {
  id: string;
  /** The gateway's `agent_code`. */
  code: string;
  /** Its base URL, e.g. `http://127.0.0.1:41241/agents/explore`. */
  url: string;
  /** Plays only this agent's scenarios; shares the simulator's store and clock. */
  service: SimService;
  definition: AgentDefinition;
}

export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:41241`. */
  url: string;
  port: number;
  app: Express;
  server: Server;
  clock: Clock;
  /** The default agent's service: every loaded scenario, served at the root. */
  service: SimService;
  /** The workspace gateway's path, e.g. `/newmoi/agents/a2a`. */
  gatewayPath: string;
  /** The agents defined by `*.agent.yaml` files, each under `/agents/{id}/`. */
  agents: SimAgent[];
  /**
   * The defined agent with this id or code (they never collide), e.g. for a gateway's selector.
   * @example sim.findAgent('explore')?.service
   */
  findAgent(idOrCode: string): SimAgent | undefined;
  store: TaskStore;
  /** Every fault chaos injected, newest last. */
  faults: FaultLog;
  /** Every webhook delivery attempt, newest last. */
  deliveries: DeliveryLog;
  /** Every request to an agent, newest last. */
  journal: RequestJournal;
  /** Everything that happens, as it happens (what the live feed streams). */
  events: SimEventBus;
  /** Re-reads the scenario directories; a broken file keeps its previous version. */
  reload(): Promise<{ issues: string[] }>;
  /** Problems found while loading scenarios and agents; the broken files were skipped. */
  issues: ScenarioIssue[];
  logger: Logger;
  /** Stops listening, ends open streams and stops every running task. */
  close(): Promise<void>;
}

export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const logger = options.logger ?? createLogger(options.logLevel ?? DEFAULTS.logLevel);
  const clock = options.clock ?? new RealClock();
  const dirs = [
    ...(options.scenarioDirs ?? []),
    ...((options.builtinScenarios ?? DEFAULTS.builtinScenarios) ? [BUILTIN_SCENARIO_DIR] : []),
  ];
  await checkScenarioDirs(options.scenarioDirs ?? []);
  const loaded = await loadScenarioDirs(dirs, { checkChaos: chaosTextProblem });
  for (const issue of loaded.issues) logger.warn(`scenario skipped: ${formatIssue(issue)}`);
  const definitions = await loadAgentDirs(
    dirs,
    loaded.scenarios.map((s) => s.id),
  );
  for (const issue of definitions.issues) logger.warn(`agent skipped: ${formatIssue(issue)}`);
  const chaos = await loadChaosDirs(dirs);
  for (const issue of chaos.issues) logger.warn(`chaos profile skipped: ${formatIssue(issue)}`);
  const globalChaos = new GlobalChaos(chaos.profiles);
  if (options.chaos !== undefined) await globalChaos.set(options.chaos);
  for (const scenario of loaded.scenarios) {
    const name = scenarioChaos(scenario)?.profile;
    if (name !== undefined && !chaos.profiles.has(name)) {
      logger.warn(
        `scenario ${scenario.id}: no chaos profile "${name}"; known: ${[...chaos.profiles.keys()].join(', ')}`,
      );
    }
  }
  const faults = new FaultLog();
  faults.onRecord((fault) => logger.info(`chaos: ${describeFault(fault)}`));
  const push = { ...DEFAULTS.push, ...options.push };
  const deliveries = new DeliveryLog();
  deliveries.onRecord((delivery) => logger.info(`push: ${describeDelivery(delivery)}`));

  // Every agent plays on the same store and clock; scopes keep their tasks apart.
  const store = new TaskStore({ ...DEFAULTS.retention, ...options.retention });
  const cardOptions = {
    pushNotifications: push.enabled,
    ...DEFAULTS.agent,
    ...options.agent,
    ...(options.publicUrl && { publicUrl: options.publicUrl }),
    format: options.cardFormat ?? DEFAULTS.cardFormat,
  };
  const keepAlive = new KeepAliveHub(clock, options.keepAliveMs ?? DEFAULTS.keepAliveMs);
  const seed = options.seed ?? DEFAULTS.seed;
  const serviceFor = (scenarios: readonly Scenario[], seed: string, inputModes: readonly string[]) =>
    new SimService({
      ...(push.enabled && {
        push: new PushDispatcher({ ...push, clock, seed, log: deliveries, encode: pushBody }),
      }),
      registry: new ScenarioRegistry(scenarios),
      store,
      clock,
      seed,
      speed: options.speed ?? DEFAULTS.speed,
      inputModes,
      closeStreamOnAuthRequired: options.closeStreamOnAuthRequired ?? DEFAULTS.closeStreamOnAuthRequired,
    });
  const bindingContext = (
    service: SimService,
    seed: string,
    cards: AgentCards,
    callContext: BindingContext['callContext'],
    agent: Pick<BindingContext, 'access' | 'extensions'> = {},
  ): BindingContext => ({
    service: new ChaosService(service, {
      clock,
      seed,
      profiles: chaos.profiles,
      faults,
      global: globalChaos,
    }),
    keepAlive,
    cards,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    strictVersion: options.strictVersion ?? DEFAULTS.strictVersion,
    callContext,
    ...agent,
    report: (error: unknown) => logger.error('unexpected error', error),
  });
  const scenarioSkills = (service: SimService) => () =>
    service.scenarios.list().flatMap((s) => (s.skill ? [s.skill] : []));

  const service = serviceFor(loaded.scenarios, seed, cardOptions.inputModes);
  const context = bindingContext(
    service,
    seed,
    new AgentCards(cardOptions, scenarioSkills(service), clock),
    tenantCalls,
  );
  // A seed of its own: what the root or another agent was asked never shifts this agent's ids.
  const agentSeed = (id: string) => `${seed}/agents/${id}`;
  const agentServices = definitions.agents.map(({ id, scenarioIds, defaultInputModes }) =>
    serviceFor(
      loaded.scenarios.filter((s) => scenarioIds.includes(s.id)),
      agentSeed(id),
      defaultInputModes ?? cardOptions.inputModes,
    ),
  );
  const mounted = definitions.agents.map((definition, i) => {
    const { id, code, workspaces, name, description, version, skills, security, extensions } = definition;
    const agentService = agentServices[i]!;
    const cards = new AgentCards(
      {
        ...cardOptions,
        name,
        description,
        version: version ?? cardOptions.version,
        path: `/agents/${id}`,
        ...(security && { security }),
        ...(extensions && { extensions }),
        inputModes: definition.defaultInputModes ?? cardOptions.inputModes,
        outputModes: definition.defaultOutputModes ?? cardOptions.outputModes,
      },
      skills ? () => skills : scenarioSkills(agentService),
      clock,
    );
    const access = security && {
      agentId: id,
      security,
      ...(options.apiKeys && { apiKeys: options.apiKeys }),
    };
    return {
      id,
      code,
      workspaces,
      context: bindingContext(agentService, agentSeed(id), cards, agentCalls(id), {
        ...(access && { access }),
        ...(extensions && { extensions }),
      }),
    };
  });
  const gatewayPrefix = normalizePrefix(options.gatewayPrefix ?? DEFAULTS.gatewayPrefix);
  // The control plane: what happened, live, and the means to steer it.
  const bus = new SimEventBus(() => clock.now());
  const journal = new RequestJournal(options.journalSize ?? DEFAULTS.journalSize);
  store.onEvent((record, event) => {
    if (event.seq === 1) bus.publish(taskCreatedBody, record, event);
    bus.publish(taskEventBody, record, event);
  });
  faults.onRecord((fault) => bus.publish({ type: 'chaos:fault', fault }));
  deliveries.onRecord((delivery) => bus.publish({ type: 'push:attempt', delivery }));
  let current = {
    scenarios: loaded.scenarios,
    issues: [...loaded.issues, ...definitions.issues, ...chaos.issues],
  };
  const reload = async () => {
    // A file that broke keeps its previous version (in its place in the matching order, ahead of a
    // built-in it overrides), so a typo mid-demo changes nothing.
    const previous = new Map(current.scenarios.map((s) => [s.file, s]));
    const fresh = await loadScenarioDirs(dirs, {
      previous: (file) => previous.get(file),
      checkChaos: chaosTextProblem,
    });
    const scenarios = fresh.scenarios;
    service.useScenarios(new ScenarioRegistry(scenarios));
    definitions.agents.forEach(({ scenarioIds, everyScenario }, i) =>
      agentServices[i]!.useScenarios(
        new ScenarioRegistry(scenarios.filter((s) => everyScenario || scenarioIds.includes(s.id))),
      ),
    );
    for (const issue of fresh.issues)
      logger.warn(`scenario kept at its previous version: ${formatIssue(issue)}`);
    current = { scenarios, issues: fresh.issues };
    return { issues: fresh.issues.map(formatIssue) };
  };
  const plane: ControlPlane = {
    clock,
    store,
    bus,
    journal,
    faults,
    deliveries,
    chaos: globalChaos,
    ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
    health: () => ({
      version: VERSION,
      // Clock time, virtual or real: what the dashboard measures task ages against.
      now: new Date(clock.now()).toISOString(),
      scenarios: current.scenarios.length,
      agents: mounted.length,
      tasks: store.size,
    }),
    catalog: () => ({
      scenarios: current.scenarios.map(scenarioSummary),
      agents: definitions.agents.map(agentSummary),
      chaosProfiles: [...chaos.profiles.keys()],
      issues: current.issues.map(formatIssue),
    }),
    reload,
  };
  // --watch: an edited scenario file is re-validated and swapped in, once the edits settle.
  let settling: Timer | undefined;
  const watchers = options.watch
    ? dirs.map((dir) =>
        watch(dir, () => {
          settling?.cancel();
          settling = clock.setTimer(200, () => {
            reload().catch((error: unknown) => logger.error('failed to reload the scenarios', error));
          });
        }).on('error', (error) => logger.warn(`--watch: stopped watching ${dir}: ${error.message}`)),
      )
    : [];
  const app = buildApp(context, mounted, {
    gateway: { prefix: gatewayPrefix, ...(options.apiKeys && { apiKeys: options.apiKeys }) },
    plane,
  });

  const host = options.host ?? DEFAULTS.host;
  const server = await listen(app, options.port ?? DEFAULTS.port, host);
  answerUnroutable(server);
  const feed = attachFeed(server, plane, { logger });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}`;
  const agents: SimAgent[] = definitions.agents.map((definition, i) => ({
    id: definition.id,
    code: definition.code,
    url: `${url}/agents/${definition.id}`,
    service: agentServices[i]!,
    definition,
  }));

  return {
    url,
    port,
    app,
    server,
    clock,
    service,
    gatewayPath: `${gatewayPrefix}/agents/a2a`,
    agents,
    findAgent: (idOrCode) => agents.find((a) => a.id === idOrCode) ?? agents.find((a) => a.code === idOrCode),
    store,
    faults,
    deliveries,
    journal,
    events: bus,
    reload,
    issues: [...loaded.issues, ...definitions.issues, ...chaos.issues],
    logger,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const watcher of watchers) watcher.close();
        settling?.cancel();
        // Upgraded sockets are no longer the HTTP server's to close.
        feed.close();
        store.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function taskCreatedBody(record: TaskRecord, event: LoggedEvent): SimEventBody {
  return {
    type: 'task:created',
    taskId: record.id,
    contextId: event.contextId,
    scenario: record.scenarioId,
    ...placeOf(record.scope),
  };
}

function taskEventBody(record: TaskRecord, event: LoggedEvent): SimEventBody {
  return {
    type: 'task:event',
    taskId: record.id,
    contextId: event.contextId,
    event,
    ...placeOf(record.scope),
  };
}

/** A directory the caller named must be there: a typo must not silently serve something else. */
async function checkScenarioDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const found = await stat(dir).catch(() => undefined);
    if (!found) throw new Error(`Failed to start: the scenario directory "${dir}" does not exist.`);
    if (!found.isDirectory()) {
      throw new Error(
        `Failed to start: "${dir}" is not a directory; -s takes a directory of scenario files.`,
      );
    }
  }
}

/** `newmoi/` → `/newmoi`; `/` and `""` → `""`. */
function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}

/**
 * Connections the kernel may hold for us before we accept them (it caps this at its own somaxconn).
 * Node's default, 511, drops part of a burst such as a demo opening thousands of streams at once;
 * a dropped connection costs its client a retransmitted SYN, a second or more.
 */
const LISTEN_BACKLOG = 4096;

function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    server.listen({ port, host, backlog: LISTEN_BACKLOG });
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

export { VirtualClock, RealClock, type Clock } from './lib/clock.js';
export { DEFAULTS, VERSION, type SimulatorOptions } from './config.js';
export { formatIssue, loadScenarioFile, type ScenarioIssue } from './scenario/load.js';
export type { AgentDefinition } from './agents/load.js';
export type { Scenario } from './scenario/model.js';
