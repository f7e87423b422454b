/**
 * `a2a-sim exam` end to end with a client (test/verdicts/fixtures/exam-client.mjs) that breaks one
 * polling rule: it fails that rule and only that one. A file of its own, beside exam-breaks.test.ts:
 * these exams are mostly the client waiting between its polls.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CASES, examBreaking } from './fixtures/breaks.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-exam-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

// The polling rules judge the intervals between a client's polls: one exam at a time, so that no
// other exam of this file stretches them.
describe('a client that breaks one polling rule', () => {
  it.for(CASES.filter(([, curriculum]) => curriculum === 'polling'))(
    'fails %s, and only it, under the %s curriculum over %s',
    (breaking, { expect }) => examBreaking(breaking, out, expect),
  );
});
