/**
 * Call faults: refused non-streaming calls over REST and JSON-RPC (503 and 429 with Retry-After,
 * 500, a JSON-RPC internal error, an empty reply, a reset), the Nth call failing, refusals creating
 * nothing, and bad `X-Sim-Chaos` / `metadata.chaos` values as InvalidParams naming the problem.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import {
  chaosHeader as chaos,
  getJson,
  postJson,
  RETURN_IMMEDIATELY,
  rpc,
  rpcEnvelope,
  V1_HEADERS,
  v1Send,
} from '../helpers/wire.js';
import { faultsOf, rawRequest, REPORT_TEXT, runUntil, settle } from './helpers.js';

const detail = (body: any, key: string) => body.find((d: any) => d[key] !== undefined)?.[key];

let t: TestSim;
let taskId: string;
beforeEach(async () => {
  t = await startSim({ keepAlive: 0 });
  const sent = await postJson(
    t,
    '/message:send',
    v1Send('What is the weather today?', { messageId: 'w-1' }, RETURN_IMMEDIATELY),
  );
  taskId = sent.body.task.id;
});
afterEach(() => t.close());

/** GetTask over REST or JSON-RPC 1.0, answered in full: status, Retry-After and body. */
async function getTask(binding: 'REST' | 'JSON-RPC 1.0', profile?: string) {
  const headers = profile === undefined ? {} : chaos(profile);
  const answer =
    binding === 'REST'
      ? await getJson(t, `/tasks/${taskId}`, headers)
      : await rpc(t, 'GetTask', { id: taskId }, { id: 'g-1', version: '1.0', headers });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: answer.body };
}

/** The `google.rpc.RetryInfo` among an error's details, if any. */
const retryInfo = (details: { '@type': string; retryDelay?: string }[]) =>
  details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');

const listTotal = async () => (await getJson(t, '/tasks', chaos('off'))).body.totalSize as number;

