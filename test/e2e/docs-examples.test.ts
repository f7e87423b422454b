/**
 * The complete test files in docs/examples, run as a user runs them, against the built package
 * imported by its name: the vitest file under vitest, the node:test file under `node --test`. They
 * run in a copy of the package made in a temporary directory, so that nothing they write (vitest's
 * cache, say) reaches the checkout; afterAll checks that its git status did not change.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutChanges, checkoutStatus, copyCheckout } from '../helpers/files.js';

const run = promisify(execFile);

let copy: string;
let statusBefore: string[] | undefined;
beforeAll(async () => {
  statusBefore = checkoutStatus();
  // What `import 'a2a-sim'` loads (package.json's exports, dist/, and what dist/ reads), and the examples.
  const dir = await mkdtemp(join(tmpdir(), 'a2a-sim-examples-'));
  copy = await copyCheckout(dir, [
    'package.json',
    'dist',
    'scenarios',
    'src/admin/dashboard',
    'docs/examples',
  ]);
});
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
  const changes = checkoutChanges(statusBefore);
  expect(changes, `the checkout's git status changed while the examples ran:\n${changes.join('\n')}`).toEqual(
    [],
  );
});

describe('docs/examples', () => {
  it('vitest.test.mjs passes under vitest', async () => {
    const { stdout } = await run(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'docs/examples/vitest.config.mjs'],
      { cwd: copy, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stdout).toMatch(/Tests\s+2 passed/);
  });

  it('node-test.mjs passes under node --test', async () => {
    const { stdout } = await run(process.execPath, ['--test', 'docs/examples/node-test.mjs'], {
      cwd: copy,
    });
    expect(stdout).toMatch(/# pass 2/);
    expect(stdout).toMatch(/# fail 0/);
  });
});
