/**
 * `a2a-sim exam` end to end with a client (test/verdicts/fixtures/exam-client.mjs) that breaks one
 * rule: it fails that rule and only that one, under the curriculum that exercises it. (A file of
 * its own, so that it runs beside exam.test.ts.)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { run } from '../helpers/cli.js';
import { CLIENT, EXAM, failed } from './fixtures/exam.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-exam-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

/** Each rule the client can break, the curriculum that exercises it, and whether it is a MUST. */
const BREAKS: [rule: string, curriculum: string, must: boolean][] = [
  ['input-required-continuation', 'reconnect', true],
  ['no-lost-events', 'reconnect', true],
  // Over JSON-RPC 0.3 (by its place in this list), where a resume's cursor is a MUST (seed 002).
  ['resume-cursor', 'reconnect', true],
  ['poll-deadline', 'polling', true],
  ['poll-backoff', 'polling', false],
  ['poll-jitter', 'polling', false],
  ['no-poll-after-terminal', 'polling', false],
  ['card-revalidation', 'polling', false],
  ['retry-after', 'errors', true],
  ['unknown-state', 'quirks', true],
  ['get-after-failed-resume', 'expired-resume', false],
];

/** Each breaking client speaks another binding in turn: every binding gets its share. */
const BINDINGS = ['rest', 'jsonrpc', 'jsonrpc-0.3', 'gateway'];
const CASES = BREAKS.map(
  ([rule, curriculum, must], i) => [rule, curriculum, BINDINGS[i % BINDINGS.length]!, must] as const,
);

/** Runs the exam of a client that breaks `rule`, and checks that it fails that rule and only it. */
async function examBreaking(
  [rule, curriculum, binding, must]: (typeof CASES)[number],
  expect: ExpectStatic,
): Promise<void> {
  const junit = join(out, `${rule}.xml`);
  const exit = await run(
    [...EXAM, '--curriculum', curriculum, '--junit', junit, '--', process.execPath, CLIENT],
    { BREAK: rule, BINDING: binding, ...(curriculum === 'polling' && { ONLY: 'polling' }) },
  );
  expect(failed(exit.stdout), exit.stdout).toEqual([rule]);
  // A MUST rule failed fails the exam; a SHOULD rule is reported, and the exam passes.
  expect(exit.code).toBe(must ? 1 : 0);
  const xml = await readFile(junit, 'utf8');
  expect(xml).toMatch(new RegExp(`name="${rule}">\\s*<failure message="${must ? 'MUST' : 'SHOULD'}: `));
}

// The polling rules judge the intervals between a client's polls: one exam at a time, so that no
// other exam of this file stretches them.
describe('a client that breaks one polling rule', () => {
  it.for(CASES.filter(([, curriculum]) => curriculum === 'polling'))(
    'fails %s, and only it, under the %s curriculum over %s',
    (breaking, { expect }) => examBreaking(breaking, expect),
  );
});

// Each other exam is a few seconds of a client waiting on its tasks: several at once, as CI jobs
// would be.
describe.concurrent('a client that breaks one rule', () => {
  it.for(CASES.filter(([, curriculum]) => curriculum !== 'polling'))(
    'fails %s, and only it, under the %s curriculum over %s',
    (breaking, { expect }) => examBreaking(breaking, expect),
  );

  it('fails input-required-continuation through the gateway, answering with no context', async ({
    expect,
  }) => {
    const exit = await run([...EXAM, '--curriculum', 'reconnect', '--', process.execPath, CLIENT], {
      BREAK: 'input-required-continuation',
      BINDING: 'gateway',
    });
    expect(failed(exit.stdout)).toEqual(['input-required-continuation']);
    expect(exit.code).toBe(1);
  });
});
