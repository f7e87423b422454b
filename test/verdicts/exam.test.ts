/**
 * `a2a-sim exam` end to end, as a team's CI runs it: the built CLI in a child process, running a
 * client (test/verdicts/fixtures/exam-client.mjs) under a curriculum. The client that does
 * everything right passes every rule it exercises over every binding; a client that breaks one rule
 * fails that rule and only that one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const CLIENT = join(FIXTURES, 'exam-client.mjs');
/** Scenarios at ten times their speed: a whole exam takes seconds. */
const EXAM = ['exam', '--speed', '10', '-s', join(FIXTURES, 'scenarios')];

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-exam-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

/** The rules the verdict table marks FAIL. */
const failed = (stdout: string) =>
  [...stdout.matchAll(/^ {2}FAIL +(?:MUST|SHOULD) +(\S+)/gm)].map((m) => m[1]);

describe.concurrent('the client that does everything right', () => {
  it.each(['rest', 'jsonrpc', 'jsonrpc-0.3', 'gateway'])(
    'passes every rule it exercises over %s',
    async (binding) => {
      const junit = join(out, `good-${binding}.xml`);
      const exit = await run(
        [...EXAM, '--curriculum', 'all', '--junit', junit, '--', process.execPath, CLIENT],
        { BINDING: binding },
      );
      expect(exit.stdout).toContain(`exam client (${binding}) done`);
      expect(failed(exit.stdout)).toEqual([]);
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

/** Each rule the client can break, the curriculum that exercises it, and whether it is a MUST. */
const BREAKS: [rule: string, curriculum: string, must: boolean][] = [
  ['resume-cursor', 'reconnect', true],
  ['no-lost-events', 'reconnect', true],
  ['input-required-continuation', 'reconnect', true],
  ['poll-deadline', 'polling', true],
  ['poll-backoff', 'polling', false],
  ['poll-jitter', 'polling', false],
  ['no-poll-after-terminal', 'polling', false],
  ['card-revalidation', 'polling', false],
  ['retry-after', 'errors', true],
  ['unknown-state', 'quirks', true],
];

describe.concurrent('a client that breaks one rule', () => {
  it.each(BREAKS)('fails %s, and only it, under the %s curriculum', async (rule, curriculum, must) => {
    const junit = join(out, `${rule}.xml`);
    const exit = await run(
      [...EXAM, '--curriculum', curriculum, '--junit', junit, '--', process.execPath, CLIENT],
      { BREAK: rule },
    );
    expect(failed(exit.stdout)).toEqual([rule]);
    // A MUST rule failed fails the exam; a SHOULD rule is reported, and the exam passes.
    expect(exit.code).toBe(must ? 1 : 0);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(new RegExp(`name="${rule}">\\s*<failure message="${must ? 'MUST' : 'SHOULD'}: `));
  });

  it('fails input-required-continuation through the gateway, answering with no context', async () => {
    const exit = await run([...EXAM, '--curriculum', 'reconnect', '--', process.execPath, CLIENT], {
      BREAK: 'input-required-continuation',
      BINDING: 'gateway',
    });
    expect(failed(exit.stdout)).toEqual(['input-required-continuation']);
    expect(exit.code).toBe(1);
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
      'No curriculum "chaos-monkey": the built-in ones are all, errors, polling, quirks, reconnect',
    );
  });
});
