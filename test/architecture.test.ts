/**
 * Static checks over the text of src/: where wall-clock time, timers and unseeded randomness may
 * appear, and which layers may import what. Comments are stripped first, so documentation that
 * mentions `setTimeout` or shows an example import does not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

interface SourceFile {
  /** Relative to src/, with forward slashes, e.g. `engine/plan.ts`. */
  rel: string;
  abs: string;
  /** The file text with comments blanked out (line breaks kept, so line numbers still match). */
  code: string;
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTs(abs);
    return entry.isFile() && entry.name.endsWith('.ts') ? [abs] : [];
  });
}

/**
 * Blanks out `//` and `/* *\/` comments, leaving string and template literals alone. Quoted strings
 * end at a line break at the latest, so a quote inside a regular expression literal cannot swallow
 * more than the rest of its line.
 */
function stripComments(text: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && (c === '`' || text[j] !== '\n'))
        j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Every module specifier a file imports or re-exports, statically or dynamically, with its line. */
function importsOf(code: string): { specifier: string; line: number }[] {
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*\s{},$]*?)\s*from\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
  ];
  const found: { specifier: string; line: number; index: number }[] = [];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const index = match.index + match[0].lastIndexOf(match[1]!);
      found.push({ specifier: match[1]!, line: code.slice(0, index).split('\n').length, index });
    }
  }
  return found.sort((a, b) => a.index - b.index).map(({ specifier, line }) => ({ specifier, line }));
}

const FILES: SourceFile[] = listTs(SRC).map((abs) => ({
  abs,
  rel: path.relative(SRC, abs).split(path.sep).join('/'),
  code: stripComments(readFileSync(abs, 'utf8')),
}));

function file(rel: string): SourceFile {
  const found = FILES.find((f) => f.rel === rel);
  if (!found) throw new Error(`src/${rel} not found`);
  return found;
}

function under(dir: string): SourceFile[] {
  return FILES.filter((f) => f.rel.startsWith(`${dir}/`));
}

/** `src/<rel>:<line> <text>` for each line of `f` that matches `pattern`. */
function occurrences(f: SourceFile, pattern: RegExp): string[] {
  return f.code
    .split('\n')
    .flatMap((line, i) => (pattern.test(line) ? [`src/${f.rel}:${i + 1} ${line.trim()}`] : []));
}

/** Where a specifier points: a path inside src/ for relative imports, the package name otherwise. */
function target(
  f: SourceFile,
  specifier: string,
): { kind: 'src'; rel: string } | { kind: 'package'; name: string } {
  if (specifier.startsWith('.')) {
    const abs = path.resolve(path.dirname(f.abs), specifier);
    return { kind: 'src', rel: path.relative(SRC, abs).split(path.sep).join('/') };
  }
  const [first, second] = specifier.split('/');
  return { kind: 'package', name: first!.startsWith('@') ? `${first}/${second}` : first! };
}

/** `src/<file>:<line> imports '<specifier>'` for each import of `files` that `forbidden` flags. */
function violations(
  files: readonly SourceFile[],
  forbidden: (t: ReturnType<typeof target>, specifier: string) => boolean,
): string[] {
  return files.flatMap((f) =>
    importsOf(f.code)
      .filter(({ specifier }) => forbidden(target(f, specifier), specifier))
      .map(({ specifier, line }) => `src/${f.rel}:${line} imports '${specifier}'`),
  );
}

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
      '../domain/types.js',
    ]);
    expect(importsOf(file('index.ts').code).map((i) => i.specifier)).not.toContain('a2a-sim');
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

  it('every relative import resolves inside src/', () => {
    expect(violations(FILES, (t) => t.kind === 'src' && t.rel.startsWith('..'))).toEqual([]);
  });
});

/** `files` and every file of src/ they reach through their imports, type-only ones included. */
function reach(files: readonly SourceFile[]): SourceFile[] {
  const reached = new Map(files.map((f) => [f.rel, f]));
  const queue = [...files];
  for (let f = queue.pop(); f; f = queue.pop()) {
    for (const { specifier } of importsOf(f.code)) {
      const t = target(f, specifier);
      const next = t.kind === 'src' ? FILES.find((g) => g.rel === t.rel.replace(/\.js$/, '.ts')) : undefined;
      if (next && !reached.has(next.rel)) {
        reached.set(next.rel, next);
        queue.push(next);
      }
    }
  }
  return [...reached.values()];
}

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

/** Every import between files of src/, as `from -> to` (relative paths, `.js` read as `.ts`). */
function fileEdges(): [string, string][] {
  return FILES.flatMap((f) =>
    importsOf(f.code).flatMap(({ specifier }): [string, string][] => {
      const t = target(f, specifier);
      return t.kind === 'src' ? [[f.rel, t.rel.replace(/\.js$/, '.ts')]] : [];
    }),
  );
}

/** The strongly connected parts of a graph with more than one node, or with an edge to itself. */
function cycles(edges: readonly [string, string][]): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (next.get(node) ?? []).includes(node)) found.push(part.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
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

/** The .ts and .js files of a tree: the dashboard's native modules count too. */
function listSource(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSource(abs);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [abs] : [];
  });
}
