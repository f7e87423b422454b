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
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetAndShare, setChaosAndShare } from './admin/control-plane.js';
import type { SimEventBus } from './admin/events.js';
import { attachFeed } from './admin/feed.js';
import { journalCalls } from './admin/journal-trace.js';
import type { RequestJournal } from './admin/journal.js';
import type { AgentDefinition } from './agents/load.js';
import type { FaultLog } from './chaos/fault-log.js';
import { composeAgents, connectShared } from './compose/agents.js';
import { loadCatalog } from './compose/catalog.js';
import { composeControl } from './compose/control.js';
import { resolveSettings, type Settings } from './compose/settings.js';
import { VERSION, type SimulatorOptions } from './config.js';
import type { Clock } from './lib/clock.js';
import { portError } from './lib/listen-error.js';
import type { Logger } from './lib/log.js';
import type { DeliveryLog } from './push/delivery-log.js';
import type { Scenario } from './scenario/model.js';
import type { ReplicaHealth } from './replica/replica.js';
import type { InlineScenario } from './scenario/inline.js';
import type { ScenarioIssue } from './scenario/load.js';
import { answerUnroutable, buildHttp } from './server.js';
import type { TaskStore } from './store/task-store.js';
import { Recording } from './record/recorder.js';
import { connectUpstream } from './upstream/agent.js';
import type { ClientVerdicts } from './verdicts/judge.js';
import { summarizeCard } from './upstream/card.js';

/** An agent defined by an `*.agent.yaml` file, served at {@link SimAgent.url}. */
export interface SimAgent {
  id: string;
  /** The gateway's `agent_code`. */
  code: string;
  /** Its base URL, e.g. `http://127.0.0.1:41241/agents/explore`. */
  url: string;
  /** With `grpcPort`: its own gRPC port's `host:port`, where every call is for it (its card's GRPC interface). */
  grpcUrl?: string;
  /** The scenarios it plays now, highest priority first (a reload replaces them). */
  scenarios(): readonly Scenario[];
  definition: AgentDefinition;
}

/**
 * A request handler as express and `node:http` call it: `app.use(sim.app)` in an express app, or
 * `createServer(sim.app)`.
 * @note Not express's own `Express` type: the package's types then compile in a project without
 * `@types/express`.
 */
export type SimApp = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** The task store as the simulator's user sees it: to read and to watch, not to change. */
export type TaskStoreView = Pick<
  TaskStore,
  'size' | 'bytes' | 'get' | 'find' | 'has' | 'all' | 'list' | 'onEvent' | 'onEvict'
>;

