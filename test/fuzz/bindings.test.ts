/**
 * Seeded fuzzing of every binding of a real simulator (on a virtual clock, with the built-in
 * `explore` agent and gateway API keys): REST, JSON-RPC 1.0 and 0.3, the gateway, the agent card.
 * Each property throws generated hostile requests and holds each answer to oracle.ts. Task ids that
 * the answers reveal feed later requests, so calls also hit real tasks in every state.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import {
  encodeSegment,
  fuzzParams,
  fuzzTimeout,
  headers,
  httpMethod,
  mutated,
  oddText,
  queryString,
  segment,
  hostileValue,
} from './arbitraries.js';
import { hookUrl, rpcBody, taskId, v03Call, v1Call, v1SendRequest } from './requests.js';
import {
  bugLogger,
  checkRest,
  checkRpc,
  exchange,
  type Exchange,
  type Probe,
  type Target,
} from './oracle.js';

let t: TestSim;
let target: Target;
const known: string[] = [];
const knownIds = () => known;

beforeAll(async () => {
  const errors: string[] = [];
  t = await startSim({
    apiKeys: { 'key-1': ['ws-1', 'ws-2'], 'key-2': ['*'] },
    logger: bugLogger(errors),
  });
  target = { url: t.url, clock: t.clock, faults: [], errors };
  t.sim.faults.onRecord((fault) => target.faults.push(fault));
});
afterAll(() => t.close());

/** Remembers the task ids an answer names, so later requests can aim at real tasks. */
function learn(x: Exchange): void {
  for (const match of x.body.matchAll(/"(?:id|taskId)":"([0-9a-f-]{36})"/g)) {
    if (!known.includes(match[1]!)) known.push(match[1]!);
  }
  if (known.length > 60) known.splice(0, known.length - 60);
}

async function probe(p: Probe): Promise<Exchange> {
  const x = await exchange(target, p);
  learn(x);
  return x;
}

const mount = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constant('/agents/explore') },
  fc.constantFrom('/agents/nope', '/agents/a2a', '/agents/%ZZ'),
);
const tenant = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  segment.map((s) => `/${s}`),
);

/** The operations of the binding, each with its method, and the body it takes. */
const REST_OPS: [string, string][] = [
  ['POST', '/message:send'],
  ['POST', '/message:stream'],
  ['GET', '/tasks'],
  ['GET', '/tasks/{id}'],
  ['POST', '/tasks/{id}:cancel'],
  ['GET', '/tasks/{id}:subscribe'],
  ['POST', '/tasks/{id}:subscribe'],
  ['POST', '/tasks/{id}/pushNotificationConfigs'],
  ['GET', '/tasks/{id}/pushNotificationConfigs'],
  ['GET', '/tasks/{id}/pushNotificationConfigs/{id}'],
  ['DELETE', '/tasks/{id}/pushNotificationConfigs/{id}'],
  ['GET', '/extendedAgentCard'],
];

const pushConfigBody = mutated(
  fc.record({ url: hookUrl, token: oddText, id: oddText }, { requiredKeys: ['url'] }),
);

const body = fc.oneof(
  { weight: 4, arbitrary: v1SendRequest(knownIds).map((value) => JSON.stringify(value)) },
  pushConfigBody.map((value) => JSON.stringify(value) ?? ''),
  hostileValue.map((value) => JSON.stringify(value) ?? ''),
  fc.constantFrom('', '{', 'null', '{"message":', '\u0000'),
);

/** An operation with its method (now and then another), ids real or odd, and a body for a POST. */
const operation = fc
  .tuple(
    fc.constantFrom(...REST_OPS),
    fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, httpMethod),
    taskId(knownIds),
    fc.option(body, { nil: undefined }),
  )
  .map(([[natural, template], other, id, text]) => ({
    method: other ?? natural,
    path: template.replaceAll('{id}', encodeSegment(id).replace(/%3A/gi, ':')),
    body: text,
  }));

/** Paths made of random segments, and odd spellings. */
const oddPath = fc
  .tuple(
    httpMethod,
    fc.oneof(
      fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
      fc.constantFrom(
        '//',
        '//:80',
        '///tasks',
        '/tasks//x',
        '/.well-known/agent-card.json',
        '/.well-known/agent.json',
      ),
    ),
    fc.option(body, { nil: undefined }),
  )
  .map(([method, path, text]) => ({ method, path, body: text }));

const restProbe: fc.Arbitrary<Probe> = fc
  .tuple(fc.oneof({ weight: 5, arbitrary: operation }, oddPath), mount, tenant, queryString, headers())
  .map(([op, base, tenantPath, query, hs]) => ({
    method: op.method,
    path: `${base}${tenantPath}${op.path}${query}`,
    headers: hs,
    ...(op.body !== undefined && op.method !== 'GET' && op.method !== 'HEAD' && { body: op.body }),
  }));

