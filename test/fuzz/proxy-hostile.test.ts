/**
 * Seeded fuzzing of the proxy against a hostile agent: for each run, the agent answers the
 * simulator's call with a random plan (a body of any status and media type, valid or not, nested
 * deep, with thousands of artifacts, or too large; a stream of random frames that ends, breaks or
 * goes silent; a line or a stream or a body that never ends; a redirect to another origin; the
 * call sent straight back to the simulator) and a client calls the simulator over REST or JSON-RPC,
 * plain or streaming. Whatever the agent does, the client gets a well-formed A2A answer or error,
 * nothing is logged as a simulator bug, the store stays within its budget, what never ends is let
 * go, no credential leaves for another origin, and `GET /_sim/health` answers meanwhile.
 * Virtual time: the oracle moves each simulator's clock whenever nothing else happens.
 */
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_AGENT_EVENT_BYTES, MAX_AGENT_LIST_LENGTH } from '../../src/upstream/limits.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { JSON_HEADERS, rpcEnvelope, V1_HEADERS } from '../helpers/wire.js';
import {
  frame,
  openSse,
  sendJson,
  startHostileAgent,
  v1Card,
  write,
  type HostileAgent,
  type Received,
} from '../upstream/hostile-agent.js';
import { fuzzParams, fuzzTimeout, nested } from './arbitraries.js';
import { bugLogger, exchange, type Exchange, type Probe, type Target } from './oracle.js';

const RUNS = 30;
const STORE_BUDGET = 2 * 1024 * 1024;
/** Each stopped relay's failed status is let in past the budget: a few hundred bytes apiece. */
const STORE_SLACK = 64 * 1024;
/** How much an endless answer may write before the simulator must have let it go. */
const FLOOD_CAP = 48 * 1024 * 1024;

type Via = 'streaming' | 'plain' | 'rpc';
type Call = 'rest-send' | 'rest-stream' | 'rpc-send' | 'rpc-stream';

type Body =
  | { kind: 'task'; state: string; artifacts: number }
  | { kind: 'message' }
  | { kind: 'json'; value: unknown }
  | { kind: 'deep'; depth: number }
  | { kind: 'text'; text: string };

type Plan =
  | { kind: 'answer'; status: number; contentType: string; body: Body }
  | { kind: 'stream'; frames: Body[]; longLine: boolean; end: 'close' | 'silent' | 'cut' }
  | { kind: 'hang' }
  | { kind: 'redirect'; status: number }
  | { kind: 'back-to-sender' }
  | { kind: 'flood'; what: 'line' | 'events' | 'body' };

const STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_INPUT_REQUIRED',
  'DONE',
];

const body: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('task' as const),
      state: fc.constantFrom(...STATES),
      artifacts: fc.oneof(fc.nat(3), fc.constant(MAX_AGENT_LIST_LENGTH + 1)),
    }),
  },
  fc.constant({ kind: 'message' as const }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 60, max: 5000 }) }),
  fc.record({ kind: fc.constant('text' as const), text: fc.string({ maxLength: 40 }) }),
);

const plan: fc.Arbitrary<Plan> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      status: fc.constantFrom(200, 200, 200, 202, 400, 404, 429, 500, 503, 508),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/a2a+json',
        'text/html',
        'text/event-stream',
        '',
      ),
      body,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('stream' as const),
      frames: fc.array(body, { maxLength: 6 }),
      longLine: fc.boolean(),
      end: fc.constantFrom('close' as const, 'silent' as const, 'cut' as const),
    }),
  },
  fc.constant({ kind: 'hang' as const }),
  fc.record({ kind: fc.constant('redirect' as const), status: fc.constantFrom(301, 302, 303, 307, 308) }),
  fc.constant({ kind: 'back-to-sender' as const }),
  fc.record({
    kind: fc.constant('flood' as const),
    what: fc.constantFrom('line' as const, 'events' as const, 'body' as const),
  }),
);

let agent: HostileAgent;
let thief: HostileAgent;
const sims = {} as Record<Via, TestSim & { target: Target }>;
/** What the agent does with the run's first call; later calls (polls, resubscribes) get a 404. */
let current: { plan: Plan; via: Via; taskId: string; taken: boolean } | undefined;
/** The endless answers of the current run: how much each wrote, and whether the simulator hung up on it. */
const floods: { written: number; closed: Promise<boolean> }[] = [];

beforeAll(async () => {
  thief = await startHostileAgent({ answer: (_req, res) => sendJson(res, 200, {}) });
  agent = await startHostileAgent({
    answer: async (req, res) => {
      const card = /^\/(streaming|plain|rpc)\.json$/.exec(req.path)?.[1] as Via | undefined;
      if (card) return sendJson(res, 200, cardOf(card));
      const run = current;
      if (!run || run.taken)
        return sendJson(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: 'No such task' } });
      run.taken = true;
      await play(run, req, res);
    },
  });
  for (const via of ['streaming', 'plain', 'rpc'] as const) {
    const errors: string[] = [];
    const t = await startSim({
      logger: bugLogger(errors),
      retention: { maxStoreBytes: STORE_BUDGET },
      proxy: {
        url: `${agent.url}/${via}.json`,
        all: true,
        timeout: '2s',
        headers: { 'x-agent-secret': 'configured' },
      },
    });
    sims[via] = { ...t, target: { url: t.url, clock: t.clock, faults: [], errors } };
  }
});