export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:41241`. */
  url: string;
  port: number;
  /**
   * The simulator's request handler, to mount in an express app of your own (`app.use(sim.app)`) or
   * to serve with `node:http`; a body parser in front is fine. Requests it serves are journaled and
   * judged like any other.
   */
  app: SimApp;
  /** The `node:http` server it listens with, e.g. to watch its connections. */
  server: Server;
  /** With `grpcPort`: where the gRPC services listen, `host:port` (the card's GRPC interface). */
  grpcUrl?: string;
  grpcPort?: number;
  /** The clock every timer runs on: a {@link VirtualClock} moves only when the test advances it. */
  clock: Clock;
  /** The scenarios the root agent plays now, highest priority first (`use()` and reloads change them). */
  scenarios(): readonly Scenario[];
  /** The workspace gateway's path, e.g. `/acme/agents/a2a`. */
  gatewayPath: string;
  /** The agents defined by `*.agent.yaml` files, each under `/agents/{id}/`. */
  agents: SimAgent[];
  /**
   * The defined agent with this id or code (they never collide), e.g. for a gateway's selector.
   * @example sim.findAgent('explore')?.url
   */
  findAgent(idOrCode: string): SimAgent | undefined;
  /** Every task, in every scope, with its event log. */
  store: TaskStoreView;
  /** Every fault chaos injected, newest last. */
  faults: Pick<FaultLog, 'list' | 'onRecord'>;
  /**
   * The public key the cards are signed with (a JWK with `kid`), when `cardSigningKey` is set.
   * @note A plain record: `node:crypto`'s `JsonWebKey` type is gone from newer `@types/node`.
   */
  cardSigningKey?: Record<string, unknown>;
  /** Every webhook delivery attempt, newest last. */
  deliveries: Pick<DeliveryLog, 'list' | 'onRecord'>;
  /** Every request to an agent, newest last. */
  journal: Pick<RequestJournal, 'list'>;
  /** Everything that happens, as it happens (what the live feed streams). */
  events: Pick<SimEventBus, 'history' | 'subscribe'>;
  /**
   * Puts scenarios ahead of every other for the rest of the run or until {@link resetScenarios}
   * (as MSW's `server.use()`), replacing any with the same id; rejects, with every problem, when one
   * does not load.
   * @example await sim.use({ id: 'slow-weather', match: [{ keywords: ['weather'] }], steps: [{ status: 'completed', after: '30s' }] });
   */
  use(...scenarios: InlineScenario[]): Promise<void>;
  /** Forgets every scenario {@link use} added (as MSW's `resetHandlers()`). */
  resetScenarios(): void;
  /** Re-reads the scenario directories; a broken file keeps its previous version. */
  reload(): Promise<{ issues: ScenarioIssue[] }>;
  /**
   * Back to how it started, between tests: removes every task, clears the journal, faults,
   * deliveries and verdicts (as `POST /_sim/reset`), forgets the scenarios {@link use} added, and
   * puts the global chaos back to the `chaos` option. The clock keeps its time.
   * @example afterEach(() => sim.reset());
   */
  reset(): Promise<void>;
  /**
   * Sets the global chaos (as `PUT /_sim/chaos`): a profile name, `key=value` pairs, a
   * `*.chaos.yaml` path, or null for none; rejects on a mistake.
   * @example await sim.setChaos('drop-after-events=2');
   */
  setChaos(chaos: string | null): Promise<void>;
  /** Problems found while loading scenarios, agents and chaos profiles; the broken files were skipped. */
  issues: ScenarioIssue[];
  logger: Logger;
  /** Each client's verdicts, rule by rule (`client`: that client's only); see docs/verdicts.md. */
  verdicts(client?: string): ClientVerdicts[];
  /**
   * Tasks still running whose verdicts wait for their end (a client's stream of each was cut):
   * judge once they have ended, or a client that abandoned one is not seen to lose its end.
   */
  awaitingVerdicts(client?: string): { client: string; taskId: string }[];
  /**
   * Present with the `record` option: writes the conversations that went through the proxy as
   * scenario files and an agent file (again on every call, with all recorded so far).
   */
  recording?: Pick<Recording, 'stop' | 'onStop'>;
  /** With `store: 'redis://…'`: this replica's health, its store and how many replicas share it now. */
  replica?: { health(): ReplicaHealth };
  /** Stops listening, ends open streams and stops every running task. */
  close(): Promise<void>;
}

/**
 * Starts a simulator: reads the scenario directories, composes the agents and the control plane,
 * and listens.
 */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const settings = resolveSettings(options);
  const catalog = await loadCatalog(settings);
  const shared = await connectShared(settings, catalog.chaosProfiles);
  if (settings.chaos !== undefined) await shared.chaos.set(settings.chaos);
  const upstream =
    settings.proxy &&
    (await connectUpstream({ ...settings.proxy, timeoutMs: settings.proxy.timeout, clock: settings.clock }));
  const agents = composeAgents(settings, catalog, shared, upstream);
  const recording =
    settings.record && agents.root.proxy && upstream
      ? new Recording(agents.root.proxy, shared.store, {
          out: settings.record.out,
          match: settings.record.match,
          redact: settings.record.redact,
          maxBytes: settings.record.maxBytes,
          ...(settings.record.har !== undefined && {
            // The journal comes with the control plane, below; it is read when the recording stops.
            har: { file: settings.record.har, calls: () => plane.journal.entries(), version: VERSION },
          }),
          clock: settings.clock,
          source: {
            url: upstream.url,
            binding: upstream.binding,
            ...(upstream.card && { card: summarizeCard(upstream.card) }),
            ...(settings.proxy?.gateway && { name: settings.proxy.gateway.agentCode }),
          },
        })
      : undefined;
  const plane = composeControl(settings, catalog, shared, agents);
  await shared.replica?.start(plane);
  if (recording) plane.stopRecording = () => recording.stop();
  const http = buildHttp(agents.root.context, agents.defined, {
    gateway: { prefix: settings.gatewayPrefix, ...(settings.apiKeys && { apiKeys: settings.apiKeys }) },
    plane,
  });
  const server = await listen(
    settings.http === 'express' ? await http.expressApp() : http.handle,
    settings.port,
    settings.host,
    settings.server,
  ).catch(async (error: unknown) => {
    await shared.replica?.close();
    throw error;
  });
  answerUnroutable(server);
  const url = urlOf(server, settings.host);
  const grpc =
    settings.grpcPort === undefined
      ? undefined
      : await listenGrpc(
          agents.root.context,
          agents.defined,
          journalCalls(plane.journal, plane.events, plane.clock),
          { host: settings.host, port: settings.grpcPort, maxBodyBytes: settings.maxBodyBytes },
        ).catch(async (error: unknown) => {
          server.close();
          await shared.replica?.close();
          throw error;
        });
  const grpcUrl = grpc && `${new URL(url).hostname}:${grpc.port}`;
  if (grpc) {
    agents.root.cards.servesGrpc(grpc.port, url);
    for (const agent of agents.defined) agent.cards.servesGrpc(grpc.agentPorts.get(agent.id)!, url);
  }
  const feed = attachFeed(server, plane, { logger: settings.logger });
  plane.feedMemory = () => feed.memory();
  const unwatch = settings.watch ? catalog.watch() : () => {};
  const setChaos = async (chaos: string | null) => {
    await setChaosAndShare(plane, chaos);
  };
  const defined: SimAgent[] = agents.defined.map(({ id, code, service, definition }) => ({
    id,
    code,
    url: `${url}/agents/${id}`,
    ...(grpc && { grpcUrl: `${new URL(url).hostname}:${grpc.agentPorts.get(id)!}` }),
    scenarios: () => service.scenarios.list(),
    definition,
  }));
  return {
    url,
    port: (server.address() as AddressInfo).port,
    app: http.handle,
    server,
    ...(grpc && grpcUrl && { grpcUrl, grpcPort: grpc.port }),
    clock: settings.clock,
    scenarios: () => agents.root.service.scenarios.list(),
    gatewayPath: `${settings.gatewayPrefix}/agents/a2a`,
    agents: defined,
    findAgent: (idOrCode) =>
      defined.find((a) => a.id === idOrCode) ?? defined.find((a) => a.code === idOrCode),
    store: shared.store,
    faults: shared.faults,
    ...(settings.cardSigner && { cardSigningKey: settings.cardSigner.publicJwk }),
    deliveries: shared.deliveries,
    journal: plane.journal,
    events: plane.events,
    reload: () => catalog.reload(),
    use: (...scenarios) => catalog.use(scenarios),
    resetScenarios: () => catalog.resetScenarios(),
    reset: async () => {
      await resetAndShare(plane, {});
      catalog.resetScenarios();
      await setChaos(settings.chaos ?? null);
    },
    setChaos,
    issues: [...catalog.issues],
    logger: settings.logger,
    verdicts: (client) => shared.judge.verdicts(client),
    awaitingVerdicts: (client) => shared.judge.awaiting(client),
    ...(recording && { recording }),
    ...(shared.replica && { replica: shared.replica }),
    close: async () => {
      unwatch();
      // Upgraded sockets are no longer the HTTP server's to close.
      feed.close();
      shared.store.clear();
      // A replica gives its leases up: the others take its tasks at their next look, not a lease later.
      await shared.replica?.close();
      await grpc?.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      // After the server: the calls it ended complete their spans, which are exported now.
      await shared.tracing?.close();
    },
  };
}

/**
 * Connections the kernel may hold for us before we accept them (it caps this at its own somaxconn).
 * Node's default, 511, drops part of a burst such as a demo opening thousands of streams at once;
 * a dropped connection costs its client a retransmitted SYN, a second or more.
 */
const LISTEN_BACKLOG = 4096;

function listen(
  handle: RequestListener,
  port: number,
  host: string,
  limits: Settings['server'],
): Promise<Server> {
  return new Promise((resolve, reject) => {
    // A client that is slow to send its request is answered 408 rather than held: Node's defaults
    // hold slow headers 60 s and slow bodies 300 s. A stream's answer may last as long as it lasts.
    const server = createServer(
      {
        headersTimeout: limits.headersTimeout,
        requestTimeout: limits.requestTimeout,
        // How often Node looks for requests past those timeouts (its default, 30 s, would let a slow
        // client hold its connection that much longer).
        connectionsCheckingInterval: Math.min(1000, limits.headersTimeout),
      },
      handle,
    );
    server.maxConnections = limits.maxConnections;
    server.listen({ port, host, backlog: LISTEN_BACKLOG });
    server.once('listening', () => resolve(server));
    server.once('error', (error) => reject(portError(error, 'port', host, port)));
  });
}

/** The base URL clients reach it at: a wildcard address is reached on loopback. */
function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${urlHost}:${port}`;
}

