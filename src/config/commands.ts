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

export const COMMANDS = {
  serve: [...SERVER_GROUPS, PROXY, UPSTREAM],
  record: [...SERVER_GROUPS, RECORDING, RECORDING_UPSTREAM],
  exam: [SCENARIOS, EXAM],
  replay: [SCENARIOS, REPLAY],
  list: [SCENARIOS, LIST],
  schema: [SCHEMA],
  validate: [],
} as const;

export type CommandName = keyof typeof COMMANDS;

/** Every row of every command, as a union of their literal types. */
export type AnyRow = (typeof COMMANDS)[CommandName][number]['rows'][number];

/** Every row of every command, each once. */
export const ALL_ROWS: readonly OptionRow[] = [
  ...new Set(
    Object.values(COMMANDS).flatMap((groups) => groups.flatMap((g): readonly OptionRow[] => g.rows)),
  ),
];
