/**
 * The commands' flags, made from the option rows (config/): each row is a yargs option (its
 * default from the row, shown as flags write it; every valued flag needs its value; a value that
 * does not parse is refused with what was given, before anything starts), and each row with a
 * variable reads `A2A_SIM_<FLAG>` (or an old spelling's). A flag wins over its variable, which
 * wins over the default.
 */
import type { Argv, Options } from 'yargs';
import { ALL_ROWS } from '../config/commands.js';
import type { SimulatorOptions } from '../config/options.js';
import { camelCase, envNamesOf, type ArgsOf, type OptionGroup, type OptionRow } from '../config/row.js';
import { formatBytes } from '../lib/bytes.js';
import { formatDuration } from '../lib/duration.js';
import { parserOf } from './values.js';

type RowsOf<G extends readonly OptionGroup[]> = G[number]['rows'][number];

/**
 * Declares the flags of these groups, in order, with the values their variables give.
 * @note The variables reach yargs as a config object, not through `.env('A2A_SIM')`, which reads
 * every A2A_SIM_* name as a flag of whatever command runs (`A2A_SIM_JSON`, `A2A_SIM_S`,
 * `A2A_SIM_HELP`) and refuses one the command does not take. A config object ranks below flags and
 * above defaults, and is parsed, coerced and checked as flags are. A yargs config file, were one
 * added, would rank above it: to keep flags > variables > file > defaults, merge the file's values
 * into this object under the variables' instead.
 * @example withOptions(yargs, COMMANDS.list).parseSync().scenarioDirs
 */
export function withOptions<T, const G extends readonly OptionGroup[]>(
  yargs: Argv<T>,
  groups: G,
): Argv<T & ArgsOf<RowsOf<G>>> {
  for (const { title, rows } of groups) {
    for (const row of rows) yargs.option(row.flag, yargsOption(row, title));
  }
  // Each value is what the row's parser made of it (values.ts), of the type ArgsOf says.
  return yargs.config(fromEnvironment(groups)) as unknown as Argv<T & ArgsOf<RowsOf<G>>>;
}

function yargsOption(row: OptionRow, title: string): Options {
  const aliases = [...(row.short ? [row.short] : []), ...(row.aliases ?? [])];
  const defaultText = row.default === undefined && row.defaultText ? ` [default: ${row.defaultText}]` : '';
  return {
    ...(aliases.length && { alias: aliases }),
    ...(yargsType(row) && { type: yargsType(row) }),
    ...((row.array || row.type === 'api-keys' || row.type === 'headers') && { array: true }),
    ...(row.type !== 'boolean' && { requiresArg: true }),
    ...(row.choices && { choices: row.choices }),
    ...(parserOf(row) && { coerce: parserOf(row) }),
    ...(row.default !== undefined && { default: shownDefault(row) }),
    describe: `${row.help}${defaultText}`,
    // Headings show in the order they are first named: naming the command's own one (yargs'
    // "Options:") puts its options before the groups it shares, and --help and --version after them.
    group: `${title}:`,
  };
}

/** Numbers, durations and sizes are read from what was typed (values.ts), not as yargs numbers. */
function yargsType(row: OptionRow): 'string' | 'boolean' | undefined {
  if (row.type === 'boolean') return 'boolean';
  return row.type === 'number' || row.type === 'duration' || row.type === 'size' ? undefined : 'string';
}

/** A default as `--help` shows it and the parser reads it back: `15s`, `4MiB`. */
function shownDefault(row: OptionRow): unknown {
  const value = row.default;
  if (typeof value === 'number' && row.type === 'duration') return formatDuration(value);
  if (typeof value === 'number' && row.type === 'size') return formatBytes(value);
  return Array.isArray(value) ? [...value] : value;
}

/** The values the environment gives these rows, by flag: a row's own variable before an old spelling's. */
function fromEnvironment(groups: readonly OptionGroup[], env = process.env): Record<string, string> {
  const values: Record<string, string> = {};
  for (const row of groups.flatMap((g) => g.rows)) {
    const variable = envNamesOf(row).find((name) => env[name] !== undefined);
    if (variable !== undefined) values[row.flag] = env[variable]!;
  }
  return values;
}

/** The A2A_SIM_* variables set that no option reads, in any command. */
export function unknownVariables(env = process.env): string[] {
  const known = new Set(ALL_ROWS.flatMap(envNamesOf));
  return Object.keys(env).filter((name) => name.startsWith('A2A_SIM_') && !known.has(name));
}

/**
 * createSimulator's options as these groups' flags give them: each row's value under its option's
 * name (`--push-timeout` as `push.timeout`), groups made as needed; flags not given are left out.
 */
export function simulatorOptions(argv: object, groups: readonly OptionGroup[]): SimulatorOptions {
  const values = argv as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  for (const { rows } of groups) {
    for (const row of rows) {
      const value = values[camelCase(row.flag)];
      if (row.name === undefined || value === undefined) continue;
      const [group, key] = row.name.split('.') as [string, string | undefined];
      if (key === undefined) options[group] = value;
      else ((options[group] ??= {}) as Record<string, unknown>)[key] = value;
    }
  }
  // Each value is of its option's type: the rows are checked against SimulatorOptions (config/row.ts).
  return options as SimulatorOptions;
}

/** What the server's flags cannot mean together, refused before anything starts. */
export function checkServerArgs(argv: {
  publicUrl?: string | undefined;
  builtinScenarios: boolean;
  scenarioDirs: string[];
}): true {
  if (argv.publicUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(argv.publicUrl)) {
    throw new Error(`--public-url must be an http(s) URL, got ${argv.publicUrl}`);
  }
  if (!argv.builtinScenarios && argv.scenarioDirs.length === 0) {
    throw new Error(
      '--no-builtin-scenarios leaves nothing to serve: add your scenarios with -s DIR, or keep the built-ins',
    );
  }
  return true;
}
