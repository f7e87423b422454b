/**
 * The defaults of the options, read from their rows: `ROW_DEFAULTS` as an object (the public
 * `DEFAULTS` holds it), and {@link withDefaults}, which fills them into createSimulator's options
 * (and reads the old option names still honoured).
 */
import { ALL_ROWS, type AnyRow } from './commands.js';
import type { OptionGroupName, OptionName, OptionRow, ValueOf } from './row.js';
import type { ProxyOptions, RecordOptions, SimulatorOptions } from './options.js';

/**
 * Options no row sets: objects given in code, and `record.out`, which `record --out` sets with a
 * default of its own (createSimulator requires it).
 */
type CodeOnly = 'scenarios' | 'clock' | 'logger' | 'agent' | 'http' | 'verdicts' | 'record.out';

/**
 * Every option has a row, or is an old name a row reads, or is given in code only: an option
 * without one is named by the compiler here, as a property missing from `{}`.
 */
type Unrowed = Exclude<
  OptionName,
  Extract<AnyRow, { name: string }>['name'] | Extract<AnyRow, { replaces: string }>['replaces'] | CodeOnly
>;
const everyOptionHasARow: Record<Unrowed, never> = {};
void everyOptionHasARow;

type DefaultRow = Extract<AnyRow, { name: OptionName; default: unknown }>;
type Defaulted = DefaultRow['name'];
type Top<N extends string> = N extends `${infer G}.${string}` ? G : N;
type Inside<N extends string, G extends string> = N extends `${G}.${infer K}` ? K : never;
type DefaultOf<R> = R extends { array: true } ? readonly string[] : ValueOf<R>;

/** The defaults, shaped as the options are (`push.timeout` is `push: { timeout }`), durations in ms. */
export type RowDefaults = {
  readonly [N in Defaulted as Top<N>]: N extends `${infer G}.${string}`
    ? { readonly [K in Inside<Defaulted, G>]: DefaultOf<Extract<DefaultRow, { name: `${G}.${K}` }>> }
    : DefaultOf<Extract<DefaultRow, { name: N }>>;
};

/** The groups that are there only when given: a proxy, a recording. */
const GIVEN_ONLY = ['proxy', 'record'] as const satisfies readonly OptionGroupName[];
type GivenOnly = (typeof GIVEN_ONLY)[number];

/** The options that hold options of their own (`push`), as the rows name them. */
const GROUPS = new Set(ALL_ROWS.flatMap((row) => (row.name?.includes('.') ? [row.name.split('.')[0]!] : [])));

/** `T` with the options named in `N` (`port`, `push.timeout`) always there. */
type Filled<T, N extends string> = {
  [K in Top<N> & keyof T]: K extends N
    ? NonNullable<T[K]>
    : NonNullable<T[K]> & Filled<NonNullable<T[K]>, Inside<N, K & string>>;
};

export type OptionsWithDefaults = SimulatorOptions &
  Filled<SimulatorOptions, Exclude<Defaulted, `${GivenOnly}.${string}`>> & {
    proxy?: Filled<ProxyOptions, Inside<Defaulted, 'proxy'>>;
    record?: Filled<RecordOptions, Inside<Defaulted, 'record'>>;
  };

type Holder = Record<string, unknown>;

/** Where an option lives in `options`: its holder (undefined when its group is not there) and key. */
function place(options: Holder, name: string): [Holder | undefined, string] {
  const dot = name.indexOf('.');
  if (dot < 0) return [options, name];
  return [options[name.slice(0, dot)] as Holder | undefined, name.slice(dot + 1)];
}

function defaultsOf(rows: readonly OptionRow[]): Holder {
  const defaults: Holder = {};
  for (const row of rows) {
    if (row.name === undefined || row.default === undefined) continue;
    const dot = row.name.indexOf('.');
    if (dot > 0) defaults[row.name.slice(0, dot)] ??= {};
    const [holder, key] = place(defaults, row.name);
    holder![key] = Array.isArray(row.default) ? Object.freeze([...row.default]) : row.default;
  }
  for (const value of Object.values(defaults)) if (typeof value === 'object') Object.freeze(value);
  return Object.freeze(defaults);
}

// Built from the rows that RowDefaults is computed from.
export const ROW_DEFAULTS = defaultsOf(ALL_ROWS) as RowDefaults;

/**
 * The options with every default filled in (and an old name's value under its new name), groups
 * included; a proxy and a recording only when given. Durations stay as given: `'15s'` or ms.
 * @example withDefaults({ keepAliveMs: 1000 }).keepAlive // 1000
 */
export function withDefaults(options: SimulatorOptions): OptionsWithDefaults {
  const filled: Holder = { ...options };
  for (const group of GROUPS) {
    const given = filled[group] as Holder | undefined;
    if (given !== undefined || !GIVEN_ONLY.some((g) => g === group)) filled[group] = { ...given };
  }
  for (const row of ALL_ROWS) {
    if (row.name === undefined) continue;
    const [holder, key] = place(filled, row.name);
    if (holder === undefined) continue;
    if (holder[key] === undefined && row.replaces !== undefined) {
      const [old, oldKey] = place(filled, row.replaces);
      holder[key] = old?.[oldKey];
    }
    if (holder[key] === undefined && row.default !== undefined) {
      holder[key] = Array.isArray(row.default) ? [...row.default] : row.default;
    }
  }
  // Filled from the same rows as OptionsWithDefaults says.
  return filled as unknown as OptionsWithDefaults;
}
