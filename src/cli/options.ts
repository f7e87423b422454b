/** Option groups shared by commands; defaults come from config.ts only. */
import type { Argv } from 'yargs';
import { DEFAULTS } from '../config.js';
import { formatDuration, parseDuration } from '../lib/duration.js';

export function withScenarioOptions<T>(yargs: Argv<T>) {
  return yargs
    .option('scenarios', {
      alias: 's',
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Directory of scenario files (repeatable); tried before the built-ins',
      group: 'Scenarios:',
    })
    .option('builtins', {
      type: 'boolean',
      default: DEFAULTS.builtinScenarios,
      describe: 'Load the built-in scenarios (--no-builtins to leave them out)',
      group: 'Scenarios:',
    });
}

export function withServerOptions<T>(yargs: Argv<T>) {
  return withScenarioOptions(yargs)
    .option('port', {
      alias: 'p',
      type: 'number',
      default: DEFAULTS.port,
      describe: 'Port to listen on (0: any free port)',
      group: 'Server:',
    })
    .option('host', {
      type: 'string',
      default: DEFAULTS.host,
      describe: 'Interface to listen on (0.0.0.0 for all)',
      group: 'Server:',
    })
    .option('public-url', {
      type: 'string',
      describe: 'Base URL to advertise in the agent card (default: from the request)',
      group: 'Server:',
    })
    .option('seed', {
      type: 'string',
      default: DEFAULTS.seed,
      describe: 'Root seed: same seed and requests, same ids, content and timing',
      group: 'Behaviour:',
    })
    .option('speed', {
      type: 'number',
      default: DEFAULTS.speed,
      describe: 'Speed-up of every scenario delay: 2 = twice as fast, 0 = no delays',
      group: 'Behaviour:',
    })
    .option('strict-version', {
      type: 'boolean',
      default: DEFAULTS.strictVersion,
      describe: 'Apply A2A-Version negotiation strictly (no header means 0.3)',
      group: 'Behaviour:',
    })
    .option('keep-alive', {
      type: 'number',
      default: DEFAULTS.keepAliveMs,
      describe: 'Milliseconds between ": keep-alive" comments on open streams (0: none)',
      group: 'Behaviour:',
    })
    .option('chaos', {
      type: 'string',
      describe:
        'Chaos for every call: a profile name (flaky-mobile), key=value pairs as in X-Sim-Chaos, or a *.chaos.yaml file',
      group: 'Chaos:',
    })
    .option('admin-token', {
      type: 'string',
      describe: 'Let non-loopback clients use the control plane (/_sim) when they present this token',
      group: 'Control plane:',
    })
    .option('watch', {
      type: 'boolean',
      default: false,
      describe: 'Re-read scenario files when they change (a broken edit keeps the previous version)',
      group: 'Control plane:',
    })
    .option('journal-size', {
      type: 'number',
      default: DEFAULTS.journalSize,
      describe: 'Requests kept in the journal (GET /_sim/requests)',
      group: 'Control plane:',
    })
    .option('event-ttl', {
      type: 'string',
      default: formatDuration(DEFAULTS.retention.eventTtlMs),
      describe: 'How long task events stay replayable for resuming streams, e.g. 10m, 24h',
      group: 'Retention:',
      coerce: (value: string) => durationOption('--event-ttl', value),
    })
    .option('max-events', {
      type: 'number',
      default: DEFAULTS.retention.maxEventsPerTask,
      describe: 'Events kept per task for resuming streams (older ones go first)',
      group: 'Retention:',
    })
    .option('push', {
      type: 'boolean',
      default: DEFAULTS.push.enabled,
      describe:
        'Deliver push notifications to webhooks (--no-push: every push call answers PushNotificationNotSupportedError)',
      group: 'Push notifications:',
    })
    .option('push-block-private', {
      type: 'boolean',
      default: DEFAULTS.push.blockPrivate,
      describe: 'Refuse webhook URLs on private, loopback and link-local addresses (the SSRF filter)',
      group: 'Push notifications:',
    })
    .option('push-timeout', {
      type: 'string',
      default: formatDuration(DEFAULTS.push.timeoutMs),
      describe: 'How long each webhook delivery attempt may take, e.g. 10s',
      group: 'Push notifications:',
      coerce: (value: string) => durationOption('--push-timeout', value),
    })
    .option('push-attempts', {
      type: 'number',
      default: DEFAULTS.push.maxAttempts,
      describe: 'Attempts per event and webhook before giving up (retries back off exponentially)',
      group: 'Push notifications:',
    })
    .option('api-key', {
      type: 'string',
      array: true,
      describe:
        'API key for the gateway and for agents that declare security, optionally only in these workspaces: KEY[=WS1,WS2] (repeatable)',
      group: 'Security:',
      coerce: apiKeysFrom,
    })
    .option('gateway-prefix', {
      type: 'string',
      default: DEFAULTS.gatewayPrefix,
      describe: "Path before the workspace gateway's /agents/a2a, e.g. /newmoi",
      group: 'Server:',
    })
    .option('log-level', {
      type: 'string',
      choices: ['silent', 'error', 'warn', 'info', 'debug'] as const,
      default: 'info' as const,
      describe: 'How much the simulator logs to stderr',
      group: 'Server:',
    })
    .check((argv) => {
      if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535)
        throw new Error(`--port must be 0-65535, got ${argv.port}`);
      if (!(argv.speed >= 0)) throw new Error(`--speed must be 0 or more, got ${argv.speed}`);
      if (!(Number.isInteger(argv['max-events']) && argv['max-events'] >= 1))
        throw new Error(`--max-events must be a whole number of 1 or more, got ${argv['max-events']}`);
      if (!(Number.isInteger(argv['push-attempts']) && argv['push-attempts'] >= 1))
        throw new Error(`--push-attempts must be a whole number of 1 or more, got ${argv['push-attempts']}`);
      if (!(argv['push-timeout'] > 0))
        throw new Error(`--push-timeout must be longer than 0, got ${argv['push-timeout']}`);
      if (!(argv['keep-alive'] >= 0))
        throw new Error(`--keep-alive must be 0 or more, got ${argv['keep-alive']}`);
      if (argv['public-url'] !== undefined && !/^https?:\/\/[^\s/]+/.test(argv['public-url'])) {
        throw new Error(`--public-url must be an http(s) URL, got ${argv['public-url']}`);
      }
      return true;
    });
}

function durationOption(name: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new Error(`${name} must be a duration like "10m" or "24h", got "${value}"`);
  return ms;
}

/** `["k1", "k2=ws-1,ws-2"]` → `{ k1: ["*"], k2: ["ws-1", "ws-2"] }`: no workspaces means any. */
function apiKeysFrom(values: string[]): Record<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const value of values) {
    const [key = '', workspaces] = value.split(/=(.*)/s);
    const allowed = workspaces === undefined ? ['*'] : workspaces.split(',').filter(Boolean);
    if (!key || !allowed.length) {
      throw new Error(`--api-key must look like KEY or KEY=WS1,WS2, got "${value}"`);
    }
    keys.set(key, [...(keys.get(key) ?? []), ...allowed]);
  }
  return Object.fromEntries(keys);
}
