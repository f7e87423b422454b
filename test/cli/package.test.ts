/**
 * What `npm pack` ships works on its own: the packed tarball, installed into an empty folder,
 * gives an `a2a-sim` command that serves (the CLI from the package's `bin`, its dependencies from
 * the registry or npm's cache), installs without a warning about the package itself, and its types
 * compile in a strict project that has only what installing it brought (no `@types/express`).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
/** What `npm install` of the tarball printed on stderr. */
let installWarnings: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'a2a-sim-pack-'));
  // `npm test` has just built dist/: pack it as it is (`prepare` would build it again).
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], {
    cwd: ROOT,
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await exec('npm', ['init', '-y'], { cwd: folder });
  const install = await exec(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, filename)],
    { cwd: folder },
  );
  installWarnings = install.stderr;
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

  it('installs without a warning about itself (no install script of ours, no peer left unmet)', () => {
    // Dependencies' own warnings (protobufjs's postinstall, say) are theirs: only ours are avoidable.
    expect(installWarnings.split('\n').filter((line) => line.includes('a2a-sim'))).toEqual([]);
  });

  it('compiles a strict project against a2a-sim, a2a-sim/testing and a2a-sim/vitest, and runs it', async () => {
    // The project has what installing the package brought, @types/node among it, and nothing else.
    expect(existsSync(join(folder, 'node_modules/@types/express'))).toBe(false);
    await writeFile(
      join(folder, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: STRICT, files: ['consumer.mts'] }),
    );
    await writeFile(join(folder, 'consumer.mts'), CONSUMER);
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await exec(process.execPath, [tsc, '-p', folder]).catch((error: { stdout: string }) => {
      throw new Error(`the consumer project does not compile:\n${error.stdout}`);
    });
    const { stdout } = await exec(process.execPath, [join(folder, 'out/consumer.mjs')], { cwd: folder });
    expect(stdout.trim()).toBe('card 200, reset, stopped');
  });
});

/** A consumer's compiler options: strict, and the package's declarations checked (no skipLibCheck). */
const STRICT = {
  target: 'ES2023',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  types: ['node'],
  outDir: 'out',
};

/** Imports every entry point; runs the ones that need no test runner (vitest is not installed here). */
const CONSUMER = `
import { createServer } from 'node:http';
import { createSimulator, type SimApp, type Simulator } from 'a2a-sim';
import { startA2aSim, type A2aSim } from 'a2a-sim/testing';
import type * as forVitest from 'a2a-sim/vitest';

const useA2aSim: typeof forVitest.useA2aSim | undefined = undefined;
const a2a: A2aSim = await startA2aSim({ seed: 'consumer' });
const card = await fetch(\`\${a2a.url}/.well-known/agent-card.json\`);
const app: SimApp = a2a.sim.app;
createServer(app).close();
await a2a.sim.setChaos('flaky-mobile');
await a2a.reset();
await a2a.stop();
const sim: Simulator = await createSimulator({ port: 0, logLevel: 'silent' });
await sim.close();
console.log(\`card \${card.status}, \${useA2aSim ?? 'reset'}, stopped\`);
`;
