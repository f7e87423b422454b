/**
 * Option groups shared by commands. A flag is its option's name in kebab case (config.ts says the
 * rule), its default comes from config.ts only, every valued flag needs its value (`--seed` alone is
 * an error, not an empty seed), and a value that does not parse is refused with what was given,
 * before anything starts. The old spellings stay as aliases.
 */
import type { Argv } from 'yargs';
import { CARD_FORMATS } from '../agents/card-options.js';
import { DEFAULTS } from '../config.js';
import { formatBytes } from '../lib/bytes.js';
import { formatDuration } from '../lib/duration.js';
import { LOG_FORMATS, LOG_LEVELS } from '../lib/log.js';
import { apiKeysValue, durationValue, instantValue, numberValue, sizeValue } from './values.js';

export function withScenarioOptions<T>(yargs: Argv<T>) {
  return yargs
    .option('scenario-dirs', {
      alias: ['s', 'scenarios'],
      type: 'string',
      array: true,
      default: [] as string[],
      requiresArg: true,
      describe: 'Directory of scenario files (repeatable); tried before the built-ins',
      group: 'Scenarios:',
    })
    .option('builtin-scenarios', {
      alias: 'builtins',
      type: 'boolean',
      default: DEFAULTS.builtinScenarios,
      describe: 'Load the built-in scenarios (--no-builtin-scenarios to leave them out)',
      group: 'Scenarios:',
    });
}

