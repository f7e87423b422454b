/**
 * What `npm pack` ships works on its own: the packed tarball, installed into an empty folder,
 * gives an `a2a-sim` command that serves (the CLI from the package's `bin`, its dependencies from
 * the registry or npm's cache).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../helpers/cli.js';
import { getJson } from '../helpers/wire.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const exec = promisify(execFile);
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'a2a-sim-pack-'));
  // `npm test` has just built dist/: pack it as it is (`prepare` would build it again).
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], {
    cwd: ROOT,
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await exec('npm', ['init', '-y'], { cwd: folder });
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, filename)], {
    cwd: folder,
  });
}, 180_000);
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('npm pack', () => {
  it('installs into an empty folder as an a2a-sim command that serves', async () => {
    const server = serve(['serve', '--port', '0'], {}, join(folder, 'node_modules/.bin/a2a-sim'));
    try {
      const url = await server.url;
      const card = await getJson(url, '/.well-known/agent-card.json');
      expect(card.status).toBe(200);
      const { stdout } = await exec(join(folder, 'node_modules/.bin/a2a-sim'), ['--version']);
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      await server.stop();
    }
  });
});
