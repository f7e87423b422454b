/**
 * The Docker image's runtime stage holds the bundled CLI, package.json, the scenarios, the
 * dashboard files and only the two packages the bundle imports on first use (faker, ws). This
 * lays those files out the same way in a temporary directory and runs the image's start command
 * there: the card, a faker scenario, the dashboard and its live feed all work without the rest of
 * node_modules.
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve } from '../helpers/cli.js';
import { getJson, postJson, v1Send, V1_HEADERS } from '../helpers/wire.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let image: string;

/** The runtime stage's COPY lines, read from the Dockerfile so this test follows it. */
async function runtimeCopies(): Promise<[string, string][]> {
  const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  return [...runtime.matchAll(/^COPY (?:--from=build )?(\S+) (\S+)$/gm)].map((m): [string, string] => [
    m[1]!.replace(/^\/app\//, ''),
    m[2]!,
  ]);
}

beforeAll(async () => {
  image = await mkdtemp(join(tmpdir(), 'a2a-sim-image-'));
  for (const [from, to] of await runtimeCopies()) {
    // `COPY file ./` copies into the directory, as Docker does with a destination ending in `/`.
    const target = to.endsWith('/') ? join(image, to, basename(from)) : join(image, to);
    await mkdir(join(target, '..'), { recursive: true });
    // Packages are linked (they are large); the rest is copied as the image copies it.
    if (from.startsWith('node_modules/')) await symlink(join(ROOT, from), target);
    else await cp(join(ROOT, from), target, { recursive: true });
  }
});
afterAll(() => rm(image, { recursive: true, force: true }));

describe('the Docker image layout', () => {
  it('copies the bundle, its first-use packages, the scenarios and the dashboard, nothing else', async () => {
    expect((await runtimeCopies()).map(([from]) => from).sort()).toEqual([
      'dist/cli',
      'node_modules/@faker-js',
      'node_modules/ws',
      'package.json',
      'scenarios',
      'src/admin/dashboard',
    ]);
  });

  it('serves the card, fake data, the dashboard and the live feed from those files alone', async () => {
    const server = serve(
      ['serve'],
      { A2A_SIM_PORT: '0', A2A_SIM_HOST: '127.0.0.1' },
      join(image, 'dist/cli/main.js'),
    );
    try {
      const url = await server.url;
      expect((await getJson(url, '/.well-known/agent-card.json')).status).toBe(200);
      const booking = await postJson(url, '/message:send', v1Send('Book me a flight'), V1_HEADERS);
      expect(booking.status).toBe(200);
      expect(JSON.stringify(booking.body)).toMatch(/TASK_STATE_INPUT_REQUIRED/);
      const page = await fetch(`${url}/_sim/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const feed = new WebSocket(`${url.replace('http', 'ws')}/_sim/feed`);
      const first = await new Promise<string>((resolve, reject) => {
        feed.once('message', (data) => resolve(String(data)));
        feed.once('error', reject);
      });
      feed.close();
      expect(JSON.parse(first)).toHaveProperty('type');
    } finally {
      await server.stop();
    }
  });
});