describe('call errors on a non-streaming call', () => {
  const CASES = [
    {
      error: '503',
      header: 'errors-kind=503, errors-retry-after=1500ms',
      http: 503,
      reason: 'UNAVAILABLE',
      code: -32000,
      rpcHttp: 503,
      retryAfter: '2',
      retryDelay: '1.500s',
    },
    {
      error: '429',
      header: 'errors-kind=429',
      http: 429,
      reason: 'RESOURCE_EXHAUSTED',
      code: -32000,
      rpcHttp: 429,
      retryAfter: '1',
      retryDelay: '1s',
    },
    {
      error: '500',
      header: 'errors-kind=500',
      http: 500,
      reason: 'INTERNAL',
      code: -32603,
      rpcHttp: 500,
      retryAfter: null,
      retryDelay: undefined,
    },
    {
      error: 'rpc-internal',
      header: 'errors-kind=rpc-internal',
      http: 500,
      reason: 'INTERNAL',
      code: -32603,
      rpcHttp: 200,
      retryAfter: null,
      retryDelay: undefined,
    },
  ];

  it.each(CASES)('errors-kind=$error over REST: HTTP $http, $reason, Retry-After $retryAfter', async (c) => {
    const answer = await getTask('REST', c.header);
    expect([answer.status, answer.retryAfter]).toEqual([c.http, c.retryAfter]);
    expect(answer.body.error).toMatchObject({ code: c.http, status: c.reason });
    expect(answer.body.error.message).toContain('simulated by chaos profile "header"');
    expect(retryInfo(answer.body.error.details)?.retryDelay).toBe(c.retryDelay);
    expect((await getTask('REST')).status).toBe(200); // the same call without chaos is fine
  });

  it.each(CASES)(
    'errors-kind=$error over JSON-RPC: HTTP $rpcHttp, code $code, Retry-After $retryAfter',
    async (c) => {
      const answer = await getTask('JSON-RPC 1.0', c.header);
      expect([answer.status, answer.retryAfter]).toEqual([c.rpcHttp, c.retryAfter]);
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 'g-1', error: { code: c.code } });
      expect(detail(answer.body.error.data, 'reason')).toBe(c.reason);
      // The wait in the body too: the SDK's JSON-RPC transport shows its caller no headers.
      expect(retryInfo(answer.body.error.data)?.retryDelay).toBe(c.retryDelay);
      expect((await getTask('JSON-RPC 1.0')).body.result.id).toBe(taskId);
    },
  );

  const RAW = [
    { name: 'REST', method: 'GET', path: () => `/tasks/${taskId}`, headers: {}, body: () => undefined },
    {
      name: 'JSON-RPC 1.0',
      method: 'POST',
      path: () => '/',
      headers: V1_HEADERS,
      body: () => rpcEnvelope('GetTask', { id: taskId }),
    },
  ];
  it.each(RAW)('errors-kind=empty over $name: the connection closes with no response at all', async (b) => {
    const x = rawRequest(t, b.method, b.path(), { ...b.headers, ...chaos('errors-kind=empty') }, b.body());
    await runUntil(t, () => x.closed, 'the connection to close');
    expect({ received: x.received, fin: x.fin, error: x.error }).toEqual({
      received: 0,
      fin: true,
      error: undefined,
    });
  });

  it.each(RAW)('errors-kind=reset over $name: the connection is reset with no response', async (b) => {
    const x = rawRequest(t, b.method, b.path(), { ...b.headers, ...chaos('errors-kind=reset') }, b.body());
    await runUntil(t, () => x.closed, 'the connection to close');
    expect({ received: x.received, error: x.error }).toEqual({ received: 0, error: 'ECONNRESET' });
    const [fault] = await faultsOf(t, { kind: 'error' });
    expect(fault).toMatchObject({ detail: { error: 'reset' }, request: { binding: b.name } });
  });

  it('errors-on-call=3 fails exactly the third call that has chaos, and only it', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await getTask('REST', 'errors-on-call=3')).status);
    expect(statuses).toEqual([200, 200, 503, 200, 200]);
    expect(await faultsOf(t, { kind: 'error' })).toMatchObject([{ detail: { error: '503', call: 3 } }]);
  });

  it("errors-on-call=2 counts each client's calls: one client's calls do not use up another's fault", async () => {
    const as = (client: string) => async () =>
      (await getJson(t, `/tasks/${taskId}`, { ...chaos('errors-on-call=2'), 'x-sim-client': client })).status;
    const [a, b] = [as('on-call-a'), as('on-call-b')];
    expect([await a(), await b(), await a(), await a(), await b(), await b()]).toEqual([
      200, 200, 503, 200, 503, 200,
    ]);
  });

  it('keeps clients with long names apart, each name kept short: a digest of the whole', async () => {
    // Two names of 4,000 characters that differ only in the last one.
    const names = ['a', 'b'].map((end) => `${'x'.repeat(3_999)}${end}`);
    const status = async (client: string) =>
      (await getJson(t, `/tasks/${taskId}`, { ...chaos('errors-on-call=1'), 'x-sim-client': client })).status;
    expect([await status(names[0]!), await status(names[1]!), await status(names[0]!)]).toEqual([
      503, 503, 200,
    ]);
    const verdicts = (await getJson(t, '/_sim/verdicts')).body.clients as { client: string }[];
    const kept = verdicts.map((v) => v.client).filter((c) => c.startsWith('xxx'));
    expect(new Set(kept).size).toBe(2);
    for (const client of kept) expect(client.length).toBeLessThanOrEqual(128);
  });

  it('a refused GetTask is in the fault log under its task, with its request', async () => {
    expect((await getTask('REST', 'errors-kind=503')).status).toBe(503);
    expect(await faultsOf(t, { taskId })).toMatchObject([
      {
        kind: 'error',
        taskId,
        detail: { error: '503' },
        request: { binding: 'REST', operation: 'GET /tasks/{id}' },
      },
    ]);
  });

  it.each(['REST', 'JSON-RPC 1.0'])(
    'a SendMessage refused over %s creates no task: ListTasks is unchanged',
    async (binding) => {
      const send = (profile: string) =>
        binding === 'REST'
          ? postJson(
              t,
              '/message:send',
              v1Send('Repeat after me: chaos', { messageId: 'refused-1' }),
              chaos(profile),
            )
          : rpc(t, 'SendMessage', v1Send('Repeat after me: chaos', { messageId: 'refused-1' }), {
              version: '1.0',
              headers: chaos(profile),
            });
      const before = await listTotal();
      expect((await settle(t, send('errors-kind=503'))).status).toBe(503);
      expect(await listTotal()).toBe(before);
      expect(t.sim.store.size).toBe(before);
      expect(await faultsOf(t, { kind: 'error' })).toMatchObject([{ request: { binding } }]);
      // The retry without chaos does create it: the count above could have moved.
      expect((await settle(t, send('off'))).status).toBe(200);
      expect(await listTotal()).toBe(before + 1);
    },
  );
});

