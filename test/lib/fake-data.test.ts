import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAKER_METHODS } from '../../src/lib/faker-methods.js';
import { callFaker, fakerMethodPaths, isFakerMethod, loadFaker } from '../../src/lib/fake-data.js';

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
