/**
 * The shape of an option row: one option of the simulator (or one flag of a command), declared
 * once as data. The CLI builds its flags and reads its variables from rows, the resolver applies
 * their defaults, and docs/cli.md's tables are written from them (`npm run docs:cli`).
 *
 * A row's `name` says where it lands in {@link SimulatorOptions}; its type is checked against that
 * option's type here, at compile time: a row for `port` must read a number, one for `cardFormat`
 * must offer exactly the card formats as choices.
 */
import type { SimulatorOptions } from './options.js';

/** What each type of value reads into; cli/values.ts reads flags and variables accordingly. */
export interface ValueTypes {
  string: string;
  boolean: boolean;
  /** A number, within `integer`, `min` and `max`. */
  number: number;
  /** `500ms`, `15s`, `24h` or milliseconds, read as milliseconds (at least `min`). */
  duration: number;
  /** `512KiB`, `4MiB` or bytes, read as bytes. */
  size: number;
  /** An ISO 8601 date and time, read as epoch milliseconds. */
  instant: number;
  /** `KEY[=WS1,WS2]`, repeatable: API key → the workspaces it may use. */
  'api-keys': Record<string, string[]>;
  /** `Name: value`, repeatable. */
  headers: Record<string, string>;
}

export type ValueType = keyof ValueTypes;

/** What every row says, whatever it reads. */
interface RowText {
  /** The flag, kebab case, without dashes: `push-max-attempts`. */
  flag: string;
  /** A one-letter flag for it: `p` is `-p`. */
  short?: string;
  /**
   * Old spellings, still read (deprecated): each works as a flag, and as a variable when the row
   * has one (`max-events` is `--max-events` and `A2A_SIM_MAX_EVENTS`).
   */
  aliases?: readonly string[];
  /**
   * Whether `A2A_SIM_<FLAG>` sets it. Options of the simulator have a variable; flags that say
   * what one command does (`--json`, `--out`, `--target`) have none.
   */
  env: boolean;
  /**
   * A variable other tools read too, read before `A2A_SIM_<FLAG>` and shown in its place
   * (`OTEL_EXPORTER_OTLP_ENDPOINT`, as every OpenTelemetry exporter reads it).
   */
  standardEnv?: string;
  /** The value's placeholder in docs/cli.md: `N`, `DIR`, `URL`. Default: from its type. */
  arg?: string;
  /** The line in `--help`. */
  help: string;
  /** The line in docs/cli.md, where it says more than the help (markdown). Default: the help. */
  doc?: string;
  /** What happens when it is not given, where that is no value: `from the request`. */
  defaultText?: string;
  /** For numbers: whole numbers only. */
  integer?: true;
  /** For numbers and durations (ms). */
  min?: number;
  /** For numbers. */
  max?: number;
}

/** The options of createSimulator that hold options of their own, each a row. */
export type OptionGroupName = 'retention' | 'push' | 'proxy' | 'record';

type KeysOf<T> = Exclude<keyof NonNullable<T>, symbol | number>;

/** Every option a row can set: `port`, or `push.maxAttempts` inside a group. */
export type OptionName =
  | Exclude<keyof SimulatorOptions, OptionGroupName>
  | { [G in OptionGroupName]: `${G}.${KeysOf<SimulatorOptions[G]>}` }[OptionGroupName];

/** The type createSimulator takes for an option, `undefined` aside. */
export type OptionType<N extends OptionName> = NonNullable<
  N extends `${infer G extends OptionGroupName}.${infer K}`
    ? NonNullable<SimulatorOptions[G]>[K & keyof NonNullable<SimulatorOptions[G]>]
    : SimulatorOptions[N & keyof SimulatorOptions]
>;

/** How a row may read a value of type `V`: a type whose values `V` takes, or choices of `V`. */
type ValueShape<V> =
  | {
      [T in ValueType]: ValueTypes[T] extends V
        ? { type: T; array?: false; choices?: never; default?: ValueTypes[T] }
        : never;
    }[ValueType]
  | (string[] extends V
      ? { type: 'string'; array: true; choices?: never; default?: readonly string[] }
      : never)
  | ([V] extends [readonly (infer E)[]]
      ? [E] extends [string]
        ? string extends E
          ? never
          : { type: 'string'; array: true; choices: readonly E[]; default?: readonly E[] }
        : never
      : never)
  | ([V] extends [string]
      ? string extends V
        ? never
        : { type: 'string'; array?: false; choices: readonly V[]; default?: V }
      : never);

/** A row for an option of the simulator: its default is the option's, wherever it is read. */
type OptionRowFor<N extends OptionName> = RowText & {
  name: N;
  /** The option's old name, still read when `name` is not given (deprecated). */
  replaces?: OptionName;
} & ValueShape<OptionType<N>>;

/** A row for a flag that only steers its command (`--json`, `--out`): it sets no option. */
type CommandRow = RowText & { name?: never; replaces?: never } & (
    | { [T in ValueType]: { type: T; array?: false; choices?: never; default?: ValueTypes[T] } }[ValueType]
    | { type: 'string'; array: true; choices?: never; default?: readonly string[] }
    | { type: 'string'; array?: false; choices: readonly string[]; default?: string }
  );

export type OptionRow = { [N in OptionName]: OptionRowFor<N> }[OptionName] | CommandRow;

/** What a row reads: its choices, a list of strings, or its type's value. */
export type ValueOf<R> = R extends { choices: readonly (infer C)[]; array: true }
  ? C[]
  : R extends { choices: readonly (infer C)[] }
    ? C
    : R extends { array: true }
      ? string[]
      : R extends { type: infer T extends ValueType }
        ? ValueTypes[T]
        : never;

/** The heading of a command's own options: the one yargs puts its `--help` and `--version` under. */
export const OWN_OPTIONS = 'Options';

/** Rows under one heading of `--help` and docs/cli.md. */
export interface OptionGroup<R extends OptionRow = OptionRow> {
  title: string;
  rows: readonly R[];
}

/** One row, checked against its option's type, its literal type kept (for rows used in several groups). */
export function row<const R extends OptionRow>(definition: R): R {
  return definition;
}

/** A group of rows, each checked against its option's type; their literal types are kept for the CLI. */
export function group<const R extends readonly OptionRow[]>(title: string, rows: R): OptionGroup<R[number]> {
  return { title, rows };
}

/** `push-max-attempts` → `pushMaxAttempts`, as yargs names a flag's value. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** The parsed values of these rows, by camel-cased flag; a row without a default may be absent. */
export type ArgsOf<R extends OptionRow> = {
  [Row in R as CamelCase<Row['flag']>]: Row extends { default: unknown }
    ? ValueOf<Row>
    : ValueOf<Row> | undefined;
};

export function camelCase(flag: string): string {
  return flag.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
}

/** `push-max-attempts` → `A2A_SIM_PUSH_MAX_ATTEMPTS`. */
export function envName(flag: string): string {
  return `A2A_SIM_${flag.replace(/-/g, '_').toUpperCase()}`;
}

/** The variables that set a row: its own, then its old spellings'. None when it has no variable. */
export function envNamesOf(row: OptionRow): string[] {
  if (!row.env) return [];
  return [...(row.standardEnv ? [row.standardEnv] : []), ...[row.flag, ...(row.aliases ?? [])].map(envName)];
}
