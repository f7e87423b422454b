/**
 * What a refused command line names that no command or option of ours is, with the nearest name
 * (`--prot` → `--port`), as yargs' "Unknown argument: prot" does not say. Read from the words as
 * typed, against the option rows, so the message does not hang on yargs' wording or locale.
 */
import { COMMANDS, type CommandName } from '../config/commands.js';
import { camelCase, type OptionRow } from '../config/row.js';
import { closestName } from '../lib/spelling.js';

const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

/** Flags yargs adds to every command. */
const BUILT_IN_FLAGS = ['help', 'version'];

function isCommand(word: string): word is CommandName {
  return (COMMAND_NAMES as string[]).includes(word);
}

/** The command these words run: the first word when it names one, else `serve`, the default. */
export function commandOf(args: readonly string[]): CommandName {
  const [first] = args;
  return first !== undefined && isCommand(first) ? first : 'serve';
}

function rowsOf(command: CommandName): OptionRow[] {
  return COMMANDS[command].flatMap((g): readonly OptionRow[] => g.rows);
}

/** Every spelling yargs reads as one of these rows: flags, old spellings, camel case, one letter. */
function spellings(rows: readonly OptionRow[]): Set<string> {
  const long = [...BUILT_IN_FLAGS, ...rows.flatMap((r) => [r.flag, ...(r.aliases ?? [])])];
  return new Set([...long, ...long.map(camelCase), 'h', ...rows.flatMap((r) => (r.short ? [r.short] : []))]);
}

/**
 * One line per word that names nothing, each with the closest name where one is near:
 * "Unknown option --prot. Did you mean --port?", "Unknown command valdate. Did you mean validate?".
 * A flag another command takes says which. Empty when every word is known: the refusal is then
 * about something else (a value, a missing argument), which yargs' message says.
 * @example unknownWords(['serve', '--prot', '4000']) // ['Unknown option --prot. Did you mean --port?']
 */
export function unknownWords(args: readonly string[]): string[] {
  // What follows `--` is the client command of `record` and `exam`, not ours to judge.
  const end = args.indexOf('--');
  const own = end < 0 ? args : args.slice(0, end);
  const lines: string[] = [];
  const [first] = own;
  let command = commandOf(own);
  if (first !== undefined && !first.startsWith('-') && !isCommand(first)) {
    const near = closestName(first, COMMAND_NAMES);
    lines.push(
      near !== undefined
        ? unknown('command', first, near)
        : `Unknown command ${first}. The commands are ${COMMAND_NAMES.join(', ')}.`,
    );
    // Its options are judged as those of the command it was meant to be.
    if (near !== undefined && isCommand(near)) command = near;
  }
  const known = spellings(rowsOf(command));
  for (const word of own) {
    const name = flagName(word);
    if (name === undefined || known.has(name) || known.has(name.replace(/^no-/, ''))) continue;
    lines.push(unknown('option', word.split('=')[0]!, suggestion(name, command)));
  }
  return [...new Set(lines)];
}

/** The name in `--name`, `--name=value` or `-n` (for `-abc`, the first letter); none in a value. */
function flagName(word: string): string | undefined {
  const long = /^--([^=]+)/.exec(word);
  if (long) return long[1];
  // `-5` is a value (a negative number), `-` alone stands for stdin.
  const short = /^-([A-Za-z])/.exec(word);
  return short?.[1];
}

/**
 * The flag of this command nearest to `name` (`--no-` kept), else the command that takes `name`
 * (`a2a-sim record --target`). A single letter is too short to guess from.
 */
function suggestion(name: string, command: CommandName): string | undefined {
  if (name.length === 1) return undefined;
  const negated = name.startsWith('no-');
  const bare = negated ? name.slice(3) : name;
  const near = closestName(bare, [...BUILT_IN_FLAGS, ...rowsOf(command).map((r) => r.flag)]);
  if (near !== undefined) return `--${negated ? 'no-' : ''}${near}`;
  const other = COMMAND_NAMES.find((c) => c !== command && spellings(rowsOf(c)).has(bare));
  return other && `a2a-sim ${other} --${name}`;
}

function unknown(kind: 'command' | 'option', typed: string, suggestion: string | undefined): string {
  return `Unknown ${kind} ${typed}.${suggestion ? ` Did you mean ${suggestion}?` : ''}`;
}
