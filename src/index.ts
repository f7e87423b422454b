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
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { AgentCards } from './bindings/agent-card.js';
import type { BindingContext } from './bindings/shared/context.js';
import { KeepAliveHub } from './bindings/shared/sse.js';
import { DEFAULTS, type SimulatorOptions } from './config.js';
import { RealClock, type Clock } from './lib/clock.js';
import { createLogger, type Logger } from './lib/log.js';
import { SimService } from './runtime/service.js';
import { BUILTIN_SCENARIO_DIR, formatIssue, loadScenarioDirs, type ScenarioIssue } from './scenario/load.js';
import { ScenarioRegistry } from './scenario/registry.js';
import { buildApp } from './server.js';
import { TaskStore } from './store/task-store.js';

export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:41241`. */
  url: string;
  port: number;
  app: Express;
  server: Server;
  clock: Clock;
  service: SimService;
  store: TaskStore;
  /** Problems found while loading scenarios; the broken files were skipped. */
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
  const loaded = await loadScenarioDirs(dirs);
  for (const issue of loaded.issues) logger.warn(`scenario skipped: ${formatIssue(issue)}`);
  const registry = new ScenarioRegistry(loaded.scenarios);

  const store = new TaskStore({ ...DEFAULTS.retention, ...options.retention });
  const agent = { ...DEFAULTS.agent, ...options.agent };
  const service = new SimService({
    registry,
    store,
    clock,
    seed: options.seed ?? DEFAULTS.seed,
    speed: options.speed ?? DEFAULTS.speed,
    inputModes: agent.inputModes,
    closeStreamOnAuthRequired: options.closeStreamOnAuthRequired ?? DEFAULTS.closeStreamOnAuthRequired,
  });
  const context: BindingContext = {
    service,
    keepAlive: new KeepAliveHub(clock, options.keepAliveMs ?? DEFAULTS.keepAliveMs),
    cards: new AgentCards({ ...agent, ...(options.publicUrl && { publicUrl: options.publicUrl }) }, () =>
      service.scenarios.list().flatMap((s) => (s.skill ? [s.skill] : [])),
    ),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    strictVersion: options.strictVersion ?? DEFAULTS.strictVersion,
    report: (error) => logger.error('unexpected error', error),
  };
  const app = buildApp(context);

  const host = options.host ?? DEFAULTS.host;
  const server = await listen(app, options.port ?? DEFAULTS.port, host);
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    app,
    server,
    clock,
    service,
    store,
    issues: loaded.issues,
    logger,
    close: () =>
      new Promise<void>((resolve, reject) => {
        store.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

export { VirtualClock, RealClock, type Clock } from './lib/clock.js';
export { DEFAULTS, VERSION, type SimulatorOptions } from './config.js';
export { formatIssue, loadScenarioFile, type ScenarioIssue } from './scenario/load.js';
export type { Scenario } from './scenario/model.js';
