/**
 * The links of README.md and docs/*.md: every relative link names a file that exists and, for a
 * `#fragment` into a Markdown page, a heading of that page; the README links every docs page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced blocks and code spans, where links are links. */
function prose(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '');
  return [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, '')));
}

const LINKS = PAGES.flatMap((page) =>
  [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => [page, target] as const),
);

it('finds the links', () => {
  expect(LINKS.length).toBeGreaterThan(20);
});

it.each(LINKS)('%s links to %s, which exists', (page, target) => {
  const [path, fragment] = target.split('#') as [string, string | undefined];
  const file = path === '' ? page : normalize(join(dirname(page), path));
  expect(existsSync(join(ROOT, file)), `${file} exists`).toBe(true);
  if (fragment !== undefined && file.endsWith('.md')) expect(anchors(file)).toContain(fragment);
});

it('links every docs page from the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const page of PAGES.filter((p) => p !== 'README.md')) expect(readme).toContain(`](${page})`);
});
