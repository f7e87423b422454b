/** `a2a-sim serve`: start the simulator and print where to reach it. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { COMMANDS, EXAMPLES } from '../../config/commands.js';
import { createSimulator, VERSION } from '../../index.js';
import { flushLog } from '../../lib/log.js';
import { checkServerArgs, simulatorOptions, withOptions } from '../options.js';

const serveOptions = <T>(yargs: Argv<T>) => withOptions(yargs, COMMANDS.serve).check(checkServerArgs);

type ServeArgs = ReturnType<typeof serveOptions> extends Argv<infer A> ? A : never;

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: ['serve', '$0'],
  describe: 'Start the simulator (the default command)',
  builder: (yargs) => serveOptions(yargs).example(...EXAMPLES.serve),
  handler: async (argv: ArgumentsCamelCase<ServeArgs>) => {
    if (argv.proxyAll && argv.proxy === undefined && argv.proxyGateway === undefined) {
      throw new Error('--proxy-all needs --proxy URL or --proxy-gateway URL');
    }
    const proxied = argv.proxy !== undefined || argv.proxyGateway !== undefined;
    const { proxy, ...options } = simulatorOptions(argv, COMMANDS.serve);
    const sim = await createSimulator({ ...options, ...(proxied && { proxy }) });
    const base = argv.publicUrl?.replace(/\/+$/, '') ?? sim.url;
    const scenarios = sim.scenarios().map((s) => s.id);
    const store = sim.replica?.health();
    process.stdout.write(
      [
        `a2a-sim ${VERSION} listening on ${sim.url}`,
        `  agent card  ${base}/.well-known/agent-card.json`,
        `  JSON-RPC    POST ${base}/  (A2A 1.0: SendMessage, GetTask, ...)`,
        `  REST        ${base}/message:send, ${base}/tasks/{id}, ...  (A2A 1.0)`,
        ...(sim.grpcUrl
          ? [`  gRPC        ${sim.grpcUrl}  (A2A 1.0: lf.a2a.v1.A2AService; 0.3: a2a.v1.A2AService)`]
          : []),
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
        ...(sim.cardSigningKey
          ? [
              `  signed      cards signed (${String(sim.cardSigningKey.alg)}, kid ${String(sim.cardSigningKey.kid)}); keys at ${base}/.well-known/jwks.json`,
              ...(argv.cardSigningKey === 'generate'
                ? [`  public key  ${JSON.stringify(sim.cardSigningKey)}`]
                : []),
            ]
          : []),
        `  push        ${argv.push ? `on${argv.pushBlockPrivate ? ', private addresses refused' : ''}; deliveries at ${base}/_sim/deliveries` : 'off (--no-push)'}`,
        'Try:',
        `  curl -s -X POST ${base}/message:send -H 'Content-Type: application/a2a+json' -d '{"message":{"role":"ROLE_USER","parts":[{"text":"What is the weather today?"}],"messageId":"msg-1"}}'`,
        '',
      ].join('\n'),
    );
    const shutdown = () => {
      void sim
        .close()
        .then(flushLog)
        .then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  },
};
