/** The options of a serving simulator: where its scenarios come from, how it listens and behaves. */
import { CARD_FORMATS } from '../agents/card-options.js';
import { DEFAULT_ERROR_CODES, ERROR_CODE_PROFILES } from '../domain/error-codes.js';
import { LOG_FORMATS, LOG_LEVELS } from '../lib/log.js';
import { group, row } from './row.js';

export const SCENARIOS = group('Scenarios', [
  {
    name: 'scenarioDirs',
    flag: 'scenario-dirs',
    short: 's',
    aliases: ['scenarios'],
    env: true,
    type: 'string',
    array: true,
    default: [],
    arg: 'DIR',
    help: 'Directory of scenario files (repeatable); tried before the built-ins',
  },
  {
    name: 'builtinScenarios',
    flag: 'builtin-scenarios',
    aliases: ['builtins'],
    env: true,
    type: 'boolean',
    default: true,
    help: 'Load the built-in scenarios (--no-builtin-scenarios to leave them out)',
  },
]);

export const SERVER = group('Server', [
  {
    name: 'port',
    flag: 'port',
    short: 'p',
    env: true,
    type: 'number',
    integer: true,
    min: 0,
    max: 65535,
    default: 41241,
    help: 'Port to listen on (0: any free port)',
  },
  {
    name: 'host',
    flag: 'host',
    env: true,
    type: 'string',
    default: '127.0.0.1',
    arg: 'ADDR',
    help: 'Interface to listen on (0.0.0.0 for all)',
  },
  {
    name: 'publicUrl',
    flag: 'public-url',
    env: true,
    type: 'string',
    arg: 'URL',
    help: 'Base URL to advertise in the agent card',
    defaultText: 'from the request',
  },
  {
    name: 'cardFormat',
    flag: 'card-format',
    env: true,
    type: 'string',
    choices: CARD_FORMATS,
    default: 'hybrid',
    help: 'The agent card of a request that names no A2A-Version: hybrid (v1.0 + v0.3 fields), v1.0 or v0.3',
  },
  {
    name: 'cardSigningKey',
    flag: 'card-signing-key',
    env: true,
    type: 'string',
    arg: 'FILE|generate',
    help: 'Sign every agent card (JWS, A2A §8.4) with this PEM private key (EC P-256, Ed25519, RSA); generate: a fresh ES256 key',
    doc: 'Sign every agent card (JWS over the RFC 8785 form, A2A §8.4) with this PEM private key: EC P-256 (ES256), Ed25519 (EdDSA) or RSA (RS256); `generate` makes a fresh ES256 key and prints its public JWK. The key is published at `/.well-known/jwks.json` (see [Signed cards](signed-cards.md))',
    defaultText: 'unsigned',
  },
  {
    name: 'maxBodyBytes',
    flag: 'max-body-bytes',
    env: true,
    type: 'size',
    default: 4 * 1024 * 1024,
    help: 'Largest request body accepted, e.g. 512KiB, 4MiB (REST answers a larger one with 413)',
  },
  {
    name: 'gatewayPrefix',
    flag: 'gateway-prefix',
    env: true,
    type: 'string',
    default: '',
    arg: 'PATH',
    help: "Path before the workspace gateway's /agents/a2a, e.g. /acme",
  },
  {
    name: 'logLevel',
    flag: 'log-level',
    env: true,
    type: 'string',
    choices: LOG_LEVELS,
    default: 'info',
    help: 'How much the simulator logs to stderr: a line per request at info',
  },
  {
    name: 'logFormat',
    flag: 'log-format',
    env: true,
    type: 'string',
    choices: LOG_FORMATS,
    help: 'Log lines as pretty text or JSON',
    defaultText: 'pretty on a terminal, json otherwise',
    doc: 'Log lines as pretty text or JSON lines (see [Request log](control-plane.md#request-log))',
  },
]);

export const SEED = row({
  name: 'seed',
  flag: 'seed',
  env: true,
  type: 'string',
  default: 'a2a-sim',
  help: 'Root seed: same seed and requests, same ids, content and timing',
});

export const START_TIME = row({
  name: 'startTime',
  flag: 'start-time',
  env: true,
  type: 'instant',
  help: 'Pin what templates see as now ({{now}}, {{today}}, faker dates), e.g. 2030-01-01T09:00:00Z',
  defaultText: 'the current day',
});

export const SPEED = row({
  name: 'speed',
  flag: 'speed',
  env: true,
  type: 'number',
  min: 0,
  default: 1,
  help: 'Speed-up of every scenario delay: 2 = twice as fast, 0 = no delays',
});

