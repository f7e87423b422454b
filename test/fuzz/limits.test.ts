/**
 * Seeded fuzzing of values a client controls, at and past their limits: JSON-RPC ids from empty to
 * 256 KiB, header values up to Node's header limit, bodies around --max-body-bytes. Every answer is
 * well-formed (oracle.ts), and what the simulator keeps stays within its budgets: ids clipped in the
 * journal, the journal and the verdicts under their byte budgets, the process answering throughout.
 */
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { fuzzParams, fuzzTimeout } from './arbitraries.js';
import { bugLogger, checkRest, checkRpc, exchange, type Target } from './oracle.js';

const KiB = 1024;
const BODY_LIMIT = 64 * KiB;
const BUDGET = 256 * KiB;
let t: TestSim;
let target: Target;

beforeAll(async () => {
  const errors: string[] = [];
  t = await startSim({
    maxBodyBytes: BODY_LIMIT,
    journalSize: 100,
    journalBytes: BUDGET,
    verdictBytes: BUDGET,
    logger: bugLogger(errors),
  });
  target = { url: t.url, clock: t.clock, faults: [], errors };
});
afterAll(() => t.close());

/** A string of `length` characters, ASCII or not. */
const sized = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom('i', 'é', '"', '\\', '\u{1F600}', '{'))
    .map(([length, c]) => c.repeat(Math.max(0, Math.floor(length / c.length))));

const rpcId = fc.oneof(sized(0, 256 * KiB), fc.integer(), fc.double(), fc.constant(null));
const headerValue = sized(0, 12 * KiB).map((s) => s.replace(/[^\x20-\x7e]/g, 'x'));
const method = fc.constantFrom('GetTask', 'CancelTask', 'SendMessage', 'tasks/get', 'NoSuchMethod');

async function budgetsHold(): Promise<void> {
  const { body } = await request(t.url).get('/_sim/health').expect(200);
  expect(body.memory.journal.bytes).toBeLessThanOrEqual(BUDGET);
  expect(body.memory.verdicts.bytes).toBeLessThanOrEqual(BUDGET);
  for (const entry of t.sim.journal.list()) {
    if (typeof entry.id === 'string') expect(entry.id.length).toBeLessThan(200);
    expect((entry.body ?? '').length).toBeLessThan(17 * KiB);
  }
}

describe('values at their limits', () => {
  const RUNS = 40;

  it(
    'JSON-RPC ids of any size and kind: echoed in the answer (below the body limit), clipped in the journal',
    { timeout: fuzzTimeout(RUNS, 200) },
    async () => {
      await fc.assert(
        fc.asyncProperty(rpcId, method, headerValue, async (id, name, client) => {
          const body = JSON.stringify({ jsonrpc: '2.0', id, method: name, params: { id: 'no-such-task' } });
          const x = await exchange(target, {
            method: 'POST',
            path: '/',
            headers: { 'content-type': 'application/json', 'x-sim-client': client || 'c' },
            body,
          });
          checkRpc(target, x, [200, 413]);
          const answer = JSON.parse(x.body);
          // A body past the limit is not read, so its id is not known: the error says so with null.
          if (Buffer.byteLength(body) > BODY_LIMIT) expect(answer.error).toBeDefined();
          else expect(answer.id).toEqual(id);
        }),
        fuzzParams(RUNS),
      );
      await budgetsHold();
    },
  );

  it(
    'header values up to 12 KiB on every request: a well-formed answer, budgets kept',
    { timeout: fuzzTimeout(RUNS, 200) },
    async () => {
      await fc.assert(
        fc.asyncProperty(headerValue, headerValue, headerValue, async (chaos, client, agent) => {
          const x = await exchange(target, {
            method: 'GET',
            path: '/tasks/no-such-task',
            headers: { 'x-sim-chaos': chaos, 'x-sim-client': client || 'c', 'user-agent': agent },
          });
          checkRest(target, x);
          expect([400, 404, 431]).toContain(x.status);
        }),
        fuzzParams(RUNS),
      );
      await budgetsHold();
    },
  );

  it(
    'bodies around --max-body-bytes: 413 past it, an answer below, the journal keeps 16 KiB of each',
    { timeout: fuzzTimeout(RUNS, 200) },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: BODY_LIMIT - 2 * KiB, max: BODY_LIMIT + 2 * KiB }),
          async (size) => {
            const text = 'w'.repeat(Math.max(0, size - 120));
            const body = JSON.stringify({
              message: { role: 'ROLE_USER', parts: [{ text }], messageId: `m-${size}` },
              configuration: { returnImmediately: true },
            });
            const x = await exchange(target, {
              method: 'POST',
              path: '/message:send',
              headers: { 'content-type': 'application/json' },
              body,
            });
            checkRest(target, x);
            expect(x.status).toBe(Buffer.byteLength(body) > BODY_LIMIT ? 413 : 200);
          },
        ),
        fuzzParams(RUNS),
      );
      await budgetsHold();
    },
  );
});