describe('bad chaos settings are InvalidParams, naming the problem', () => {
  const BAD = [
    ['drop-mode=explode', '"drop-mode" must be one of fin, reset, hang, got "explode"'],
    ['drop-after-events=-1', '"drop-after-events" must be a whole number of 0 or more, got "-1"'],
    ['duplicate-probability=2', '"duplicate-probability" must be a probability from 0 to 1, got "2"'],
    ['latency-first-byte=soon', '"latency-first-byte": expected a duration like "500ms"'],
    ['latency-per-event=50..10ms', '"latency-per-event" must be a range min..max with min ≤ max'],
    ['drop-after-evnts=3', 'unknown key "drop-after-evnts"'],
    ['drop-after-events', '"drop-after-events" needs a value'],
    ['no-such-profile', 'no chaos profile "no-such-profile"'],
    ['profile=flaky-mobile, profile=nope', 'no chaos profile "nope"'],
  ];

  it.each(BAD)('X-Sim-Chaos: %s → REST 400 and JSON-RPC -32602 mentioning %j', async (header, problem) => {
    const rest = await getJson(t, `/tasks/${taskId}`, chaos(header));
    expect(rest.status).toBe(400);
    const restError = rest.body.error;
    expect(restError).toMatchObject({ status: 'INVALID_ARGUMENT' });
    expect(restError.message).toContain(problem);
    expect(detail(restError.details, 'fieldViolations')).toMatchObject([{ field: 'X-Sim-Chaos' }]);

    const rpc = await getTask('JSON-RPC 1.0', header);
    expect(rpc.status).toBe(200);
    expect(rpc.body.error.code).toBe(-32602);
    expect(rpc.body.error.message).toContain(problem);
  });

  it('on v0.3 tasks/resubscribe, which always answers a stream, the refusal is its one error frame', async () => {
    const response = await rpc(
      t,
      'tasks/resubscribe',
      { taskId, afterSeq: 0 },
      {
        id: 'v03',
        headers: chaos('drop-after-events=lots'),
      },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frame = JSON.parse(/^data: (.*)$/m.exec(response.text)![1]!);
    expect(frame).toMatchObject({ id: 'v03', error: { code: -32602 } });
    expect(frame.error.message).toContain('"drop-after-events" must be a whole number');
  });

  it('a bad header on a stream is refused before the stream starts, and no task is created', async () => {
    const before = t.sim.store.size;
    const response = await postJson(
      t,
      '/message:stream',
      v1Send(REPORT_TEXT, { messageId: 'bad-1' }),
      chaos('drop-mode=explode'),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json;/);
    expect(t.sim.store.size).toBe(before);
  });

  it.each([
    ['drop-mode=explode', 'message.metadata.chaos: "drop-mode" must be one of fin, reset, hang'],
    [3, 'message.metadata.chaos: must be a string'],
    ['no-such-profile', 'metadata chaos: no chaos profile "no-such-profile"'],
  ])('metadata.chaos %j → InvalidParams mentioning %j', async (value, problem) => {
    const response = await postJson(
      t,
      '/message:send',
      v1Send('Hello there', { messageId: 'meta-1', metadata: { chaos: value } }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain(problem);
  });
});
