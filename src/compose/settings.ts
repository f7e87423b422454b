/**
 * The options of createSimulator with every default applied and every duration in milliseconds:
 * the defaults and the old option names still honoured come from the option rows (config/), and
 * this turns what was given into what the simulator runs with.
 */
import type { AgentCardOptions } from '../agents/card-options.js';
import {
  DEFAULTS,
  type Duration,
  type ProxyOptions,
  type RecordOptions,
  type SimulatorOptions,
} from '../config.js';
import { withDefaults, type OptionsWithDefaults } from '../config/defaults.js';
import type { ErrorCodeProfile } from '../domain/error-codes.js';
import type { Preview } from '../domain/previews.js';
import { loadSigner, type JwsSigner } from '../lib/jws.js';
import { RealClock, type Clock } from '../lib/clock.js';
import { contentTimeOf, INSTANT_HINT, readInstant } from '../lib/content-time.js';
import { readDuration } from '../lib/duration.js';
import { createLogger, type Logger } from '../lib/log.js';
import type { InlineScenario } from '../scenario/inline.js';
import { BUILTIN_SCENARIO_DIR } from '../scenario/load.js';
import { readStoreUrl, type StoreSettings } from '../replica/store-url.js';
import type { RetentionOptions } from '../store/task-store.js';
import type { VerdictThresholds } from '../verdicts/thresholds.js';

export interface ProxySettings {
  url?: string;
  gateway?: { url: string; agentCode: string };
  all: boolean;
  binding: NonNullable<ProxyOptions['binding']>;
  /** ms */
  timeout: number;
  headers: Record<string, string>;
}

export interface Settings {
  port: number;
  /** The gRPC port, when gRPC is served. */
  grpcPort?: number;
  host: string;
  /** The user's directories, then the built-in one when it is wanted: the loading order. */
  dirs: string[];
  /** The user's directories alone: each must exist. */
  userDirs: string[];
  /** Scenarios given in code, tried before the files'. */
  inlineScenarios: readonly InlineScenario[];
  seed: string;
  speed: number;
  clock: Clock;
  logger: Logger;
  strictVersion: boolean;
  /** Signs the cards served, when `--card-signing-key` is given. */
  cardSigner?: JwsSigner;
  errorCodes: ErrorCodeProfile;
  /** The draft features played (`--preview`). */
  previews: ReadonlySet<Preview>;
  closeStreamOnAuthRequired: boolean;
  /** ms */
  keepAlive: number;
  maxBodyBytes: number;
  retention: RetentionOptions;
  push: {
    enabled: boolean;
    blockPrivate: boolean;
    /** ms */
    timeout: number;
    maxAttempts: number;
    /** ms */
    backoff: number;
    maxQueue: number;
  };
  /** The root agent's card. */
  card: Omit<AgentCardOptions, 'path' | 'security' | 'extensions'>;
  apiKeys?: Record<string, string[]>;
  adminToken?: string;
  /** Where spans are exported (OTLP/HTTP); none, none are. */
  otelEndpoint?: string;
  journalSize: number;
  journalBytes: number;
  verdictBytes: number;
  /** Whether the witness tells the judge of each client's calls. */
  judge: boolean;
  /** Whether `/_sim/metrics` counts the calls. */
  metrics: boolean;
  /** How long a client may take over its request, and how many may connect at once. */
  server: { headersTimeout: number; requestTimeout: number; maxConnections: number };
  watch: boolean;
  chaos?: string;
  /** `/acme`, or `""`. */
  gatewayPrefix: string;
  http: 'native' | 'express';
  store: StoreSettings;
  proxy?: ProxySettings;
  verdicts?: Partial<VerdictThresholds>;
  record?: Required<Pick<RecordOptions, 'out' | 'match' | 'redact' | 'maxBytes'>> &
    Pick<RecordOptions, 'har'>;
  /** What templates see as now, for a clock time: the day, or the start time's (lib/content-time.ts). */
  contentTime: (nowMs: number) => number;
}