export const BEHAVIOUR = group('Behaviour', [
  SEED,
  START_TIME,
  SPEED,
  {
    name: 'strictVersion',
    flag: 'strict-version',
    env: true,
    type: 'boolean',
    default: false,
    help: 'Apply A2A-Version negotiation strictly (no header means 0.3)',
  },
  {
    name: 'errorCodes',
    flag: 'error-codes',
    env: true,
    type: 'string',
    choices: ERROR_CODE_PROFILES,
    default: DEFAULT_ERROR_CODES,
    help: 'Which edition of the spec error table HTTP statuses follow: 1.0.1 (current) or 1.0.0 (409, 415, 502)',
    doc: "Which edition of the spec's error table HTTP statuses (and gRPC codes) follow: `1.0.1`, the current one, or `1.0.0` (409, 415, 502; see [Error-code profiles](protocol.md#error-code-profiles))",
  },
  {
    name: 'closeStreamOnAuthRequired',
    flag: 'close-stream-on-auth-required',
    env: true,
    type: 'boolean',
    default: true,
    help: 'End streams when a task pauses in auth-required (input-required always ends them)',
  },
  {
    name: 'keepAlive',
    flag: 'keep-alive',
    replaces: 'keepAliveMs',
    env: true,
    type: 'duration',
    default: 15_000,
    help: 'Time between ": keep-alive" comments on open streams, e.g. 15s (0: none)',
  },
]);

export const CHAOS = group('Chaos', [
  {
    name: 'chaos',
    flag: 'chaos',
    env: true,
    type: 'string',
    arg: 'PROFILE|PAIRS|FILE',
    help: 'Chaos for every call: a profile name (flaky-mobile), key=value pairs as in X-Sim-Chaos, or a *.chaos.yaml file',
    doc: 'Chaos for every call: a profile name (`flaky-mobile`), `key=value` pairs as in `X-Sim-Chaos`, or a `*.chaos.yaml` file (see [Chaos](chaos.md))',
  },
]);

export const CONTROL_PLANE = group('Control plane', [
  {
    name: 'adminToken',
    flag: 'admin-token',
    env: true,
    type: 'string',
    arg: 'TOKEN',
    help: 'Let non-loopback clients use the control plane (/_sim) when they present this token',
  },
  {
    name: 'watch',
    flag: 'watch',
    env: true,
    type: 'boolean',
    default: false,
    help: 'Re-read scenario files when they change (a broken edit keeps the previous version)',
    doc: 'Re-read scenario files when they change, logging files added and removed (a broken edit keeps the previous version; a new file that fails is skipped)',
  },
  {
    name: 'store',
    flag: 'store',
    env: true,
    type: 'string',
    default: 'memory',
    arg: 'memory|URL',
    help: 'Where tasks live: memory, or redis://HOST[:PORT][/DB] to run as one replica of a simulator shared through Redis',
    doc: 'Where tasks live: `memory`, or `redis://HOST[:PORT][/DB]` to run as one replica of a simulator shared through Redis (see [Replicas](replicas.md))',
  },
  {
    name: 'journalSize',
    flag: 'journal-size',
    env: true,
    type: 'number',
    integer: true,
    min: 1,
    default: 1000,
    help: 'Requests kept in the journal (GET /_sim/requests)',
  },
  {
    name: 'journalBytes',
    flag: 'journal-bytes',
    env: true,
    type: 'size',
    default: 32 * 1024 * 1024,
    help: "What the journal's requests may hold together (headers and clipped bodies), e.g. 16MiB; the oldest go first",
  },
  {
    name: 'verdictBytes',
    flag: 'verdict-bytes',
    env: true,
    type: 'size',
    default: 32 * 1024 * 1024,
    help: "What the client verdicts may keep, e.g. 16MiB; the least recent clients, then a busy one's oldest calls, go first",
  },
  {
    name: 'headersTimeout',
    flag: 'headers-timeout',
    env: true,
    type: 'duration',
    min: 1,
    default: 10_000,
    help: "How long a client may take to send a request's headers, e.g. 10s; then 408",
  },
  {
    name: 'requestTimeout',
    flag: 'request-timeout',
    env: true,
    type: 'duration',
    min: 1,
    default: 30_000,
    help: "How long a client may take to send a whole request, body included, e.g. 30s; then 408 (a stream's answer may last longer)",
  },
  {
    name: 'maxConnections',
    flag: 'max-connections',
    env: true,
    type: 'number',
    integer: true,
    min: 1,
    default: 20_000,
    help: 'Connections held at once (streams included); past it, a new one is closed at once',
  },
]);

export const SECURITY = group('Security', [
  {
    name: 'apiKeys',
    flag: 'api-keys',
    aliases: ['api-key'],
    env: true,
    type: 'api-keys',
    help: 'API key for the gateway and for agents that declare security, optionally only in these workspaces: KEY[=WS1,WS2] (repeatable)',
    doc: 'An API key for the gateway and for agents that declare security, optionally only in these gateway workspaces (repeatable; a variable holds one key)',
  },
]);
