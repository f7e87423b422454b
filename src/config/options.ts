/**
 * The options of createSimulator, as its callers write them. Each option with a flag is also a
 * row of data (*-rows.ts), where its flag, variable, default and help are declared; row.ts checks
 * each row against the type here, and defaults.ts that no option is left without a row. Defaults
 * are not repeated here: see `DEFAULTS`, or the tables in docs/cli.md.
 */
import type { AgentCardOptions, CardFormat } from '../agents/card-options.js';
import type { ErrorCodeProfile } from '../domain/error-codes.js';
import type { Preview } from '../domain/previews.js';
import type { Clock } from '../lib/clock.js';
import type { LogFormat, LogLevel, Logger } from '../lib/log.js';
import type { InlineScenario } from '../scenario/inline.js';
import type { VerdictThresholds } from '../verdicts/thresholds.js';

/**
 * A duration option: milliseconds as a number, or as flags and files write it (`500ms`, `15s`,
 * `24h`). Every duration option takes both.
 */
export type Duration = number | string;

export interface PushOptions {
  enabled: boolean;
  /** Refuse private, loopback and link-local webhook addresses (the SSRF filter). */
  blockPrivate: boolean;
  /** Per delivery attempt. */
  timeout: Duration;
  /** Attempts per event before giving up. */
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, with seeded jitter. */
  backoff: Duration;
  /** Events waiting per webhook; past it the oldest is dropped (and recorded). */
  maxQueue: number;
}

export interface RetentionSettings {
  /** Tasks kept; past it, ended tasks go first, then the oldest. */
  maxTasks: number;
  /** How long an ended task is kept. */
  terminalTtl: Duration;
  /** Events kept per task for resuming streams; older ones go first. */
  maxEventsPerTask: number;
  /** How long an event stays replayable. */
  eventTtl: Duration;
  /** What all tasks may hold together, approximately; ended tasks make room first. */
  maxStoreBytes: number;
  /** How long a task may wait for input (or auth) without a follow-up before it is forgotten. */
  inputTtl: Duration;
  /** The part of `maxStoreBytes` one scope's tasks may hold (0.01 to 1). */
  scopeShare: number;
}

