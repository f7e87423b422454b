/**
 * Option groups shared by commands; defaults come from config.ts only. Every valued option needs
 * its value (`--seed` alone is an error, not an empty seed), and a value that does not parse is
 * refused with what was given, before anything starts.
 */
import type { Argv } from 'yargs';
import { CARD_FORMATS } from '../bindings/agent-card.js';
import { DEFAULTS } from '../config.js';
import { formatBytes, parseBytes } from '../lib/bytes.js';
import { durationLimitError, formatDuration, MAX_DURATION_MS, readDuration } from '../lib/duration.js';

export function withScenarioOptions<T>(yargs: Argv<T>) {
  return yargs
    .option('scenarios', {
      alias: 's',
      type: 'string',
      array: true,
      default: [] as string[],
      requiresArg: true,
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
      requiresArg: true,
      coerce: numberOption('--port', { integer: true, min: 0, max: 65535 }),
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
    .option('seed', {
      type: 'string',
      requiresArg: true,
      default: DEFAULTS.seed,
      describe: 'Root seed: same seed and requests, same ids, content and timing',
      group: 'Behaviour:',
    })
    .option('speed', {
      requiresArg: true,
      coerce: numberOption('--speed', { min: 0 }),
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
      coerce: sizeOption('--max-body-bytes'),
      default: formatBytes(DEFAULTS.maxBodyBytes),
      describe: 'Largest request body accepted, e.g. 512KiB, 4MiB (REST answers a larger one with 413)',
      group: 'Server:',
    })
    .option('keep-alive', {
      requiresArg: true,
      coerce: numberOption('--keep-alive', { min: 0, max: MAX_DURATION_MS }),
      default: DEFAULTS.keepAliveMs,
      describe: 'Milliseconds between ": keep-alive" comments on open streams (0: none)',
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
    .option('journal-size', {
      requiresArg: true,
      coerce: numberOption('--journal-size', { integer: true, min: 1 }),
      default: DEFAULTS.journalSize,
      describe: 'Requests kept in the journal (GET /_sim/requests)',
      group: 'Control plane:',
    })
    .option('event-ttl', {
      type: 'string',
      requiresArg: true,
      default: formatDuration(DEFAULTS.retention.eventTtlMs),
      describe: 'How long task events stay replayable for resuming streams, e.g. 10m, 24h',
      group: 'Retention:',
      coerce: (value: string) => durationOption('--event-ttl', value),
    })
    .option('max-events', {
      requiresArg: true,
      coerce: numberOption('--max-events', { integer: true, min: 1 }),
      default: DEFAULTS.retention.maxEventsPerTask,
      describe: 'Events kept per task for resuming streams (older ones go first)',
      group: 'Retention:',
    })
    .option('max-store-bytes', {
      requiresArg: true,
      coerce: sizeOption('--max-store-bytes'),
      default: formatBytes(DEFAULTS.retention.maxBytes),
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
      type: 'string',
      requiresArg: true,
      default: formatDuration(DEFAULTS.push.timeoutMs),
      describe: 'How long each webhook delivery attempt may take, e.g. 10s',
      group: 'Push notifications:',
      coerce: (value: string) => durationOption('--push-timeout', value),
    })
    .option('push-attempts', {
      requiresArg: true,
      coerce: numberOption('--push-attempts', { integer: true, min: 1 }),
      default: DEFAULTS.push.maxAttempts,
      describe: 'Attempts per event and webhook before giving up (retries back off exponentially)',
      group: 'Push notifications:',
    })
    .option('api-key', {
      type: 'string',
      array: true,
      requiresArg: true,
      describe:
        'API key for the gateway and for agents that declare security, optionally only in these workspaces: KEY[=WS1,WS2] (repeatable)',
      group: 'Security:',
      coerce: apiKeysFrom,
    })
    .option('gateway-prefix', {
      type: 'string',
      requiresArg: true,
      default: DEFAULTS.gatewayPrefix,
      describe: "Path before the workspace gateway's /agents/a2a, e.g. /newmoi",
      group: 'Server:',
    })
    .option('log-level', {
      type: 'string',
      requiresArg: true,
      choices: ['silent', 'error', 'warn', 'info', 'debug'] as const,
      default: 'info' as const,
      describe: 'How much the simulator logs to stderr',
      group: 'Server:',
    })
    .check((argv) => {
      if (!(argv['push-timeout'] > 0))
        throw new Error(`--push-timeout must be longer than 0, got ${argv['push-timeout']}`);
      if (argv['public-url'] !== undefined && !/^https?:\/\/[^\s/]+/.test(argv['public-url'])) {
        throw new Error(`--public-url must be an http(s) URL, got ${argv['public-url']}`);
      }
      if (!argv.builtins && argv.scenarios.length === 0) {
        throw new Error(
          '--no-builtins leaves nothing to serve: add your scenarios with -s DIR, or keep the built-ins',
        );
      }
      return true;
    });
}

interface NumberRule {
  integer?: boolean;
  min?: number;
  max?: number;
}

/**
 * Parses a numeric flag from what was typed (yargs' own number type turns `abc` into NaN, and the
 * error would then say "got NaN"); the default arrives as a number already.
 */
function numberOption(name: string, rule: NumberRule): (value: unknown) => number {
  return (value) => {
    const raw = String(lastOf(value)).trim();
    const n = raw === '' ? NaN : Number(raw);
    const fits =
      Number.isFinite(n) &&
      (!rule.integer || Number.isInteger(n)) &&
      (rule.min === undefined || n >= rule.min) &&
      (rule.max === undefined || n <= rule.max);
    if (!fits) {
      const kind = rule.integer ? 'a whole number' : 'a number';
      const range =
        rule.max !== undefined
          ? ` from ${rule.min} to ${rule.max}`
          : rule.min !== undefined
            ? ` of ${rule.min} or more`
            : '';
      throw new Error(`${name} must be ${kind}${range}, got "${raw}"`);
    }
    return n;
  };
}

function sizeOption(name: string): (value: unknown) => number {
  return (value) => {
    const bytes = parseBytes(lastOf(value));
    if (bytes === undefined || bytes < 1) {
      throw new Error(
        `${name} must be a size like "512KiB", "4MiB" or a number of bytes, got "${String(lastOf(value))}"`,
      );
    }
    return bytes;
  };
}

/** A flag given twice counts once, the last time, as yargs does for its own types. */
function lastOf(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function durationOption(name: string, value: string): number {
  const reading = readDuration(value);
  if ('ms' in reading) return reading.ms;
  if (durationLimitError(value)) throw new Error(`${name}: ${durationLimitError(value)}`);
  throw new Error(`${name} must be a duration like "10m" or "24h", got "${value}"`);
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
