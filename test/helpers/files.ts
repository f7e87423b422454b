/**
 * Files for a test: scenarios, agent files and chaos profiles written into a directory; a copy of
 * the checkout to run examples in; and the checkout's git status, which no test may change.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Writes `files` (file name → text) into `dir`, creating it, and returns `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** The root of this checkout. */
export const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Copies `paths` of the checkout (files or folders, e.g. `dist`, `scenarios`) into `dir`, and gives
 * `dir` a `node_modules` of its own whose entries link to the checkout's packages: code run in `dir`
 * finds this package (by its name, from `package.json`) and its dependencies as in the checkout,
 * and what it writes, a cache under `node_modules` included, stays in `dir`. Returns `dir`.
 */
export async function copyCheckout(dir: string, paths: readonly string[]): Promise<string> {
  for (const path of paths) await cp(join(CHECKOUT, path), join(dir, path), { recursive: true });
  const modules = join(dir, 'node_modules');
  await mkdir(modules, { recursive: true });
  for (const name of await readdir(join(CHECKOUT, 'node_modules'))) {
    // Caches (.vite, .cache) and npm's own records stay behind; the commands in .bin come along.
    if (name.startsWith('.') && name !== '.bin') continue;
    await symlink(join(CHECKOUT, 'node_modules', name), join(modules, name));
  }
  return dir;
}

/**
 * The checkout's `git status --porcelain`, one line per changed or untracked file; undefined where
 * the package is not a git checkout. It takes no lock on git's index, so it can run beside anything.
 */
export function checkoutStatus(): string[] | undefined {
  try {
    return execFileSync('git', ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all'], {
      cwd: CHECKOUT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter(Boolean);
  } catch {
    return undefined;
  }
}

/**
 * What changed in {@link checkoutStatus} since `before`: lines that appeared or went away. Empty
 * when either status is unknown.
 */
export function checkoutChanges(before: string[] | undefined): string[] {
  const after = checkoutStatus();
  if (!before || !after) return [];
  return [
    ...after.filter((line) => !before.includes(line)).map((line) => `+ ${line}`),
    ...before.filter((line) => !after.includes(line)).map((line) => `- ${line}`),
  ];
}