export interface SimulatorOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  /**
   * Also serve A2A 1.0 (`lf.a2a.v1.A2AService`) and 0.3 (`a2a.v1.A2AService`) over gRPC on this port
   * (0 picks a free one), on the same interface. Off when absent. See docs/grpc.md.
   */
  grpcPort?: number;
  /** Interface to listen on. 127.0.0.1 is loopback only. */
  host?: string;
  /** Extra scenario directories, tried before the built-ins (a same-named file replaces a built-in). */
  scenarioDirs?: string[];
  /**
   * Scenarios written in code, tried before every file: objects with an `id` and a scenario file's
   * fields, or YAML text with an `id:` line. One that does not load stops the start with every problem.
   * @example scenarios: [{ id: 'slow-weather', match: [{ keywords: ['weather'] }], steps: [{ status: 'completed', after: '2s' }] }]
   */
  scenarios?: InlineScenario[];
  /**
   * Pins what templates see as now (`{{now}}`, `{{today}}`, faker's dates) to this moment, moved on
   * by whole days as the clock runs: two runs then render identical content. Without it, templates
   * see the clock's current day (midnight UTC). Event timestamps follow the clock either way.
   * @example startTime: '2030-01-01T09:00:00Z'
   */
  startTime?: string | number | Date;
  /** Load the scenarios shipped with the simulator. */
  builtinScenarios?: boolean;
  /** Root seed: ids, content and timings of every task derive from it. */
  seed?: string;
  /** Divides every scenario delay: 2 plays twice as fast, 0 plays without delays. */
  speed?: number;
  /** The clock every delay runs on. Default: real time. Tests pass a VirtualClock. */
  clock?: Clock;
  /** Base URL advertised in the agent card, e.g. when behind a proxy. Default: from the request's Host. */
  publicUrl?: string;
  /**
   * The agent card a request that names no `A2A-Version` gets: `hybrid` (the v1.0 card plus the
   * v0.3 fields, readable by clients of both versions), `v1.0` (the pure v1.0 card, as the
   * conformance suite validates it) or `v0.3`. A request that names a version gets that version's
   * card whatever this says.
   */
  cardFormat?: CardFormat;
  /**
   * Signs every card served (A2A §8.4): the path of a PEM private key (EC P-256 → ES256, Ed25519 →
   * EdDSA, RSA → RS256), or `'generate'` for a fresh ES256 key. The public key is served as a JWKS
   * at `/.well-known/jwks.json`, and `simulator.cardSigningKey` holds it. Default: unsigned cards.
   */
  cardSigningKey?: string;
  /** Apply the A2A-Version negotiation rules strictly (no header means 0.3). */
  strictVersion?: boolean;
  /**
   * Which edition of the spec's error table HTTP statuses (and gRPC codes) follow: `1.0.1`, the
   * current one, or `1.0.0`, which clients and suites pinned to the v1.0.0 release expect
   * (TaskNotCancelable 409, ContentTypeNotSupported 415, InvalidAgentResponse 502).
   */
  errorCodes?: ErrorCodeProfile;
  /**
   * Features of unreleased A2A drafts to play, by name; none by default. `generation`: the v1.1
   * draft's task generation, long-poll GetTask and `ifGenerationMatch` (docs/generation.md).
   */
  preview?: Preview[];
  /** End streams when a task pauses in auth-required (input-required always ends them). */
  closeStreamOnAuthRequired?: boolean;
  /** Interval of `: keep-alive` comments on open streams; 0 disables them. */
  keepAlive?: Duration;
  /** @deprecated The old name of {@link keepAlive}, in milliseconds. */
  keepAliveMs?: number;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes?: number;
  retention?: Partial<RetentionSettings> & {
    /** @deprecated The old name of `eventTtl`, in milliseconds. */
    eventTtlMs?: number;
  };
  /** How the default agent presents itself on its card (defined agents take theirs from their file). */
  agent?: Partial<Omit<AgentCardOptions, 'publicUrl' | 'path' | 'security' | 'format'>>;
  /**
   * API key → the workspace ids it may use (`"*"`: any). With keys configured, the gateway requires
   * one (and a workspace it may use), and agents that declare `security` accept only these; without,
   * the gateway needs no key and such agents accept any credential. Default: none configured.
   * @example { 'demo-key': ['*'], 'team-key': ['ws-1', 'ws-2'] }
   */
  apiKeys?: Record<string, string[]>;
  /** Webhooks (push notifications): on by default; `enabled: false` answers every push call with PushNotificationNotSupportedError. */
  push?: Partial<PushOptions>;
  /** Lets non-loopback clients use the control plane (`/_sim`) when they present it. Default: none, loopback only. */
  adminToken?: string;
  /**
   * Exports a span per call to this OTLP/HTTP endpoint (a collector's base URL, `/v1/traces` added);
   * see docs/tracing.md. Default: none, nothing exported and no OpenTelemetry module loaded.
   * @example 'http://localhost:4318'
   */
  otelEndpoint?: string;
  /** Requests kept in the journal (`GET /_sim/requests`); 0 keeps none, every call still logged, counted and judged. */
  journalSize?: number;
  /** What the journal's requests may hold together (headers and clipped bodies), approximately. */
  journalBytes?: number;
  /** What the client verdicts may keep, approximately; the least recent clients go first. */
  verdictBytes?: number;
  /** Judge each client's calls for `/_sim/verdicts`; off, no call is watched. Default: on. */
  judge?: boolean;
  /** Count calls, streams and faults for Prometheus at `/_sim/metrics`. Default: on. */
  metrics?: boolean;
  /** How long a client may take to send a request's headers; then 408. */
  headersTimeout?: Duration;
  /** How long a client may take to send a whole request, body included; then 408. */
  requestTimeout?: Duration;
  /** Connections held at once; past it, new ones are closed at once. */
  maxConnections?: number;
  /** Re-read scenario files when they change (a broken edit keeps the previous version). */
  watch?: boolean;
  /**
   * Chaos for every call unless a scenario or request says otherwise: a profile name
   * (`flaky-mobile`), `key=value` pairs as in the `X-Sim-Chaos` header, or a `*.chaos.yaml` path.
   * Default: none.
   */
  chaos?: string;
  /**
   * Where the tasks live: `memory` (this process alone, the default) or
   * `redis://HOST[:PORT][/DB]`, which makes this process one replica of a simulator whose tasks,
   * event logs, journal and faults are shared through that Redis (docs/replicas.md). Query
   * parameters: `prefix` of every key (default `a2a-sim:`), `lease` (default `3s`), `log` (entries the
   * shared log keeps, default 200000).
   * @example store: 'redis://127.0.0.1:6379/0'
   */
  store?: string;
  /**
   * Path before the workspace gateway's `/agents/a2a`: `/acme` serves it at `POST /acme/agents/a2a`.
   * `""` serves it at `POST /agents/a2a`.
   */
  gatewayPrefix?: string;
  logLevel?: LogLevel;
  /**
   * `pretty` (a readable line per record) or `json` (JSON lines, for CI and log shippers). Default:
   * `pretty` when stderr is a terminal, `json` otherwise.
   */
  logFormat?: LogFormat;
  /** Replaces the stderr logger, e.g. to collect warnings in a test. */
  logger?: Logger;
  /**
   * What serves the A2A surface: `native` (plain `node:http` handlers, the fastest) or `express`
   * (the control plane's express app, with the same handlers mounted), e.g. to check the simulator
   * behaves the same mounted in an express server.
   */
  http?: 'native' | 'express';
  /**
   * A real A2A agent to stand in front of: messages no scenario matches (a fallback scenario does not
   * count) go to it, and its tasks live in the simulator's store, under its chaos. Default: none.
   * @example proxy: { url: 'http://127.0.0.1:9999' }
   */
  proxy?: ProxyOptions;
  /**
   * Writes what went through the proxy as scenario files and an agent file when
   * {@link Simulator.recording} stops (every message goes to the agent while recording).
   */
  record?: RecordOptions;
  /**
   * How client verdicts measure (`GET /_sim/verdicts`): when polling is unbounded, how much growth
   * is backoff, how much spread is jitter. Default: see docs/verdicts.md.
   */
  verdicts?: Partial<VerdictThresholds>;
}