export function resolveSettings(given: SimulatorOptions): Settings {
  const options = withDefaults(given);
  const clock = options.clock ?? new RealClock();
  const startTime = options.startTime === undefined ? undefined : instantOf(options.startTime);
  const userDirs = options.scenarioDirs;
  const { retention, push } = options;
  return {
    port: options.port,
    ...(options.grpcPort !== undefined && { grpcPort: options.grpcPort }),
    host: options.host,
    dirs: [...userDirs, ...(options.builtinScenarios ? [BUILTIN_SCENARIO_DIR] : [])],
    userDirs,
    inlineScenarios: options.scenarios ?? [],
    seed: options.seed,
    speed: options.speed,
    clock,
    contentTime: contentTimeOf({ startedAt: clock.now(), ...(startTime !== undefined && { startTime }) }),
    logger:
      options.logger ??
      createLogger({
        level: options.logLevel,
        ...(options.logFormat && { format: options.logFormat }),
      }),
    strictVersion: options.strictVersion,
    ...(options.cardSigningKey !== undefined && { cardSigner: loadSigner(options.cardSigningKey) }),
    errorCodes: options.errorCodes,
    previews: new Set(options.preview),
    closeStreamOnAuthRequired: options.closeStreamOnAuthRequired,
    keepAlive: ms('keepAlive', options.keepAlive),
    maxBodyBytes: options.maxBodyBytes,
    retention: {
      maxTasks: retention.maxTasks,
      terminalTtl: ms('retention.terminalTtl', retention.terminalTtl),
      maxEventsPerTask: retention.maxEventsPerTask,
      eventTtl: ms('retention.eventTtl', retention.eventTtl),
      maxStoreBytes: retention.maxStoreBytes,
      inputTtl: ms('retention.inputTtl', retention.inputTtl),
      scopeShare: retention.scopeShare,
    },
    push: {
      enabled: push.enabled,
      blockPrivate: push.blockPrivate,
      timeout: ms('push.timeout', push.timeout),
      maxAttempts: push.maxAttempts,
      backoff: ms('push.backoff', push.backoff),
      maxQueue: push.maxQueue,
    },
    card: {
      pushNotifications: push.enabled,
      ...DEFAULTS.agent,
      ...options.agent,
      ...(options.publicUrl && { publicUrl: options.publicUrl }),
      format: options.cardFormat,
    },
    ...(options.apiKeys && { apiKeys: options.apiKeys }),
    ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
    ...(options.otelEndpoint !== undefined && { otelEndpoint: options.otelEndpoint }),
    journalSize: options.journalSize,
    journalBytes: options.journalBytes,
    verdictBytes: options.verdictBytes,
    judge: options.judge,
    metrics: options.metrics,
    server: serverLimits(options),
    watch: options.watch,
    ...(options.chaos !== undefined && { chaos: options.chaos }),
    gatewayPrefix: normalizePrefix(options.gatewayPrefix),
    http: options.http ?? DEFAULTS.http,
    store: storeSettings(options),
    ...(options.proxy && { proxy: proxySettings(options.proxy, options.record !== undefined) }),
    ...(options.record && { record: recordSettings(options) }),
    ...(options.verdicts && { verdicts: options.verdicts }),
  };
}

function storeSettings(options: OptionsWithDefaults): StoreSettings {
  const store = readStoreUrl(options.store);
  if (store.kind === 'redis' && (options.proxy || options.record)) {
    throw new Error(
      `Failed to start: --store ${store.shown} shares scripted tasks between replicas; a proxied or recorded agent runs in one process (use the memory store).`,
    );
  }
  return store;
}

function recordSettings(options: OptionsWithDefaults): Settings['record'] {
  const record = options.record!;
  if (!options.proxy) throw new Error('Failed to start: record needs proxy, the agent to record.');
  if (!record.out) throw new Error('Failed to start: record needs out, the directory to write to.');
  const { out, match, redact, har, maxBytes } = record;
  return { out, match, redact: [...redact], maxBytes, ...(har !== undefined && { har }) };
}

function proxySettings(proxy: NonNullable<OptionsWithDefaults['proxy']>, recording: boolean): ProxySettings {
  const { url, gateway, agentCode } = proxy;
  if ((url === undefined) === (gateway === undefined)) {
    throw new Error(
      'Failed to start: proxy needs exactly one of url (the agent) and gateway (a workspace gateway).',
    );
  }
  if (gateway !== undefined && !agentCode) {
    throw new Error(
      'Failed to start: proxy.gateway needs proxy.agentCode, the code of the agent behind the gateway.',
    );
  }
  for (const target of [url, gateway]) {
    if (target !== undefined && !/^https?:\/\/[^/]/.test(target)) {
      throw new Error(
        `Failed to start: the proxy's target must be an http(s) URL, got ${JSON.stringify(target)}.`,
      );
    }
  }
  return {
    ...(url !== undefined && { url }),
    ...(gateway !== undefined && { gateway: { url: gateway, agentCode: agentCode! } }),
    // A recording is of the agent: every message goes to it.
    all: recording || proxy.all,
    binding: proxy.binding,
    timeout: ms('proxy.timeout', proxy.timeout),
    headers: proxy.headers ?? {},
  };
}

/** A duration option in milliseconds; a mistake stops the simulator from starting. */
function ms(option: string, value: Duration): number {
  const reading = readDuration(value);
  if ('error' in reading) throw new Error(`Failed to start: ${option} ${reading.error}.`);
  return reading.ms;
}

/** `acme/` → `/acme`; `/` and `""` → `""`. */
function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}

/** `startTime` as epoch milliseconds, or a refusal naming what was given. */
function instantOf(value: string | number | Date): number {
  const ms = readInstant(value);
  if (ms === undefined)
    throw new Error(`startTime must be ${INSTANT_HINT}, got ${JSON.stringify(String(value))}`);
  return ms;
}

/** Node refuses a headers timeout longer than the request's: the headers are part of the request. */
function serverLimits(
  options: Required<Pick<SimulatorOptions, 'headersTimeout' | 'requestTimeout' | 'maxConnections'>>,
) {
  const requestTimeout = ms('requestTimeout', options.requestTimeout);
  return {
    headersTimeout: Math.min(ms('headersTimeout', options.headersTimeout), requestTimeout),
    requestTimeout,
    maxConnections: options.maxConnections,
  };
}
