/**
 * `a2a-sim exam` end to end with a client (test/verdicts/fixtures/exam-client.mjs) that breaks one
 * rule: it fails that rule and only that one, under the curriculum that exercises it. (Files of
 * their own, this one and exam-breaks-polling.test.ts, so that they run beside exam.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { run } from '../helpers/cli.js';
import { CASES, examBreaking } from './fixtures/breaks.js';
import { CLIENT, EXAM, failed } from './fixtures/exam.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-exam-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

// Each exam is a few seconds of a client waiting on its tasks: several at once, as CI jobs would be.
describe.concurrent('a client that breaks one rule', () => {
  it.for(CASES.filter(([, curriculum]) => curriculum !== 'polling'))(
    'fails %s, and only it, under the %s curriculum over %s',
    (breaking, { expect }) => examBreaking(breaking, out, expect),
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
