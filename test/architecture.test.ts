/**
 * Static checks over the text of src/: where wall-clock time, timers and unseeded randomness may
 * appear, and which layers may import what. Comments are stripped first, so documentation that
 * mentions `setTimeout` or shows an example import does not count.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cycles,
  file,
  fileEdges,
  FILES,
  importsOf,
  listSource,
  occurrences,
  reach,
  SRC,
  stripComments,
  target,
  under,
  violations,
} from './helpers/source-tree.js';

describe('the checker itself', () => {
  it('finds the source tree', () => {
    expect(FILES.length).toBeGreaterThan(30);
    for (const dir of ['engine', 'scenario', 'store', 'domain', 'runtime', 'bindings', 'cli', 'lib']) {
      expect(under(dir).length, `src/${dir}`).toBeGreaterThan(0);
    }
  });

  it('strips comments but keeps strings', () => {
    const code = stripComments(
      'const a = \'http://x\'; // Date.now()\n/* setTimeout(f) */ const b = "/*";\nconst c = `//`;',
    );
    expect(code).toContain("'http://x'");
    expect(code).toContain('"/*"');
    expect(code).toContain('`//`');
    expect(code).not.toContain('Date.now');
    expect(code).not.toContain('setTimeout');
    expect(code.split('\n')).toHaveLength(3);
  });

  it('reads static, multi-line, type-only, side-effect, re-export and dynamic imports', () => {
    const code = [
      "import express, { type Express } from 'express';",
      'import {',
      '  a,',
      '  b,',
      "} from '../store/task-store.js';",
      "import type { X } from 'ws';",
      "import 'node:http';",
      "export { y } from './y.js';",
      "export * from './z.js';",
      "const m = await import('yargs');",
    ].join('\n');
    expect(importsOf(code)).toEqual([
      { specifier: 'express', line: 1 },
      { specifier: '../store/task-store.js', line: 5 },
      { specifier: 'ws', line: 6 },
      { specifier: 'node:http', line: 7 },
      { specifier: './y.js', line: 8 },
      { specifier: './z.js', line: 9 },
      { specifier: 'yargs', line: 10 },
    ]);
  });

  it('sees real imports in src/ and ignores the example import in a doc comment', () => {
    expect(importsOf(file('admin/admin-app.ts').code).map((i) => i.specifier)).toContain('express');
    expect(importsOf(file('store/event-log.ts').code).map((i) => i.specifier)).toEqual([
      '../domain/lifecycle.js',
      '../domain/types.js',
      './kept-event.js',
    ]);
    expect(importsOf(file('index.ts').code).map((i) => i.specifier)).not.toContain('a2a-sim');
  });

  it("sets V8's heap heuristics in the command line's first import, and only there", () => {
    expect(importsOf(file('cli/main.ts').code)[0]?.specifier).toBe('./heap-tuning.js');
    const setters = FILES.filter((f) => f.code.includes('setFlagsFromString')).map((f) => f.rel);
    expect(setters).toEqual(['cli/heap-tuning.ts']);
  });
});

