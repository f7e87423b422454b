/**
 * `a2a-sim exam` end to end, as a team's CI runs it: the built CLI in a child process, running a
 * client (test/verdicts/fixtures/exam-client.mjs) under a curriculum. The client that does
 * everything right passes every rule it exercises over every binding (over HTTP+JSON, in the
 * client zoo: test/zoo/); a client that breaks one rule fails that rule and only that one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/cli.js';
import { CLIENT, EXAM, failed } from './fixtures/exam.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-exam-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

// Over HTTP+JSON the client zoo (test/zoo/) examines it under every curriculum. Each exam is a few
// seconds of a client waiting on its tasks: several at once, as CI jobs would be.
describe.concurrent('the client that does everything right', () => {
  it.for(['jsonrpc', 'jsonrpc-0.3', 'gateway'])(
    'passes every rule it exercises over %s',
    async (binding, { expect }) => {
      const junit = join(out, `good-${binding}.xml`);
      const exit = await run(
        [...EXAM, '--curriculum', 'all', '--junit', junit, '--', process.execPath, CLIENT],
        { BINDING: binding },
      );
      expect(exit.stdout).toContain(`exam client (${binding}) done`);
      expect(failed(exit.stdout), exit.stdout).toEqual([]);
      expect(exit.stdout).toContain('exam passed');
      expect(exit.code).toBe(0);
      const xml = await readFile(junit, 'utf8');
      expect(xml).toContain(
        `<testsuite name="a2a-sim exam: exam-${binding}" tests="11" failures="0" skipped="1">`,
      );
      expect(xml).toContain('name="get-after-failed-resume"><skipped message="not exercised"/>');
    },
  );
});

describe.concurrent('the client that does everything right, when a resume is refused', () => {
  it.for(['jsonrpc-0.3'])('reads the task with GetTask first, over %s', async (binding, { expect }) => {
    const exit = await run([...EXAM, '--curriculum', 'expired-resume', '--', process.execPath, CLIENT], {
      BINDING: binding,
    });
    expect(exit.stdout, exit.stdout).toMatch(/pass +SHOULD get-after-failed-resume/);
    expect(failed(exit.stdout), exit.stdout).toEqual([]);
    expect(exit.code).toBe(0);
  });
});

describe('a2a-sim exam', () => {
  it('fails when the command fails, and says so', async () => {
    const exit = await run([
      ...EXAM,
      '--curriculum',
      'quirks',
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ]);
    expect(exit.stdout).toContain('No client called the simulator');
    expect(exit.stdout).toContain('exam failed: the command exited with 3');
    expect(exit.code).toBe(1);
  });

  it('refuses a missing command or an unknown curriculum', async () => {
    const none = await run(['exam']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('exam needs the client command after --');
    const unknown = await run(['exam', '--curriculum', 'chaos-monkey', '--', 'true']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'No curriculum "chaos-monkey": the built-in ones are all, errors, expired-resume, forged-card, generation, polling, quirks, reconnect',
    );
  });
});
