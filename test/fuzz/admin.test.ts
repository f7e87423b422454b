/**
 * Seeded fuzzing of the control plane: the admin API under /_sim (loopback-only and with an admin
 * token), its dashboard files, and WebSocket upgrades of the feed and of any other path. Changes
 * made by one request (chaos, the clock, a reset) meet the agent calls mixed in after them.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { JSON_HEADERS, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';
import {
  chaosHeader,
  fuzzParams,
  fuzzTimeout,
  headers,
  hostileValue,
  httpMethod,
  mutated,
  oddText,
  queryString,
  segment,
} from './arbitraries.js';
import { bugLogger, checkRest, checkUpgrade, exchange, upgrade, type Probe, type Target } from './oracle.js';

const TOKEN = 's3cret';
const sims: { t: TestSim; target: Target; token?: string }[] = [];

beforeAll(async () => {
  for (const token of [undefined, TOKEN]) {
    const errors: string[] = [];
    const t = await startSim({ logger: bugLogger(errors), ...(token && { adminToken: token }) });
    const target: Target = { url: t.url, clock: t.clock, faults: [], errors };
    t.sim.faults.onRecord((fault) => target.faults.push(fault));
    sims.push({ t, target, ...(token && { token }) });
  }
});
afterAll(async () => {
  for (const { t } of sims) await t.close();
});
// A global chaos profile set by one run must not outlive it.
afterEach(async () => {
  for (const { target, token } of sims) {
    await exchange(target, {
      method: 'PUT',
      path: '/_sim/chaos',
      headers: { 'Content-Type': 'application/json', ...(token && { 'X-Admin-Token': token }) },
      body: '{"chaos":null}',
    });
  }
});

const ROUTES = [
  '/health',
  '/scenarios',
  '/scenarios/reload',
  '/tasks',
  '/tasks/{id}',
  '/reset',
  '/chaos',
  '/clock/advance',
  '/faults',
  '/deliveries',
  '/requests',
  '/feed',
  '',
  '/',
  '/app.js',
  '/style.css',
  '/index.html',
];

/** Bodies of the admin API's own shapes, mutated, and anything else. */
const adminBody = fc.oneof(
  mutated(
    fc.record(
      {
        chaos: fc.oneof(
          chaosHeader,
          fc.constantFrom(null, 'off', '', 'flaky-mobile', 'nope.chaos.yaml'),
          hostileValue,
        ),
        ms: fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.constantFrom(2 ** 31, 1e300), hostileValue),
        scenario: oddText,
        agent: oddText,
        workspace: oddText,
      },
      { requiredKeys: [] },
    ),
  ).map((value) => JSON.stringify(value) ?? ''),
  fc.constantFrom('', '{', 'null', '[]', 'x'.repeat(70_000)),
);

const adminProbe = (token: string | undefined): fc.Arbitrary<Probe> =>
  fc
    .tuple(
      httpMethod,
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...ROUTES) },
        fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
        fc.constantFrom('//', '//health', '/tasks/%E0%A4%A', '/tasks/%ZZ', '/%2e%2e/%2e%2e/package.json'),
      ),
      oddText,
      queryString,
      fc.option(
        fc.constantFrom(`token=${TOKEN}`, 'token=wrong', 'types=task:event', 'limit=1e9', 'after=-1'),
        {
          nil: undefined,
        },
      ),
      headers({
        'X-Sim-Admin': fc.constantFrom(undefined, '1', ''),
        'X-Admin-Token': fc.constantFrom(undefined, token ?? 'x', 'wrong'),
        Authorization: fc.constantFrom(undefined, `Bearer ${token ?? 'x'}`, 'Bearer', 'Basic abc'),
      }),
      fc.option(adminBody, { nil: undefined }),
    )
    .map(([method, route, id, query, extra, hs, body]) => {
      const path = `/_sim${route.replace('{id}', encodeURIComponent(id.replace(/[\uD800-\uDFFF]/g, '')))}`;
      const search = [query.slice(1), extra].filter(Boolean).join('&');
      return {
        method,
        path: search ? `${path}?${search}` : path,
        headers: hs,
        ...(body !== undefined && method !== 'GET' && method !== 'HEAD' && { body }),
      };
    });

/** An agent call to mix in: what the admin API changed (chaos, the clock) must not break it. */
const agentProbe: fc.Arbitrary<Probe> = fc.constantFrom<Probe>(
  { method: 'GET', path: '/tasks?pageSize=2', headers: {} },
  {
    method: 'POST',
    path: '/message:send',
    headers: JSON_HEADERS,
    body: JSON.stringify(v1Send('What is the weather today?', { messageId: 'm' }, RETURN_IMMEDIATELY)),
  },
);

describe('fuzz: the control plane answers hostile input with its error body, never a 5xx', () => {
  it.each([
    ['loopback only', 0],
    ['with an admin token', 1],
  ])(
    'the admin API (%s): random methods, routes, queries, tokens, headers and bodies',
    async (_name, index) => {
      const { target, token } = sims[index]!;
      const step = fc.oneof({ weight: 4, arbitrary: adminProbe(token) }, agentProbe);
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (probes) => {
          for (const probe of probes) {
            const x = await exchange(target, probe);
            checkRest(target, x, { files: true });
          }
        }),
        fuzzParams(1000),
      );
    },
    fuzzTimeout(1000, 150),
  );

  it(
    'WebSocket upgrades: the feed with random filters, tokens and origins, and any other path',
    async () => {
      const upgradeProbe = fc.tuple(
        fc.constantFrom(0, 1),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant('/_sim/feed') },
          fc.array(segment, { maxLength: 3 }).map((s) => `/${s.join('/')}`),
          fc.constantFrom('//', '//:80', '/_sim//feed', '/_sim/feed/', '*', 'http://x.example/_sim/feed'),
        ),
        fc.option(
          fc
            .array(
              fc.tuple(
                fc.constantFrom('types', 'taskId', 'contextId', 'agent', 'workspace', 'token', '__proto__'),
                fc.oneof(fc.constantFrom('task:event,stream:opened', 'nope', TOKEN, ''), oddText),
              ),
              { maxLength: 3 },
            )
            .map((pairs) =>
              pairs
                .map(([k, v]) => `${k}=${encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, ''))}`)
                .join('&'),
            ),
          { nil: undefined },
        ),
        fc.record(
          {
            Origin: fc.constantFrom('http://evil.example', 'null', 'http://127.0.0.1'),
            'X-Admin-Token': fc.constantFrom(TOKEN, 'wrong'),
          },
          { requiredKeys: [] },
        ),
      );
      await fc.assert(
        fc.asyncProperty(upgradeProbe, async ([index, path, query, hs]) => {
          const { target } = sims[index]!;
          checkUpgrade(target, await upgrade(target, query ? `${path}?${query}` : path, hs));
          checkRest(
            target,
            await exchange(target, { method: 'GET', path: `/_sim/health?token=${TOKEN}`, headers: {} }),
          );
        }),
        fuzzParams(1000),
      );
    },
    fuzzTimeout(1000),
  );
});