export interface ProxyOptions {
  /** The agent's base URL, or its card's URL. */
  url?: string;
  /** Or a workspace gateway's endpoint (`https://…/agents/a2a`), with {@link agentCode}. */
  gateway?: string;
  /** The gateway's `agent_code` of the agent behind it. */
  agentCode?: string;
  /** Send every message to the agent, not only those no scenario matches. */
  all?: boolean;
  /** Which of the agent's interfaces to speak; `auto` tries HTTP+JSON, then JSON-RPC 1.0, then 0.3. */
  binding?: 'auto' | 'rest' | 'jsonrpc' | 'jsonrpc-0.3';
  /** How long the agent may take to start answering. */
  timeout?: Duration;
  /** Sent with every call to the agent, e.g. its credentials. */
  headers?: Record<string, string>;
}

export interface RecordOptions {
  /** The directory the files go to (made when missing). */
  out: string;
  /** What selects a recorded scenario: the first message's `text` (default), `messageId-prefix`, `metadata` or `skill`. */
  match?: 'text' | 'messageId-prefix' | 'metadata' | 'skill';
  /** Header and metadata names never written, besides credentials, which never are. */
  redact?: string[];
  /** A file to write the session's calls to as well, as HAR 1.2 (what the request journal kept). */
  har?: string;
  /**
   * What the recording keeps until it stops, at most, approximately (its conversations' messages and
   * events; 64 MiB by default): past it, a conversation is left out, and counted.
   */
  maxBytes?: number;
}
