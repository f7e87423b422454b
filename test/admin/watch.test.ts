/**
 * `--watch`: a scenario file written into a watched directory is validated and swapped in once the
 * edits settle. The file system events are real I/O; the settling delay runs on the simulator's
 * clock, so the test lets I/O run and moves virtual time itself.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.js';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { admin } from '../helpers/wire.js';
import { restSend, tempDir } from './helpers.js';

const scenario = (keyword: string, text: string) =>
  `description: Answers ${keyword}.\nmatch:\n  - keywords: [${keyword}]\nsteps:\n  - artifact:\n      parts:\n        - text: ${JSON.stringify(text)}\n  - status: completed\n`;

let t: TestSim;
let dir: string;
/** What the simulator logged, a line each. */
const logged: string[] = [];
const loggedAbout = (file: string) => logged.filter((line) => line.includes(file));
beforeAll(async () => {
  dir = await tempDir('watch');
  await writeFile(join(dir, 'ping.yaml'), scenario('ping', 'pong v1'));
  t = await startSim({
    scenarioDirs: [dir],
    watch: true,
    logger: createLogger({ level: 'info', format: 'pretty', write: (line) => logged.push(line) }),
  });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const loaded = () => t.sim.scenarios().map((s) => s.id);
const answer = async (text: string, id: string) =>
  (await restSend(t, '', text, id)).artifacts[0].parts[0].text as string;

/** Lets I/O run until the watcher has armed its settling timer on the simulator clock. */
async function untilArmed(): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (t.clock.nextAt() !== undefined) return;
    await flushIo(5);
  }
  throw new Error('no file system event arrived');
}

/** Lets I/O run, and moves the clock to each timer due, until `condition` holds. */
async function untilReloaded(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (await condition()) return;
    await flushIo(5);
    const next = t.clock.nextAt();
    if (next !== undefined) t.clock.advance(Math.max(0, next - t.clock.now()));
  }
  throw new Error('the reload did not happen');
}

describe('--watch', () => {
  it('serves a scenario written into a watched directory once 200 ms of clock time pass without edits', async () => {
    expect(loaded()).not.toContain('watched');
    await writeFile(join(dir, 'watched.yaml'), scenario('watched', 'Seen by --watch'));
    await untilArmed();
    // The settling delay runs on the simulator clock: no reload before it has passed.
    t.clock.advance(199);
    await flushIo(50);
    expect(loaded()).not.toContain('watched');
    t.clock.advance(1);
    await untilReloaded(() => loaded().includes('watched'));
    expect(await answer('watched it', 'w-1')).toBe('Seen by --watch');
    expect(loggedAbout('watched.yaml')).toEqual([
      expect.stringMatching(/INFO  scenario added: watched \(.*watched\.yaml\)$/),
    ]);
    expect((await admin(t, 'GET', '/scenarios')).body.scenarios.map((s: any) => s.id)).toContain('watched');
  });

  it('swaps in an edited file', async () => {
    await writeFile(join(dir, 'ping.yaml'), scenario('ping', 'pong v2'));
    await untilArmed();
    await untilReloaded(async () => (await answer('ping', `w-2-${t.clock.now()}`)) === 'pong v2');
  });

  it('keeps the previous version of a broken edit and reports it', async () => {
    await writeFile(join(dir, 'ping.yaml'), 'steps:\n  - status: pinging\n');
    await untilArmed();
    await untilReloaded(async () => (await admin(t, 'GET', '/scenarios')).body.issues.length > 0);
    const { issues } = (await admin(t, 'GET', '/scenarios')).body;
    expect(issues).toContainEqual(expect.stringMatching(/ping\.yaml.*steps\[0\]/));
    expect(issues.every((issue: string) => issue.includes('ping.yaml'))).toBe(true);
    expect(await answer('ping', 'w-3')).toBe('pong v2');
  });

  it('says a new file that does not load is skipped, not kept at a version it never had', async () => {
    await writeFile(join(dir, 'fresh.yaml'), 'steps:\n  - status: freshening\n');
    await untilArmed();
    await untilReloaded(() => loggedAbout('fresh.yaml').length > 0);
    const lines = loggedAbout('fresh.yaml');
    expect(lines.every((line) => /WARN  scenario skipped: .*fresh\.yaml/.test(line))).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(/fresh\.yaml.*steps\[0\]/));
    expect(logged.filter((line) => line.includes('kept at its previous version'))).not.toContainEqual(
      expect.stringContaining('fresh.yaml'),
    );
  });
});
