import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { FAKER_METHODS } from '../../src/lib/faker-methods.js';
import {
  callFaker,
  fakerMethodPaths,
  isFakerMethod,
  loadFaker,
  pickWordsWithoutCopies,
} from '../../src/lib/fake-data.js';

describe('the generated faker method list', () => {
  it('matches the installed faker (after upgrading faker: npm run faker-methods)', async () => {
    expect([...FAKER_METHODS]).toEqual(fakerMethodPaths(await loadFaker()));
  });

  it('names only methods faker can call', async () => {
    const faker = await loadFaker();
    for (const path of FAKER_METHODS) {
      const [module, method] = path.split('.') as [string, string];
      expect(typeof (faker as unknown as Record<string, Record<string, unknown>>)[module]?.[method]).toBe(
        'function',
      );
    }
  });
});

describe('isFakerMethod', () => {
  it.each([
    [['location', 'city'], true],
    [['number', 'int'], true],
    [['location', 'nowhere'], false],
    [['nowhere', 'city'], false],
    [['location', 'city', 'name'], false],
    [['definitions', 'location'], false],
    [['person', 'constructor'], false],
    [['helpers', 'toString'], false],
  ])('%j → %s', (path, expected) => {
    expect(isFakerMethod(path)).toBe(expected);
  });
});

describe('the built-in scenarios', () => {
  it('call only listed faker methods, so loading them never loads faker', () => {
    const dir = fileURLToPath(new URL('../../scenarios', import.meta.url));
    const calls = readdirSync(dir)
      .filter((name) => name.endsWith('.yaml'))
      .flatMap((name) => [...readFileSync(join(dir, name), 'utf8').matchAll(/\{\{\s*faker\.([\w.]+)/g)])
      .map((match) => match[1]!);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((path) => !FAKER_METHODS.has(path))).toEqual([]);
  });
});

describe('callFaker', () => {
  it('draws varied data from consecutive seeds: the cheap generator is no worse for fake data', async () => {
    await loadFaker();
    const sentences = Array.from({ length: 1000 }, (_, seed) =>
      callFaker(['lorem', 'sentence'], undefined, seed, 0),
    );
    const uuids = Array.from({ length: 1000 }, (_, seed) =>
      callFaker(['string', 'uuid'], undefined, seed, 0),
    );
    expect(new Set(sentences).size).toBeGreaterThan(990);
    expect(new Set(uuids).size).toBe(1000);
    expect(callFaker(['lorem', 'sentence'], undefined, 42, 0)).toBe(sentences[42]);
  });
});

describe('pickWordsWithoutCopies', () => {
  /** Calls that pick words, with each form of options faker takes. */
  const CALLS: [string, string, unknown][] = [
    ['lorem', 'word', undefined],
    ['lorem', 'word', {}],
    ['lorem', 'word', { strategy: 'any-length' }],
    ['lorem', 'word', 5],
    ['lorem', 'word', { length: { min: 3, max: 6 } }],
    ['lorem', 'word', { length: 40, strategy: 'closest' }],
    ['lorem', 'word', { strategy: 'shortest' }],
    ['lorem', 'word', { strategy: 'longest' }],
    ['lorem', 'words', 12],
    ['lorem', 'sentence', { min: 8, max: 14 }],
    ['lorem', 'paragraph', undefined],
    ['lorem', 'lines', undefined],
    ['lorem', 'slug', 4],
    ['lorem', 'text', undefined],
    ...['adjective', 'adverb', 'conjunction', 'interjection', 'noun', 'preposition', 'verb'].flatMap(
      (method): [string, string, unknown][] => [
        ['word', method, undefined],
        ['word', method, { length: { min: 4, max: 8 } }],
        ['word', method, { strategy: 'longest' }],
      ],
    ),
    ['word', 'sample', undefined],
    ['word', 'words', { count: 6 }],
  ];

  it('gives the same words as faker for the same seed, whatever the options', async () => {
    const { faker } = await import('@faker-js/faker/locale/en');
    const Faker = faker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
    const pristine = new Faker({ locale: faker.rawDefinitions });
    const picking = pickWordsWithoutCopies(new Faker({ locale: faker.rawDefinitions }));
    const call = (f: Faker, [module, method, options]: [string, string, unknown]) =>
      (f as unknown as Record<string, Record<string, (o?: unknown) => string>>)[module]![method]!(options);
    let compared = 0;
    for (let seed = 0; seed < 200; seed++) {
      for (const spec of CALLS) {
        pristine.seed(seed);
        picking.seed(seed);
        expect(call(picking, spec), `${spec[0]}.${spec[1]}(${JSON.stringify(spec[2])}), seed ${seed}`).toBe(
          call(pristine, spec),
        );
        compared++;
      }
    }
    expect(compared).toBe(200 * CALLS.length);
  });

  it('reads one word of the list a word, where faker reads the whole list', async () => {
    const { faker } = await import('@faker-js/faker/locale/en');
    const Faker = faker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
    const raw = faker.rawDefinitions;
    /** A faker whose lorem words count the words read from them. */
    const counting = () => {
      const reads = { words: 0 };
      const list = new Proxy([...raw.lorem!.word!], {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads.words++;
          return Reflect.get(target, key, receiver);
        },
      });
      const locale = { ...raw, lorem: { ...raw.lorem, word: list } } as Faker['rawDefinitions'];
      return { faker: new Faker({ locale }), reads };
    };
    const pristine = counting();
    const picking = counting();
    pickWordsWithoutCopies(picking.faker);
    for (const { faker: f } of [pristine, picking]) {
      f.seed(7);
      f.lorem.sentence({ min: 8, max: 14 });
    }
    expect(pristine.reads.words).toBeGreaterThanOrEqual(8 * raw.lorem!.word!.length);
    expect(picking.reads.words).toBeGreaterThanOrEqual(8);
    expect(picking.reads.words).toBeLessThanOrEqual(14);
  });

  it('is what loadFaker hands the simulator: its words are picked from the list itself, not a copy', async () => {
    const loaded = await loadFaker();
    const { helpers } = loaded;
    const pick = helpers.arrayElement;
    const lists: unknown[] = [];
    helpers.arrayElement = ((list: readonly unknown[]) => {
      lists.push(list);
      return pick.call(helpers, list);
    }) as typeof pick;
    try {
      loaded.lorem.word();
      loaded.word.noun();
    } finally {
      helpers.arrayElement = pick;
    }
    expect(lists).toHaveLength(2);
    expect(lists[0]).toBe(loaded.rawDefinitions.lorem!.word);
    expect(lists[1]).toBe(loaded.rawDefinitions.word!.noun);
  });

  it('leaves a method whose list the locale lacks to faker', async () => {
    const { faker } = await import('@faker-js/faker/locale/en');
    const Faker = faker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
    const { word: _word, ...withoutWords } = faker.rawDefinitions;
    const f = pickWordsWithoutCopies(new Faker({ locale: withoutWords as Faker['rawDefinitions'] }));
    expect(f.lorem.word()).toMatch(/^\w+$/);
    expect(() => f.word.noun()).toThrow(/word\.noun/);
  });
});
