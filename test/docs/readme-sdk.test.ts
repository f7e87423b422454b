/**
 * The README's `@a2a-js/sdk` snippet, as written there: type-checked against the installed SDK's
 * types (in memory, beside this file: nothing is written into the checkout), then run by Node
 * against a simulator, where it must print the completed task.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { CHECKOUT } from '../helpers/files.js';

const README_URL = 'http://127.0.0.1:41241';

/** The README's ```ts block that uses the SDK's client. */
const snippet = (() => {
  const blocks = [...readFileSync(join(CHECKOUT, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)];
  const found = blocks.map((m) => m[1]!).filter((text) => text.includes('@a2a-js/sdk/client'));
  expect(found).toHaveLength(1);
  return found[0]!;
})();

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  // Real time at speed 0: the snippet's process waits on the answer, and nobody moves a virtual clock.
  sim = await createSimulator({ port: 0, host: '127.0.0.1', speed: 0, logLevel: 'silent' });
  dir = await mkdtemp(join(tmpdir(), 'a2a-sim-readme-sdk-'));
});
afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('type-checks against the installed @a2a-js/sdk', () => {
  const file = join(CHECKOUT, 'test/docs/readme-snippet.mts');
  const { config } = ts.readConfigFile(join(CHECKOUT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, CHECKOUT);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => path === file || fileExists(path);
  host.readFile = (path) => (path === file ? snippet : readFile(path));
  host.getSourceFile = (path, language, ...rest) =>
    path === file ? ts.createSourceFile(path, snippet, language) : getSourceFile(path, language, ...rest);
  const program = ts.createProgram([file], options, host);
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(problems).toEqual([]);
});

it('sends a message with the SDK and prints the completed task', async () => {
  const { outputText } = ts.transpileModule(snippet.replaceAll(README_URL, sim.url), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
  });
  // The snippet imports the SDK by name, as a user's file does: from a node_modules beside it.
  await symlink(join(CHECKOUT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'snippet.mjs'), outputText);
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'snippet.mjs')]);
  expect(stdout).toContain('TASK_STATE_COMPLETED');
  expect(stdout).toContain('Weather Report');
});