afterAll(async () => {
  await Promise.all(Object.values(sims).map((t) => t.close()));
  await agent.close();
  await thief.close();
});

function cardOf(via: Via) {
  if (via === 'rpc') {
    const card = v1Card(agent.url, { streaming: true });
    return {
      ...card,
      supportedInterfaces: [{ url: `${agent.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    };
  }
  return v1Card(agent.url, { streaming: via === 'streaming' });
}

/** The wire JSON of `b`, as a REST body or a JSON-RPC result (`id` given). */
function render(b: Body, taskId: string, streamed: boolean, id?: unknown): string {
  const wrap = (value: unknown) => (id === undefined ? value : { jsonrpc: '2.0', id, result: value });
  const ctx = `ctx-${taskId}`;
  switch (b.kind) {
    case 'task': {
      const artifacts = Array.from({ length: b.artifacts }, (_, i) => ({
        artifactId: `a-${i}`,
        parts: [{ text: 'x' }],
      }));
      const task = {
        id: taskId,
        contextId: ctx,
        status: { state: b.state },
        ...(artifacts.length && { artifacts }),
      };
      if (streamed && b.artifacts === 0)
        return JSON.stringify(wrap({ statusUpdate: { taskId, contextId: ctx, status: task.status } }));
      return JSON.stringify(wrap({ task }));
    }
    case 'message':
      return JSON.stringify(
        wrap({ message: { messageId: `m-${taskId}`, role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }),
      );
    case 'json':
      return JSON.stringify(id === undefined ? b.value : { jsonrpc: '2.0', id, result: b.value });
    case 'deep':
      return JSON.stringify(
        wrap({
          task: {
            id: taskId,
            contextId: ctx,
            status: { state: 'TASK_STATE_WORKING' },
            metadata: nested(b.depth),
          },
        }),
      );
    case 'text':
      return b.text;
  }
}

async function play(run: NonNullable<typeof current>, req: Received, res: ServerResponse): Promise<void> {
  const { plan: p, taskId } = run;
  const id = run.via === 'rpc' ? (req.body?.id ?? null) : undefined;
  switch (p.kind) {
    case 'hang':
      return;
    case 'redirect':
      res.writeHead(p.status, { Location: `${thief.url}${req.path}` }).end();
      return;
    case 'back-to-sender': {
      const { host: _, 'content-length': __, connection: ___, ...headers } = req.headers;
      // The simulator's JSON-RPC endpoint is its root.
      const path = run.via === 'rpc' ? '/' : req.path;
      const back = await fetch(`${sims[run.via].url}${path}`, {
        method: req.method,
        headers,
        ...(req.body !== undefined && { body: JSON.stringify(req.body) }),
      }).catch(() => undefined);
      if (!back) return void res.destroy();
      res.writeHead(back.status, { 'Content-Type': back.headers.get('content-type') ?? 'text/plain' });
      res.end(await back.text());
      return;
    }
    case 'answer': {
      const text = render(p.body, taskId, false, id);
      res.writeHead(p.status, p.contentType ? { 'Content-Type': p.contentType } : {});
      res.end(text);
      return;
    }
    case 'stream': {
      openSse(res);
      for (const f of p.frames) if (!(await write(res, `data: ${render(f, taskId, true, id)}\n\n`))) return;
      if (p.longLine) await write(res, `data: ${'L'.repeat(MAX_AGENT_EVENT_BYTES + 1024)}`);
      if (p.end === 'close') res.end();
      if (p.end === 'cut') res.destroy();
      return;
    }
    case 'flood': {
      const closed = new Promise<boolean>((resolve) =>
        res.once('close', () => resolve(!res.writableFinished)),
      );
      const flood = { written: 0, closed };
      floods.push(flood);
      const chunk = 'F'.repeat(256 * 1024);
      if (p.what === 'body') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        await write(
          res,
          `{"task":{"id":"${taskId}","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"metadata":{"a":"`,
        );
      } else {
        openSse(res);
        if (p.what === 'line') await write(res, 'data: ');
        else
          await write(
            res,
            frame(
              id === undefined
                ? { task: { id: taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } }
                : {
                    jsonrpc: '2.0',
                    id,
                    result: { task: { id: taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } },
                  },
            ),
          );
      }
      for (let n = 0; flood.written < FLOOD_CAP; n++) {
        const piece =
          p.what === 'events'
            ? frame(
                wrapResult(id, {
                  artifactUpdate: {
                    taskId,
                    contextId: 'c',
                    artifact: { artifactId: 'f', parts: [{ text: chunk }] },
                    append: n > 0,
                  },
                }),
              )
            : chunk;
        if (!(await write(res, piece))) return;
        flood.written += piece.length;
      }
      res.end();
      return;
    }
  }
}

function wrapResult(id: unknown, value: unknown) {
  return id === undefined ? value : { jsonrpc: '2.0', id, result: value };
}

let sequence = 0;

function probeOf(call: Call): Probe {
  const message = {
    message: { role: 'ROLE_USER', messageId: `fz-${++sequence}`, parts: [{ text: 'hostile' }] },
  };
  const credentials = { Authorization: 'Bearer client-token', 'X-API-Key': 'client-key' };
  switch (call) {
    case 'rest-send':
    case 'rest-stream':
      return {
        method: 'POST',
        path: call === 'rest-send' ? '/message:send' : '/message:stream',
        headers: { ...JSON_HEADERS, ...credentials },
        body: JSON.stringify(message),
      };
    case 'rpc-send':
    case 'rpc-stream': {
      const method = call === 'rpc-send' ? 'SendMessage' : 'SendStreamingMessage';
      return {
        method: 'POST',
        path: '/',
        headers: { ...JSON_HEADERS, ...V1_HEADERS, ...credentials },
        body: JSON.stringify(rpcEnvelope(method, message)),
      };
    }
  }
}

const show = (x: Exchange, p: Plan) =>
  `${JSON.stringify(p).slice(0, 300)}\n${x.probe.path} → ${x.status} ${x.error ?? ''} ${x.body.slice(0, 400)}`;

/** Each frame's data, parsed: every frame must hold JSON. */
function framesOf(x: Exchange): { event?: string; data: any }[] {
  return x.body
    .split('\n\n')
    .filter((f) => f.split('\n').some((line) => line.startsWith('data:')))
    .map((f) => {
      const lines = f.split('\n');
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      return { ...(event && { event }), data: JSON.parse(data) };
    });
}

/** A google.rpc.Status whose code is `status`. */
function expectStatusBody(body: any, status: number | undefined, why: string): void {
  expect(body?.error, why).toMatchObject({
    code: status,
    status: expect.stringMatching(/^[A-Z_]+$/),
    message: expect.any(String),
  });
}

const RESULT_MEMBERS = ['task', 'message', 'statusUpdate', 'artifactUpdate'];

function checkAnswer(x: Exchange, call: Call, p: Plan): void {
  const why = show(x, p);
  expect(x.error, why).toBeUndefined();
  expect(x.status, why).toBeDefined();
  expect(x.open, `an answer that never ended: ${why}`).toBe(false);
  expect(x.body, why).not.toMatch(/simulator bug/);
  const sse = String(x.headers['content-type'] ?? '').startsWith('text/event-stream');
  if (call.startsWith('rest')) {
    if (sse) {
      for (const { data } of framesOf(x)) {
        if (data.error) expectStatusBody(data, data.error.code, why);
        else
          expect(
            Object.keys(data).filter((k) => RESULT_MEMBERS.includes(k)),
            why,
          ).toHaveLength(1);
      }
      return;
    }
    const body = JSON.parse(x.body);
    if (x.status === 200)
      expect(
        Object.keys(body).filter((k) => RESULT_MEMBERS.includes(k)),
        why,
      ).toHaveLength(1);
    else expectStatusBody(body, x.status, why);
    return;
  }
  const envelopes = sse ? framesOf(x).map((f) => f.data) : [JSON.parse(x.body)];
  for (const envelope of envelopes) {
    expect(envelope.jsonrpc, why).toBe('2.0');
    expect(envelope.id, why).toBe(1);
    expect('result' in envelope !== 'error' in envelope, why).toBe(true);
    if (envelope.error) {
      expect(Number.isInteger(envelope.error.code), why).toBe(true);
      expect(typeof envelope.error.message, why).toBe('string');
    }
  }
}

it(
  'answers every client call well-formed, within its caps, and stays responsive, whatever the agent does',
  async () => {
    await fc.assert(
      fc.asyncProperty(
        plan,
        fc.constantFrom<Via>('streaming', 'plain', 'rpc'),
        fc.constantFrom<Call>('rest-send', 'rest-stream', 'rpc-send', 'rpc-stream'),
        async (p, via, call) => {
          const t = sims[via];
          current = { plan: p, via, taskId: `fz-task-${++sequence}`, taken: false };
          const [x, health] = await Promise.all([
            exchange(t.target, probeOf(call)),
            exchange(t.target, { method: 'GET', path: '/_sim/health', headers: {} }),
          ]);
          checkAnswer(x, call, p);
          expect(health.status).toBe(200);
          expect(t.target.errors, show(x, p)).toEqual([]);
          expect(t.sim.store.bytes, show(x, p)).toBeLessThanOrEqual(STORE_BUDGET + STORE_SLACK);
          for (const flood of floods.splice(0)) {
            // What never ends was let go long before it could end on its own.
            expect(await flood.closed, show(x, p)).toBe(true);
            expect(flood.written, show(x, p)).toBeLessThan(FLOOD_CAP);
          }
          expect(thief.received, show(x, p)).toEqual([]);
        },
      ),
      fuzzParams(RUNS),
    );
  },
  fuzzTimeout(RUNS, 2000),
);