describe('time and randomness', () => {
  const WALL_CLOCK_AND_TIMERS = [
    { what: 'Date.now()', pattern: /\bDate\.now\s*\(/ },
    { what: 'new Date() without arguments', pattern: /\bnew\s+Date\s*\(\s*\)/ },
    { what: 'setTimeout', pattern: /\bsetTimeout\s*\(/ },
    { what: 'setInterval', pattern: /\bsetInterval\s*\(/ },
  ];

  it.each(WALL_CLOCK_AND_TIMERS)('$what appears only in src/lib/', ({ pattern }) => {
    const outside = FILES.filter((f) => !f.rel.startsWith('lib/'));
    expect(outside.flatMap((f) => occurrences(f, pattern))).toEqual([]);
  });

  it.each(WALL_CLOCK_AND_TIMERS)(
    'within src/lib/, $what appears only in clock.ts (the documented single place)',
    ({ pattern }) => {
      const others = under('lib').filter((f) => f.rel !== 'lib/clock.ts');
      expect(others.flatMap((f) => occurrences(f, pattern))).toEqual([]);
    },
  );

  it('clock.ts is where wall-clock time and the Node timer live (so the checks above can fire)', () => {
    const clock = file('lib/clock.ts');
    expect(occurrences(clock, /\bDate\.now\s*\(/)).not.toEqual([]);
    expect(occurrences(clock, /\bsetTimeout\s*\(/)).not.toEqual([]);
  });

  it('Math.random appears nowhere: all chance is seeded (src/lib/random.ts)', () => {
    expect(FILES.flatMap((f) => occurrences(f, /\bMath\.random\s*\(/))).toEqual([]);
  });
});

describe('layering', () => {
  const TRANSPORT_PACKAGES = new Set(['express', 'ws', 'node:http', 'http', 'node:https', 'https']);

  it.each(['engine', 'scenario', 'store', 'domain'])(
    'src/%s/ imports no HTTP or WebSocket package and nothing from src/bindings/',
    (layer) => {
      expect(
        violations(under(layer), (t) =>
          t.kind === 'package' ? TRANSPORT_PACKAGES.has(t.name) : t.rel.startsWith('bindings/'),
        ),
      ).toEqual([]);
    },
  );

  it('src/engine/ imports nothing from src/runtime/ or src/store/', () => {
    expect(
      violations(
        under('engine'),
        (t) => t.kind === 'src' && (t.rel.startsWith('runtime/') || t.rel.startsWith('store/')),
      ),
    ).toEqual([]);
  });

  it('the bindings take their contract from src/calls/, never from the chaos layer', () => {
    const bad = violations(under('bindings'), (t) => t.kind === 'src' && t.rel.startsWith('chaos/'));
    expect(bad).toEqual([]);
  });

  it('yargs is imported only under src/cli/', () => {
    const outside = FILES.filter((f) => !f.rel.startsWith('cli/'));
    expect(violations(outside, (t) => t.kind === 'package' && t.name === 'yargs')).toEqual([]);
    // And the CLI does use it, so the check is looking at the right name.
    expect(
      violations(under('cli'), (t) => t.kind === 'package' && t.name === 'yargs').length,
    ).toBeGreaterThan(0);
  });

  it('zod is imported as a namespace: through a named `z` the bundle kept all of zod, 40 locales with it', () => {
    const named = /import\s*\{[^}]*(?<!type )\bz\b[^}]*\}\s*from\s*'zod'/;
    expect(FILES.flatMap((f) => occurrences(f, named))).toEqual([]);
    expect(FILES.flatMap((f) => occurrences(f, /import \* as z from 'zod'/)).length).toBeGreaterThan(0);
  });

  it('every relative import resolves inside src/', () => {
    expect(violations(FILES, (t) => t.kind === 'src' && t.rel.startsWith('..'))).toEqual([]);
  });
});

describe('contracts below their users', () => {
  const isExpressOrRouter = (t: ReturnType<typeof target>) =>
    t.kind === 'package' ? t.name === 'express' : t.rel.replace(/\.js$/, '.ts') === 'admin/routes.ts';

  it('src/replica/ applies the control-plane model without the admin router or anything that imports express', () => {
    expect(violations(reach(under('replica')), isExpressOrRouter)).toEqual([]);
    // The router does import express and the replica does reach the model, so the check can fire.
    expect(violations([file('admin/routes.ts')], isExpressOrRouter).length).toBeGreaterThan(0);
    expect(reach(under('replica')).map((f) => f.rel)).toContain('admin/control-plane.ts');
  });

  it.each(['config.ts', 'testing.ts'])('src/%s reaches nothing in src/bindings/', (rel) => {
    expect(violations(reach([file(rel)]), (t) => t.kind === 'src' && t.rel.startsWith('bindings/'))).toEqual(
      [],
    );
  });
});

/**
 * STYLE.md's layer order, top to bottom; areas on one line are peers and import nothing of each
 * other. An area is a folder of src/ or a file at its root. An import may only go down.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli', 'runners'],
  ['index.ts'],
  ['testing.ts'],
  ['compose'],
  ['server.ts', 'config.ts'],
  ['config'],
  ['replica'],
  ['admin'],
  ['record'],
  ['upstream'],
  ['bindings'],
  ['verdicts'],
  ['tracing'],
  ['chaos', 'push'],
  ['calls'],
  ['runtime'],
  ['engine', 'store', 'agents'],
  ['scenario'],
  ['domain'],
  ['lib'],
];

function areaOf(rel: string): string {
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : rel;
}

describe('the shape of src/ (STYLE.md)', () => {
  it('finds cycles when there are some (so the checks below can fire)', () => {
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('has no import cycle between files', () => {
    expect(cycles(fileEdges())).toEqual([]);
  });

  it('has no import cycle between areas', () => {
    const edges = fileEdges()
      .map(([a, b]): [string, string] => [areaOf(a), areaOf(b)])
      .filter(([a, b]) => a !== b);
    expect(cycles(edges)).toEqual([]);
  });

  it('places every area in the layer order', () => {
    const placed = new Set(LAYERS.flat());
    expect([...new Set(FILES.map((f) => areaOf(f.rel)))].filter((a) => !placed.has(a))).toEqual([]);
  });

  it('imports only downward in the layer order, never between peers', () => {
    const level = new Map(LAYERS.flatMap((areas, i) => areas.map((a): [string, number] => [a, i])));
    const upward = fileEdges().filter(([a, b]) => {
      const [from, to] = [areaOf(a), areaOf(b)];
      return from !== to && !(level.get(from)! < level.get(to)!);
    });
    expect(upward.map(([a, b]) => `src/${a} imports src/${b}`)).toEqual([]);
  });

  it('keeps every source file under 400 lines (generated lists aside)', () => {
    const GENERATED = new Set(['lib/faker-methods.ts']);
    const long = listSource(SRC)
      .map((abs) => ({
        rel: path.relative(SRC, abs),
        lines: readFileSync(abs, 'utf8').split('\n').length - 1,
      }))
      .filter((f) => f.lines > 400 && !GENERATED.has(f.rel));
    expect(long).toEqual([]);
  });
});