/** Where a POST is answered by JSON-RPC: an agent's endpoint, or the gateway. */
function rpcKind(p: Probe): 'agent' | 'gateway' | undefined {
  if (p.method !== 'POST') return undefined;
  const pathname = p.path.split('?')[0]!;
  // Express routes are not strict: one trailing slash (and no more) names the same route.
  if (/^\/agents\/a2a\/?$/.test(pathname)) return 'gateway';
  return /^(?:\/agents\/explore\/{0,2}|\/{1,2})$/.test(pathname) ? 'agent' : undefined;
}

const AGENT_STATUSES = [200, 401, 403];
const GATEWAY_STATUSES = [200, 400, 401, 403, 404, 413];

function check(x: Exchange): void {
  const kind = rpcKind(x.probe);
  if (kind === undefined) checkRest(target, x);
  else checkRpc(target, x, kind === 'gateway' ? GATEWAY_STATUSES : AGENT_STATUSES);
}

describe('fuzz: every binding answers hostile input with a protocol error, never a 5xx', () => {
  it(
    'HTTP+JSON: random methods, paths, tenants, ids, query strings, headers and bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(restProbe, async (p) => check(await probe(p))),
        fuzzParams(2000),
      );
    },
    fuzzTimeout(2000),
  );

  it(
    'JSON-RPC 1.0 and 0.3: mutated params of every method, ids of every type, batches, headers',
    async () => {
      const method = fc.oneof(
        { weight: 6, arbitrary: fc.oneof(v1Call(knownIds), v03Call(knownIds)) },
        fc.tuple(oddText, hostileValue),
      );
      const rpcProbe = fc
        .tuple(fc.constantFrom('/', '/agents/explore/', '/agents/explore'), rpcBody(method), headers())
        .map(([path, text, hs]) => ({ method: 'POST', path, headers: hs, body: text }));
      await fc.assert(
        fc.asyncProperty(rpcProbe, async (p) => check(await probe(p))),
        fuzzParams(2500),
      );
    },
    fuzzTimeout(2500),
  );

  it(
    'the gateway: selectors, API keys and workspaces, mutated v0.3 params',
    async () => {
      const selector = fc.oneof(
        { weight: 6, arbitrary: fc.constant({ agent_code: 'explore' }) },
        fc.record(
          {
            agent_code: fc.oneof(fc.constantFrom('explore', 'a2a'), oddText, hostileValue),
            agent_id: fc.oneof(fc.constantFrom('explore', 'nope'), oddText),
          },
          { requiredKeys: [] },
        ),
      );
      const method = fc.oneof(
        { weight: 6, arbitrary: v03Call(knownIds) },
        v1Call(knownIds),
        fc.tuple(oddText, hostileValue),
      );
      const gatewayProbe = fc
        .tuple(
          rpcBody(method, selector),
          headers({
            'X-API-Key': fc.oneof(
              { weight: 6, arbitrary: fc.constantFrom('key-1', 'key-2', 'key-2') },
              fc.constantFrom(undefined, 'key-3'),
              oddText,
            ),
            'X-Workspace-ID': fc.oneof(
              { weight: 6, arbitrary: fc.constantFrom('ws-1', 'ws-2') },
              fc.constantFrom(undefined, 'ws-3'),
              oddText,
            ),
          }),
        )
        .map(([text, hs]) => ({ method: 'POST', path: '/agents/a2a', headers: hs, body: text }));
      await fc.assert(
        fc.asyncProperty(gatewayProbe, async (p) => check(await probe(p))),
        fuzzParams(2000),
      );
    },
    fuzzTimeout(2000),
  );

  it(
    'the agent card: every spelling of its path, versions, conditional requests',
    async () => {
      const cardProbe = fc
        .tuple(
          fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS'),
          mount,
          fc.constantFrom(
            '/.well-known/agent-card.json',
            '/.well-known/agent.json',
            '/.well-known/%ZZ',
            '//.well-known/agent-card.json',
          ),
          queryString,
          headers({
            'If-None-Match': fc.option(
              fc.oneof(
                fc.constant('*'),
                oddText.filter((s) => /^[\x20-\x7e]*$/.test(s)),
              ),
              { nil: undefined },
            ),
          }),
        )
        .map(([method, base, path, query, hs]) => ({ method, path: `${base}${path}${query}`, headers: hs }));
      await fc.assert(
        fc.asyncProperty(cardProbe, async (p) => check(await probe(p))),
        fuzzParams(600),
      );
    },
    fuzzTimeout(600),
  );

  it(
    'whatever came before: a sequence of mixed requests leaves the server answering',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(restProbe, { minLength: 2, maxLength: 6 }), async (probes) => {
          for (const p of probes) check(await probe(p));
          checkRest(target, await probe({ method: 'GET', path: '/_sim/health', headers: {} }));
        }),
        fuzzParams(300),
      );
    },
    fuzzTimeout(300, 200),
  );
});
