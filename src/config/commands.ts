/**
 * Which options each command takes, group by group, in the order `--help` and docs/cli.md show
 * them. A group shared by commands (`SERVER_GROUPS`: `serve` and `record`) is listed once here.
 */
import { EXAM, LIST, PROXY, RECORDING, REPLAY, SCHEMA, UPSTREAM } from './command-rows.js';
import { BEHAVIOUR, CHAOS, CONTROL_PLANE, SCENARIOS, SECURITY, SERVER } from './server-rows.js';
import type { OptionRow } from './row.js';
import { PUSH, RETENTION } from './task-rows.js';

export { EXAM, LIST, PROXY, RECORDING, REPLAY, SCENARIOS, SCHEMA, UPSTREAM };

/** What a serving simulator takes, whichever command serves it. */
export const SERVER_GROUPS = [
  SCENARIOS,
  SERVER,
  BEHAVIOUR,
  CHAOS,
  CONTROL_PLANE,
  SECURITY,
  RETENTION,
  PUSH,
] as const;

/** `record` reaches its agent as `serve --proxy` does, under its own heading. */
const RECORDING_UPSTREAM = { ...UPSTREAM, title: RECORDING.title };

/** A command's own options come first, the ones it shares with `serve` after them. */
export const COMMANDS = {
  serve: [...SERVER_GROUPS, PROXY, UPSTREAM],
  record: [RECORDING, RECORDING_UPSTREAM, ...SERVER_GROUPS],
  exam: [EXAM, SCENARIOS],
  replay: [REPLAY, SCENARIOS],
  list: [LIST, SCENARIOS],
  schema: [SCHEMA],
  validate: [],
} as const;

export type CommandName = keyof typeof COMMANDS;

/**
 * What each command's `--help` shows it doing: the command line (`$0` is `a2a-sim`; up to 55
 * characters, where yargs wraps it), then what it does.
 */
export const EXAMPLES: Record<CommandName, readonly [command: string, description: string]> = {
  serve: [
    '$0 serve --port 0 --speed 0 -s ./my-scenarios',
    'Serve your scenarios before the built-ins, on any free port, without delays',
  ],
  record: [
    '$0 record --target http://localhost:9999',
    'Record a real agent into ./recorded until Ctrl-C (or until the client command after -- ends)',
  ],
  exam: ['$0 exam --junit verdicts.xml -- npm run e2e', 'Judge a client under chaos, rule by rule, in CI'],
  replay: ['$0 replay "Book me a flight" --then "Oslo-Rome"', 'Print what a conversation would play'],
  list: ['$0 list -s ./my-scenarios', 'Show which scenario answers what, yours first'],
  schema: [
    '$0 schema --chaos > chaos.schema.json',
    'Write the JSON Schema of chaos profiles, for your editor',
  ],
  validate: ['$0 validate ./my-scenarios', 'Check every scenario, agent and chaos file in a directory'],
};

/** Every row of every command, as a union of their literal types. */
export type AnyRow = (typeof COMMANDS)[CommandName][number]['rows'][number];

/** Every row of every command, each once. */
export const ALL_ROWS: readonly OptionRow[] = [
  ...new Set(
    Object.values(COMMANDS).flatMap((groups) => groups.flatMap((g): readonly OptionRow[] => g.rows)),
  ),
];