export function withServerOptions<T>(yargs: Argv<T>) {
  return withRetentionAndPush(
    withScenarioOptions(yargs)
      .option('port', {
        alias: 'p',
        requiresArg: true,
        coerce: numberValue('--port', { integer: true, min: 0, max: 65535 }),
        default: DEFAULTS.port,
        describe: 'Port to listen on (0: any free port)',
        group: 'Server:',
      })
      .option('host', {
        type: 'string',
        requiresArg: true,
        default: DEFAULTS.host,
        describe: 'Interface to listen on (0.0.0.0 for all)',
        group: 'Server:',
      })
      .option('public-url', {
        type: 'string',
        requiresArg: true,
        describe: 'Base URL to advertise in the agent card (default: from the request)',
        group: 'Server:',
      })
      .option('card-format', {
        type: 'string',
        requiresArg: true,
        choices: CARD_FORMATS,
        default: DEFAULTS.cardFormat,
        describe:
          'The agent card of a request that names no A2A-Version: hybrid (v1.0 + v0.3 fields), v1.0 or v0.3',
        group: 'Server:',
      })
      .option('max-body-bytes', {
        requiresArg: true,
        coerce: sizeValue('--max-body-bytes'),
        default: formatBytes(DEFAULTS.maxBodyBytes),
        describe: 'Largest request body accepted, e.g. 512KiB, 4MiB (REST answers a larger one with 413)',
        group: 'Server:',
      })
      .option('gateway-prefix', {
        type: 'string',
        requiresArg: true,
        default: DEFAULTS.gatewayPrefix,
        describe: "Path before the workspace gateway's /agents/a2a, e.g. /acme",
        group: 'Server:',
      })
      .option('log-level', {
        type: 'string',
        requiresArg: true,
        choices: LOG_LEVELS,
        default: DEFAULTS.logLevel,
        describe: 'How much the simulator logs to stderr: a line per request at info',
        group: 'Server:',
      })
      .option('log-format', {
        type: 'string',
        requiresArg: true,
        choices: LOG_FORMATS,
        describe: 'Log lines as pretty text or JSON [default: pretty on a terminal, json otherwise]',
        group: 'Server:',
      })
      .option('seed', {
        type: 'string',
        requiresArg: true,
        default: DEFAULTS.seed,
        describe: 'Root seed: same seed and requests, same ids, content and timing',
        group: 'Behaviour:',
      })
      .option('start-time', {
        type: 'string',
        requiresArg: true,
        coerce: instantValue('--start-time'),
        describe:
          'Pin what templates see as now ({{now}}, {{today}}, faker dates), e.g. 2030-01-01T09:00:00Z [default: the current day]',
        group: 'Behaviour:',
      })
      .option('speed', {
        requiresArg: true,
        coerce: numberValue('--speed', { min: 0 }),
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
      .option('close-stream-on-auth-required', {
        type: 'boolean',
        default: DEFAULTS.closeStreamOnAuthRequired,
        describe: 'End streams when a task pauses in auth-required (input-required always ends them)',
        group: 'Behaviour:',
      })
      .option('keep-alive', {
        requiresArg: true,
        coerce: durationValue('--keep-alive'),
        default: formatDuration(DEFAULTS.keepAlive),
        describe: 'Time between ": keep-alive" comments on open streams, e.g. 15s (0: none)',
        group: 'Behaviour:',
      })
      .option('chaos', {
        type: 'string',
        requiresArg: true,
        describe:
          'Chaos for every call: a profile name (flaky-mobile), key=value pairs as in X-Sim-Chaos, or a *.chaos.yaml file',
        group: 'Chaos:',
      })
      .option('admin-token', {
        type: 'string',
        requiresArg: true,
        describe: 'Let non-loopback clients use the control plane (/_sim) when they present this token',
        group: 'Control plane:',
      })
      .option('watch', {
        type: 'boolean',
        default: false,
        describe: 'Re-read scenario files when they change (a broken edit keeps the previous version)',
        group: 'Control plane:',
      })
      .option('store', {
        type: 'string',
        requiresArg: true,
        default: 'memory',
        describe:
          'Where tasks live: memory, or redis://HOST[:PORT][/DB] to run as one replica of a simulator shared through Redis',
        group: 'Control plane:',
      })
      .option('journal-size', {
        requiresArg: true,
        coerce: numberValue('--journal-size', { integer: true, min: 1 }),
        default: DEFAULTS.journalSize,
        describe: 'Requests kept in the journal (GET /_sim/requests)',
        group: 'Control plane:',
      })
      .option('api-keys', {
        alias: 'api-key',
        type: 'string',
        array: true,
        requiresArg: true,
        describe:
          'API key for the gateway and for agents that declare security, optionally only in these workspaces: KEY[=WS1,WS2] (repeatable)',
        group: 'Security:',
        coerce: apiKeysValue,
      }),
  ).check((argv) => {
    if (argv['public-url'] !== undefined && !/^https?:\/\/[^\s/]+/.test(argv['public-url'])) {
      throw new Error(`--public-url must be an http(s) URL, got ${argv['public-url']}`);
    }
    if (!argv['builtin-scenarios'] && argv['scenario-dirs'].length === 0) {
      throw new Error(
        '--no-builtin-scenarios leaves nothing to serve: add your scenarios with -s DIR, or keep the built-ins',
      );
    }
    return true;
  });
}

function withRetentionAndPush<T>(yargs: Argv<T>) {
  return yargs
    .option('max-tasks', {
      requiresArg: true,
      coerce: numberValue('--max-tasks', { integer: true, min: 1 }),
      default: DEFAULTS.retention.maxTasks,
      describe: 'Tasks kept in memory (ended ones go first, then the oldest)',
      group: 'Retention:',
    })
    .option('terminal-ttl', {
      requiresArg: true,
      coerce: durationValue('--terminal-ttl'),
      default: formatDuration(DEFAULTS.retention.terminalTtl),
      describe: 'How long an ended task is kept, e.g. 1h',
      group: 'Retention:',
    })
    .option('max-events-per-task', {
      alias: 'max-events',
      requiresArg: true,
      coerce: numberValue('--max-events-per-task', { integer: true, min: 1 }),
      default: DEFAULTS.retention.maxEventsPerTask,
      describe: 'Events kept per task for resuming streams (older ones go first)',
      group: 'Retention:',
    })
    .option('event-ttl', {
      requiresArg: true,
      coerce: durationValue('--event-ttl'),
      default: formatDuration(DEFAULTS.retention.eventTtl),
      describe: 'How long task events stay replayable for resuming streams, e.g. 10m, 24h',
      group: 'Retention:',
    })
    .option('max-store-bytes', {
      requiresArg: true,
      coerce: sizeValue('--max-store-bytes'),
      default: formatBytes(DEFAULTS.retention.maxStoreBytes),
      describe:
        'What all tasks may hold together, e.g. 64MiB; ended tasks make room first, then new messages are refused (429)',
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
      requiresArg: true,
      coerce: durationValue('--push-timeout', { min: 1 }),
      default: formatDuration(DEFAULTS.push.timeout),
      describe: 'How long each webhook delivery attempt may take, e.g. 10s',
      group: 'Push notifications:',
    })
    .option('push-max-attempts', {
      alias: 'push-attempts',
      requiresArg: true,
      coerce: numberValue('--push-max-attempts', { integer: true, min: 1 }),
      default: DEFAULTS.push.maxAttempts,
      describe: 'Attempts per event and webhook before giving up (retries back off exponentially)',
      group: 'Push notifications:',
    })
    .option('push-backoff', {
      requiresArg: true,
      coerce: durationValue('--push-backoff'),
      default: formatDuration(DEFAULTS.push.backoff),
      describe: "The first retry's delay, e.g. 500ms; each next one doubles, with seeded jitter",
      group: 'Push notifications:',
    })
    .option('push-max-queue', {
      requiresArg: true,
      coerce: numberValue('--push-max-queue', { integer: true, min: 1 }),
      default: DEFAULTS.push.maxQueue,
      describe: 'Events waiting per webhook; past it the oldest is dropped (and recorded)',
      group: 'Push notifications:',
    });
}
