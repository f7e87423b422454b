/**
 * Seeded fake data from @faker-js/faker, loaded on first use: it is the heaviest import we have, and
 * a simulator whose scenarios never ask for fake data should not pay for it at startup.
 */
import type { Faker, Randomizer } from '@faker-js/faker';
import { FAKER_METHODS } from './faker-methods.js';

let loading: Promise<Faker> | undefined;
let loaded: Faker | undefined;

/**
 * Faker's own generator is a Mersenne Twister: seeding it fills 624 words and the first draw
 * twists them all, some 15 µs before a single word of text, for every template call (each call is
 * seeded, so the same seed gives the same text). A 32-bit mulberry generator seeds in one step and
 * draws as well as fake data needs.
 */
function mulberry32(): Randomizer {
  let state = 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
    },
    seed(seed) {
      state = typeof seed === 'number' ? seed | 0 : seed.reduce((a, b) => Math.imul(a, 31) + b, 0) | 0;
    },
  };
}

export function loadFaker(): Promise<Faker> {
  // The English build alone: the package root also loads every other locale, five times the cost.
  loading ??= import('@faker-js/faker/locale/en').then(({ faker }) => {
    const WithRandomizer = faker.constructor as new (options: {
      locale: Faker['rawDefinitions'];
      randomizer: Randomizer;
    }) => Faker;
    const seeded = new WithRandomizer({ locale: faker.rawDefinitions, randomizer: mulberry32() });
    return (loaded = pickWordsWithoutCopies(seeded));
  });
  return loading;
}

/** The word methods that pick one word from `definitions.<module>.<method>`, by module. */
const WORD_PICKS = {
  lorem: ['word'],
  word: ['adjective', 'adverb', 'conjunction', 'interjection', 'noun', 'preposition', 'verb'],
} as const;

/**
 * Faker's word methods copy their whole word list (up to 1,000 words) before picking one word from
 * it when no length is asked for: a `lorem.sentence` of ten words made ten copies, half of what it
 * allocated, on every chunk of every stream that streams fake text. Here those calls pick from the
 * list itself, with the same single draw, so the same seed gives the same word (a test compares the
 * two); a call with a length or a `shortest`/`longest` strategy still goes to faker's own method.
 */
export function pickWordsWithoutCopies(faker: Faker): Faker {
  const modules = faker as unknown as Record<string, Record<string, unknown>>;
  // The raw lists, which `definitions` hands out too: reading a missing one there throws.
  const lists = faker.rawDefinitions as unknown as Record<
    string,
    Record<string, readonly string[]> | undefined
  >;
  for (const [module, methods] of Object.entries(WORD_PICKS)) {
    const owner = modules[module]!;
    for (const method of methods) {
      const own = owner[method] as (options?: unknown) => string;
      const list = lists[module]?.[method];
      if (!list) continue; // a locale without this list: faker's own method says so
      owner[method] = (options?: unknown) =>
        options === undefined || (typeof options === 'object' && options !== null && copiesTheList(options))
          ? faker.helpers.arrayElement(list)
          : own.call(owner, options);
    }
  }
  return faker;
}

const copiesTheList = (options: { length?: unknown; strategy?: unknown }) =>
  options.length == null && options.strategy !== 'shortest' && options.strategy !== 'longest';

function resolve(faker: Faker, path: readonly string[]): { owner: object; fn: unknown } {
  let owner: unknown = faker;
  for (const key of path.slice(0, -1)) {
    owner = owner !== null && typeof owner === 'object' ? (owner as Record<string, unknown>)[key] : undefined;
  }
  const fn =
    owner !== null && typeof owner === 'object'
      ? (owner as Record<string, unknown>)[path[path.length - 1]!]
      : undefined;
  return { owner: owner as object, fn };
}

/**
 * True when `faker.<path>` names a method, e.g. `['location', 'city']`: one of the generated
 * {@link FAKER_METHODS}, which a test keeps equal to the installed faker's, so checking scenarios at
 * startup never loads faker. What is not a module's own method (`person.constructor`) is refused.
 */
export function isFakerMethod(path: readonly string[]): boolean {
  return FAKER_METHODS.has(path.join('.'));
}

/**
 * Every `<module>.<method>` of `faker`, sorted: what src/lib/faker-methods.ts lists.
 * @example fakerMethodPaths(await loadFaker()) // ['airline.aircraftType', 'airline.airline', ...]
 */
export function fakerMethodPaths(faker: Faker): string[] {
  const paths = new Set<string>();
  for (const [module, value] of Object.entries(faker)) {
    if (value === null || typeof value !== 'object') continue;
    // Modules carry their methods both bound on the instance and on the class.
    const names = new Set(Object.keys(value));
    for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype;) {
      for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
      proto = Object.getPrototypeOf(proto);
    }
    for (const name of names) {
      const fn: unknown = (value as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof fn === 'function') paths.add(`${module}.${name}`);
    }
  }
  return [...paths].sort();
}

/**
 * Calls `faker.<path>(options)` with faker seeded from `seed` and its notion of "now" pinned to
 * `nowMs`, so dates like `faker.date.soon` are reproducible too. Requires {@link loadFaker} first.
 */
export function callFaker(
  path: readonly string[],
  options: object | undefined,
  seed: number,
  nowMs: number,
): unknown {
  if (!loaded)
    throw new Error('Failed to generate fake data: faker is not loaded yet; await loadFaker() first.');
  loaded.seed(seed);
  loaded.setDefaultRefDate(nowMs);
  const { owner, fn } = resolve(loaded, path);
  return (fn as (options?: object) => unknown).call(owner, options);
}
