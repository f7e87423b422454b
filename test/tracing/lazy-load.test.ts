/**
 * Tracing is off by default, and then no OpenTelemetry module is loaded at all: checked in a child
 * Node process running the built package (`npm run build`), with a module hook that notes every
 * `@opentelemetry/` import it resolves and the CommonJS cache read after. The same process with an
 * endpoint does load them, so the checks can fire. The CLI bundle leaves them out, to import on use.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const INDEX = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const CLI_BUNDLE = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Resolved in the hooks' thread: each `@opentelemetry/` import is appended to the file it was given. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) appendFileSync(file, specifier + '\\n');
  return next(specifier, context);
}`;

/** Starts a simulator, serves one call, closes it, and prints the CommonJS cache's OpenTelemetry files. */
const SCRIPT = `
import { register, createRequire } from 'node:module';
register(process.env.HOOKS, { data: { file: process.env.NOTED } });
const { createSimulator } = await import(process.env.INDEX);
const endpoint = process.env.ENDPOINT;
const sim = await createSimulator({ port: 0, logLevel: 'silent', ...(endpoint && { otelEndpoint: endpoint }) });
await (await fetch(sim.url + '/.well-known/agent-card.json')).text();
await sim.close();
const cached = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('@opentelemetry'));
process.stdout.write(JSON.stringify(cached), () => process.exit(0));`;

let dir: string;
/** Takes whatever is exported, so the run with an endpoint closes at once. */
const collector = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-sim-lazy-'));
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Runs the script; what the hook noted as imported, and what the CommonJS cache held. */
async function run(endpoint?: string): Promise<{ imported: string[]; cached: string[] }> {
  const noted = join(dir, `noted-${endpoint ? 'on' : 'off'}.txt`);
  await writeFile(noted, '');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOOKS: pathToFileURL(join(dir, 'hooks.mjs')).href,
    NOTED: noted,
    INDEX: pathToFileURL(INDEX).href,
  };
  delete env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (endpoint) env['ENDPOINT'] = endpoint;
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { env, cwd: dir });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
  const imported = (await readFile(noted, 'utf8')).split('\n').filter(Boolean);
  return { imported, cached: JSON.parse(stdout) as string[] };
}

describe('OpenTelemetry modules', () => {
  it('are not loaded when no endpoint is configured, and are when one is', async () => {
    const [off, on] = await Promise.all([
      run(),
      run(`http://127.0.0.1:${(collector.address() as AddressInfo).port}`),
    ]);
    expect(off).toEqual({ imported: [], cached: [] });
    expect(on.imported).toEqual(
      expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace-base']),
    );
    expect(on.cached.length).toBeGreaterThan(0);
  });

  it('stay out of the CLI bundle, which imports them on first use', async () => {
    const bundle = await readFile(CLI_BUNDLE, 'utf8');
    for (const name of ['api', 'sdk-trace-base', 'exporter-trace-otlp-http', 'resources']) {
      expect(bundle).toContain(`import("@opentelemetry/${name}")`);
    }
    // The SDK's own code (its batch processor's base class) is not in the bundle.
    expect(bundle).not.toContain('class BatchSpanProcessorBase');
  });
});