export { VirtualClock, RealClock, type Clock } from './lib/clock.js';
export {
  DEFAULTS,
  VERSION,
  type Duration,
  type ProxyOptions,
  type RecordOptions,
  type SimulatorOptions,
} from './config.js';
export { PortInUseError, type PortOption } from './lib/listen-error.js';
export type { RecordingResult } from './record/recorder.js';
export type { ClientVerdicts, RuleVerdict } from './verdicts/judge.js';
export { formatIssue, loadScenarioFile, type ScenarioIssue } from './scenario/load.js';
export type { InlineScenario } from './scenario/inline.js';
export { drive, waitForTask } from './testing.js';
export type { AgentDefinition } from './agents/load.js';
export type { Scenario } from './scenario/model.js';
export type { SimEvent } from './admin/events.js';
export type { JournalEntry } from './admin/journal.js';
export type { AnswerEntry } from './calls/answer-copy.js';
export type { FaultRecord } from './chaos/fault-log.js';
export type { DeliveryRecord } from './push/delivery-log.js';

/** grpc-js and the protos are loaded only by a simulator that serves gRPC. */
async function listenGrpc(
  ...args: Parameters<typeof import('./bindings/grpc/server.js').listenGrpc>
): ReturnType<typeof import('./bindings/grpc/server.js').listenGrpc> {
  const grpc = await import('./bindings/grpc/server.js');
  return grpc.listenGrpc(...args);
}
