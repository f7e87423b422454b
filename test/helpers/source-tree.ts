/**
 * The text of src/ as the architecture checks read it: each file with its comments blanked out, the
 * imports it makes (static, dynamic, type-only), where each points, and the graph they form.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

export interface SourceFile {
  /** Relative to src/, with forward slashes, e.g. `engine/plan.ts`. */
  rel: string;
  abs: string;
  /** The file text with comments blanked out (line breaks kept, so line numbers still match). */
  code: string;
}

export function listTs(dir: string): string[] {
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
export function stripComments(text: string): string {
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
export function importsOf(code: string): { specifier: string; line: number }[] {
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

export const FILES: SourceFile[] = listTs(SRC).map((abs) => ({
  abs,
  rel: path.relative(SRC, abs).split(path.sep).join('/'),
  code: stripComments(readFileSync(abs, 'utf8')),
}));

export function file(rel: string): SourceFile {
  const found = FILES.find((f) => f.rel === rel);
  if (!found) throw new Error(`src/${rel} not found`);
  return found;
}

export function under(dir: string): SourceFile[] {
  return FILES.filter((f) => f.rel.startsWith(`${dir}/`));
}

/** `src/<rel>:<line> <text>` for each line of `f` that matches `pattern`. */
export function occurrences(f: SourceFile, pattern: RegExp): string[] {
  return f.code
    .split('\n')
    .flatMap((line, i) => (pattern.test(line) ? [`src/${f.rel}:${i + 1} ${line.trim()}`] : []));
}

/** Where a specifier points: a path inside src/ for relative imports, the package name otherwise. */
export function target(
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
export function violations(
  files: readonly SourceFile[],
  forbidden: (t: ReturnType<typeof target>, specifier: string) => boolean,
): string[] {
  return files.flatMap((f) =>
    importsOf(f.code)
      .filter(({ specifier }) => forbidden(target(f, specifier), specifier))
      .map(({ specifier, line }) => `src/${f.rel}:${line} imports '${specifier}'`),
  );
}

/** `files` and every file of src/ they reach through their imports, type-only ones included. */
export function reach(files: readonly SourceFile[]): SourceFile[] {
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

/** Every import between files of src/, as `from -> to` (relative paths, `.js` read as `.ts`). */
export function fileEdges(): [string, string][] {
  return FILES.flatMap((f) =>
    importsOf(f.code).flatMap(({ specifier }): [string, string][] => {
      const t = target(f, specifier);
      return t.kind === 'src' ? [[f.rel, t.rel.replace(/\.js$/, '.ts')]] : [];
    }),
  );
}

/** The strongly connected parts of a graph with more than one node, or with an edge to itself. */
export function cycles(edges: readonly [string, string][]): string[][] {
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

/** The .ts and .js files of a tree: the dashboard's native modules count too. */
export function listSource(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSource(abs);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [abs] : [];
  });
}
