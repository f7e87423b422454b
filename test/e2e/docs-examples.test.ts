/**
 * The complete test files in docs/examples, run as a user runs them, against the built package
 * imported by its name: the vitest file under vitest, the node:test file under `node --test`.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('docs/examples', () => {
  it('vitest.test.mjs passes under vitest', async () => {
    const { stdout } = await run(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'docs/examples/vitest.config.mjs'],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stdout).toMatch(/Tests\s+2 passed/);
  });

  it('node-test.mjs passes under node --test', async () => {
    const { stdout } = await run(process.execPath, ['--test', 'docs/examples/node-test.mjs'], {
      cwd: ROOT,
    });
    expect(stdout).toMatch(/# pass 2/);
    expect(stdout).toMatch(/# fail 0/);
  });
});
