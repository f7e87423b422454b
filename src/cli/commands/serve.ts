/** `a2a-sim serve`: start the simulator and print where to reach it. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { createSimulator, VERSION, type SimulatorOptions } from '../../index.js';
import { withServerOptions } from '../options.js';
import { proxyOption, withProxyOptions } from '../proxy-options.js';

type ServeArgs = ReturnType<typeof serveOptions> extends Argv<infer A> ? A : never;
type ServerArgs = ReturnType<typeof withServerOptions> extends Argv<infer A> ? A : never;

const serveOptions = <T>(yargs: Argv<T>) => withProxyOptions(withServerOptions(yargs));

/** The simulator's options as the server flags give them (shared by `serve` and `record`). */
export function serverOptions(argv: ArgumentsCamelCase<ServerArgs>): SimulatorOptions {
  return {
    port: argv.port,
    host: argv.host,
    scenarioDirs: argv.scenarioDirs,
    builtinScenarios: argv.builtinScenarios,
    seed: argv.seed,
    ...(argv.startTime !== undefined && { startTime: argv.startTime }),
    speed: argv.speed,
    strictVersion: argv.strictVersion,
    closeStreamOnAuthRequired: argv.closeStreamOnAuthRequired,
    cardFormat: argv.cardFormat,
    maxBodyBytes: argv.maxBodyBytes,
    keepAlive: argv.keepAlive,
    logLevel: argv.logLevel,
    ...(argv.logFormat !== undefined && { logFormat: argv.logFormat }),
    ...(argv.publicUrl !== undefined && { publicUrl: argv.publicUrl }),
    ...(argv.apiKeys !== undefined && { apiKeys: argv.apiKeys }),
    gatewayPrefix: argv.gatewayPrefix,
    watch: argv.watch,
    journalSize: argv.journalSize,
    store: argv.store,
    ...(argv.adminToken !== undefined && { adminToken: argv.adminToken }),
    ...(argv.chaos !== undefined && { chaos: argv.chaos }),
    retention: {
      maxTasks: argv.maxTasks,
      terminalTtl: argv.terminalTtl,
      maxEventsPerTask: argv.maxEventsPerTask,
      eventTtl: argv.eventTtl,
      maxStoreBytes: argv.maxStoreBytes,
    },
    push: {
      enabled: argv.push,
      blockPrivate: argv.pushBlockPrivate,
      timeout: argv.pushTimeout,
      maxAttempts: argv.pushMaxAttempts,
      backoff: argv.pushBackoff,
      maxQueue: argv.pushMaxQueue,
    },
  };
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: ['serve', '$0'],
  describe: 'Start the simulator (the default command)',
  builder: (yargs) => serveOptions(yargs),
  handler: async (argv: ArgumentsCamelCase<ServeArgs>) => {
    if (argv.proxyAll && argv.proxy === undefined && argv.proxyGateway === undefined) {
      throw new Error('--proxy-all needs --proxy URL or --proxy-gateway URL');
    }
    const proxied = argv.proxy !== undefined || argv.proxyGateway !== undefined;
    const sim = await createSimulator({
      ...serverOptions(argv),
      ...(proxied && {
        proxy: proxyOption(argv, { url: argv.proxy, gateway: argv.proxyGateway, all: argv.proxyAll }),
      }),
    });
    const base = argv.publicUrl?.replace(/\/+$/, '') ?? sim.url;
    const scenarios = sim.scenarios().map((s) => s.id);
    const store = sim.replica?.health();
    process.stdout.write(
      [
        `a2a-sim ${VERSION} listening on ${sim.url}`,
        `  agent card  ${base}/.well-known/agent-card.json`,
        `  JSON-RPC    POST ${base}/  (A2A 1.0: SendMessage, GetTask, ...)`,
        `  REST        ${base}/message:send, ${base}/tasks/{id}, ...  (A2A 1.0)`,
        ...(store ? [`  store       ${store.url}, as replica ${store.replica}`] : []),
        `  scenarios   ${scenarios.length}: ${scenarios.join(', ')}${sim.issues.length ? ` (${sim.issues.length} problem(s), see above)` : ''}`,
        ...sim.agents.map(
          (agent) => `  agent       ${agent.id}: ${base}/agents/${agent.id}/.well-known/agent-card.json`,
        ),
        ...(sim.agents.length
          ? [
              `  gateway     POST ${base}${sim.gatewayPath}  (agent_code: ${sim.agents.map((a) => a.code).join(', ')})`,
            ]
          : []),
        `  dashboard   ${base}/_sim/${argv.adminToken ? '?token=…' : ''}  (admin API under /_sim)`,
        `  seed        "${argv.seed}", speed ${argv.speed}${argv.chaos ? `, chaos "${argv.chaos}"` : ''}`,
        ...(proxied
          ? [
              `  proxy       ${argv.proxyAll ? 'every message' : 'messages no scenario matches'} → ${argv.proxy ?? `${argv.proxyGateway} (agent_code ${argv.agentCode})`}`,
            ]
          : []),
        `  push        ${argv.push ? `on${argv.pushBlockPrivate ? ', private addresses refused' : ''}; deliveries at ${base}/_sim/deliveries` : 'off (--no-push)'}`,
        'Try:',
        `  curl -s -X POST ${base}/message:send -H 'Content-Type: application/a2a+json' -d '{"message":{"role":"ROLE_USER","parts":[{"text":"What is the weather today?"}],"messageId":"msg-1"}}'`,
        '',
      ].join('\n'),
    );
    const shutdown = () => {
      void sim.close().then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  },
};
