/**
 * The options of the commands that do more than serve: standing in front of a real agent,
 * recording it, examining a client, replaying and listing scenarios, printing schemas.
 */
import { UPSTREAM_BINDINGS } from '../upstream/choices.js';
import { group, OWN_OPTIONS } from './row.js';
import { SEED, START_TIME } from './server-rows.js';

/** What selects a recorded scenario (`--match`). */
export const RECORD_MATCH = Object.freeze(['text', 'messageId-prefix', 'metadata', 'skill'] as const);

export const PROXY = group('Proxy', [
  {
    name: 'proxy.url',
    flag: 'proxy',
    env: true,
    type: 'string',
    arg: 'URL',
    help: 'A real A2A agent (base or card URL): messages no scenario matches go to it',
    doc: 'A real A2A agent (base or card URL): messages no scenario matches go to it (see [Record and proxy](record-and-proxy.md))',
  },
  {
    name: 'proxy.gateway',
    flag: 'proxy-gateway',
    env: true,
    type: 'string',
    arg: 'URL',
    help: 'Or a workspace gateway endpoint (…/agents/a2a), with --agent-code',
  },
  {
    name: 'proxy.all',
    flag: 'proxy-all',
    env: true,
    type: 'boolean',
    default: false,
    help: 'Send every message to the agent, not only those no scenario matches',
  },
]);

/** How the agent is reached, by `serve --proxy` and `record --target` alike. */
export const UPSTREAM = group('Proxy', [
  {
    name: 'proxy.agentCode',
    flag: 'agent-code',
    env: true,
    type: 'string',
    arg: 'CODE',
    help: 'The agent_code of the agent behind a workspace gateway (with --proxy-gateway / --target-gateway)',
  },
  {
    name: 'proxy.binding',
    flag: 'proxy-binding',
    env: true,
    type: 'string',
    choices: UPSTREAM_BINDINGS,
    default: 'auto',
    help: "Which of the agent's interfaces to speak (auto: HTTP+JSON, then JSON-RPC 1.0, then 0.3)",
  },
  {
    name: 'proxy.timeout',
    flag: 'proxy-timeout',
    env: true,
    type: 'duration',
    min: 1,
    default: 30_000,
    help: 'How long the agent may take to start answering',
  },
  {
    name: 'proxy.headers',
    flag: 'proxy-header',
    env: true,
    type: 'headers',
    arg: "'NAME: VALUE'",
    help: "A header sent with every call to the agent, e.g. 'Authorization: Bearer abc' (repeatable)",
  },
]);

/** What `record` records and where it writes: this run's subject, so no variables. */
export const RECORDING = group('Recording', [
  {
    name: 'proxy.url',
    flag: 'target',
    env: false,
    type: 'string',
    arg: 'URL',
    help: 'The agent to record: its base URL or its card URL',
  },
  {
    name: 'proxy.gateway',
    flag: 'target-gateway',
    env: false,
    type: 'string',
    arg: 'URL',
    help: 'Or a workspace gateway endpoint (…/agents/a2a) to record through, with --agent-code',
  },
  {
    flag: 'out',
    short: 'o',
    env: false,
    type: 'string',
    default: 'recorded',
    arg: 'DIR',
    help: 'Directory to write the scenarios and the agent file to',
    doc: 'Directory to write the scenarios and the agent file to (option `record.out`)',
  },
  {
    name: 'record.match',
    flag: 'match',
    env: false,
    type: 'string',
    choices: RECORD_MATCH,
    default: 'text',
    help: "What selects a recorded scenario: the first message's text, messageId prefix, metadata or skill",
  },
  {
    name: 'record.redact',
    flag: 'redact',
    env: false,
    type: 'string',
    array: true,
    default: [],
    arg: 'KEY',
    help: 'A metadata key never to write (repeatable); credentials never are',
  },
  {
    name: 'record.har',
    flag: 'har',
    env: false,
    type: 'string',
    arg: 'FILE',
    help: "Also write the session's calls to FILE as HAR 1.2 (requests, answers, SSE frames)",
    doc: "Also write the session's calls to `FILE` as HAR 1.2, as `GET /_sim/requests.har` shows them (see [Record and proxy](record-and-proxy.md#the-calls-as-har))",
  },
  {
    name: 'record.maxBytes',
    flag: 'max-recording-bytes',
    env: false,
    type: 'size',
    default: 64 * 1024 * 1024,
    help: 'What the recording keeps until it stops, e.g. 256MiB; past it, conversations are left out, and counted',
    doc: "What the recording keeps until it stops (its conversations' messages and events), e.g. 256MiB; past it, conversations are left out, and counted (see [Record and proxy](record-and-proxy.md#record-edit-replay))",
  },
]);

export const EXAM = group(OWN_OPTIONS, [
  {
    flag: 'curriculum',
    env: false,
    type: 'string',
    default: 'all',
    arg: 'NAME,...',
    help: 'Built-in curricula (reconnect, polling, errors, quirks, expired-resume, all) or *.curriculum.yaml files, comma-separated',
  },
  {
    flag: 'junit',
    env: false,
    type: 'string',
    arg: 'FILE',
    help: 'Write the verdicts as JUnit XML to this file',
  },
  {
    flag: 'report',
    env: false,
    type: 'string',
    arg: 'FILE',
    help: "Write the verdicts as JSON to this file: the curricula, their rules, and each client's verdicts",
  },
  SEED,
  {
    name: 'speed',
    flag: 'speed',
    env: true,
    type: 'number',
    min: 0,
    help: 'Divides every scenario delay',
    defaultText: "the curriculum's, else 1",
  },
  {
    flag: 'timeout',
    env: false,
    type: 'duration',
    min: 1,
    default: 5 * 60 * 1000,
    help: 'How long the command may run before it is stopped (and fails)',
  },
]);

export const REPLAY = group(OWN_OPTIONS, [
  {
    flag: 'then',
    env: false,
    type: 'string',
    array: true,
    default: [],
    arg: 'TEXT',
    help: 'A follow-up to the task when it waits for input (repeatable, in order)',
  },
  SEED,
  START_TIME,
  {
    flag: 'json',
    env: false,
    type: 'boolean',
    default: false,
    help: 'Print the logged events as JSON',
  },
]);

export const LIST = group(OWN_OPTIONS, [
  {
    flag: 'json',
    env: false,
    type: 'boolean',
    default: false,
    help: 'Print JSON: { scenarios, agents }',
  },
]);

export const SCHEMA = group(OWN_OPTIONS, [
  {
    flag: 'agent',
    env: false,
    type: 'boolean',
    default: false,
    help: 'Print the schema of agent files (*.agent.yaml) instead',
  },
  {
    flag: 'chaos',
    env: false,
    type: 'boolean',
    default: false,
    help: 'Print the schema of chaos profiles (*.chaos.yaml) instead',
  },
]);
