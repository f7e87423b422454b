/**
 * Seeded fuzzing of task isolation: a task created in one place (a tenant of the root agent, a
 * tenant of the `explore` agent, a gateway workspace; over REST, JSON-RPC or the gateway; tenants
 * and workspaces named at random, odd names included) is visible from that place on every binding,
 * and "not found" from any other: GetTask, CancelTask and ListTasks alike.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { JSON_HEADERS, rpcEnvelope, V1_HEADERS, v03Send, v1Send } from '../helpers/wire.js';
import { encodeSegment, fuzzParams, fuzzTimeout, oddText } from './arbitraries.js';
import { bugLogger, checkRest, checkRpc, exchange, type Exchange, type Target } from './oracle.js';

let t: TestSim;
let target: Target;
beforeAll(async () => {
  const errors: string[] = [];
  t = await startSim({ speed: 0, apiKeys: { 'key-any': ['*'] }, logger: bugLogger(errors) });
  target = { url: t.url, clock: t.clock, faults: [], errors };
});
afterAll(() => t.close());

/** Where a task lives: the root agent's or explore's tenant (none: ''), or a gateway workspace. */
interface Place {
  kind: 'root' | 'agent' | 'gateway';
  name: string;
}

/** Names REST reads as something else at the start of a path (its routes, the agents). */
const RESERVED = new Set([
  'tasks',
  'message:send',
  'message:stream',
  'extendedAgentCard',
  'agents',
  '_sim',
  '.well-known',
]);

const tenantName = fc
  .oneof(fc.constantFrom('', 'acme', 'Acme', 'acme ', 'a|b', 'tenant:x', 'agent:explore', 'ws-1'), oddText)
  .filter((name) => !/[\uD800-\uDFFF]/.test(name) && !RESERVED.has(name) && name.length < 300);
const workspaceName = fc
  .oneof(fc.constantFrom('ws-1', 'WS-1', 'default', 'acme', 'a|b', 'workspace:x'), oddText)
  .map((name) => name.replace(/[^\x21-\x7e]/g, '').slice(0, 100))
  .filter((name) => name !== '');

const place: fc.Arbitrary<Place> = fc.oneof(
  tenantName.map((name) => ({ kind: 'root' as const, name })),
  tenantName.map((name) => ({ kind: 'agent' as const, name })),
  workspaceName.map((name) => ({ kind: 'gateway' as const, name })),
);

const binding = fc.constantFrom('rest' as const, 'rpc' as const);
const samePlace = (a: Place, b: Place) => a.kind === b.kind && a.name === b.name;
const WEATHER = 'What is the weather today?';

/** One operation in `at`, over REST or JSON-RPC (the gateway has only its own JSON-RPC). */
async function call(
  at: Place,
  via: 'rest' | 'rpc',
  op: 'send' | 'get' | 'cancel' | 'list',
  id = '',
): Promise<Exchange> {
  if (at.kind === 'gateway') {
    const [method, params] =
      op === 'send'
        ? ['message/send', v03Send(WEATHER, { messageId: 'm' })]
        : [op === 'cancel' ? 'tasks/cancel' : 'tasks/get', { id }];
    const x = await exchange(target, {
      method: 'POST',
      path: t.sim.gatewayPath,
      headers: { ...JSON_HEADERS, 'X-API-Key': 'key-any', 'X-Workspace-ID': at.name },
      body: JSON.stringify(rpcEnvelope(method, params, { agent_code: 'explore' })),
    });
    checkRpc(target, x, [200]);
    return x;
  }
  const base = at.kind === 'agent' ? '/agents/explore' : '';
  if (via === 'rpc') {
    const method = { send: 'SendMessage', get: 'GetTask', cancel: 'CancelTask', list: 'ListTasks' }[op];
    const params =
      op === 'send' ? v1Send(WEATHER, { messageId: 'm' }) : op === 'list' ? { pageSize: 100 } : { id };
    const x = await exchange(target, {
      method: 'POST',
      path: `${base}/`,
      headers: { ...JSON_HEADERS, ...V1_HEADERS },
      body: JSON.stringify(rpcEnvelope(method, { ...params, ...(at.name && { tenant: at.name }) })),
    });
    checkRpc(target, x, [200]);
    return x;
  }
  const prefix = `${base}${at.name ? `/${encodeSegment(at.name)}` : ''}`;
  // A v1.0 client says so: under a tenant named `v1`, that is what tells its paths from the v0.3
  // HTTP+JSON binding's (/v1/message:send).
  const x = await exchange(
    target,
    op === 'send'
      ? {
          method: 'POST',
          path: `${prefix}/message:send`,
          headers: { ...JSON_HEADERS, ...V1_HEADERS },
          body: JSON.stringify(v1Send(WEATHER, { messageId: 'm' })),
        }
      : op === 'list'
        ? { method: 'GET', path: `${prefix}/tasks?pageSize=100`, headers: V1_HEADERS }
        : op === 'get'
          ? { method: 'GET', path: `${prefix}/tasks/${encodeURIComponent(id)}`, headers: V1_HEADERS }
          : { method: 'POST', path: `${prefix}/tasks/${encodeURIComponent(id)}:cancel`, headers: V1_HEADERS },
  );
  checkRest(target, x);
  return x;
}

/** Whether the answer shows the task: found (or, for a cancel, found but already ended). */
function sees(x: Exchange, op: 'get' | 'cancel' | 'list', id: string): boolean {
  const body = JSON.parse(x.body);
  const value = body.result ?? body;
  if (op === 'list') return (value.tasks as { id: string }[]).some((task) => task.id === id);
  const reason =
    body.error?.details?.[0]?.reason ?? body.error?.data?.[0]?.reason ?? body.error?.data?.reason;
  if (reason === 'TASK_NOT_FOUND') return false;
  expect([undefined, 'TASK_NOT_CANCELABLE'], x.body).toContain(reason);
  return true;
}

describe('fuzz: a task is visible where it was created, and nowhere else', () => {
  it(
    'across tenants, agents and workspaces with random names, over every binding',
    async () => {
      const scenario = fc.tuple(
        place,
        place,
        binding,
        binding,
        fc.constantFrom('get' as const, 'cancel' as const, 'list' as const),
      );
      await fc.assert(
        fc.asyncProperty(scenario, async ([home, other, createVia, readVia, op]) => {
          const created = await call(home, createVia, 'send');
          const body = JSON.parse(created.body);
          const id: string = body.task?.id ?? body.result?.task?.id ?? body.result?.id;
          expect(id, created.body).toMatch(/^[0-9a-f-]{36}$/);
          if (op === 'list' && other.kind === 'gateway') return;
          expect(
            sees(
              await call(home, readVia, op === 'list' && home.kind === 'gateway' ? 'get' : op, id),
              op === 'list' && home.kind === 'gateway' ? 'get' : op,
              id,
            ),
          ).toBe(true);
          expect(sees(await call(other, readVia, op, id), op, id)).toBe(samePlace(home, other));
        }),
        fuzzParams(600),
      );
    },
    fuzzTimeout(600, 100),
  );
});
