/**
 * A reconnecting client, written here, recovers the whole event sequence of the slow report under
 * every built-in chaos profile and on every streaming dialect. It parses SSE for real, dedups by
 * seq, resubscribes with its last seq when a stream breaks (cut, reset, or silent past a read
 * timeout measured on the virtual clock), waits Retry-After on a 503/429, and ignores the id-less
 * frames of quirks. "Whole" means: seqs 1..last with the payloads of a clean replay from seq 0
 * (`X-Sim-Chaos: off`, after the task ended), the last being the completed status.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { SseReader, type SseEvent } from '../helpers/sse.js';
import {
  cursorHeader,
  postForStream as post,
  RETURN_IMMEDIATELY,
  rpcEnvelope,
  v03Send,
  V1_HEADERS,
  v1Send,
} from '../helpers/wire.js';
import { faultsOf, REPORT_TEXT, settle, sleep } from './helpers.js';

const PROFILES = [
  'flaky-mobile',
  'lossy-proxy',
  'duplicate-storm',
  'hanging-proxy',
  'flaky-backend',
  'quirky-agent',
];
/** With this seed the chaos draws refuse at least one of the client's calls under flaky-backend. */
const SEED = 'reconnect';
/** No event for this long (virtual time) means the stream is dead; the report sends one every 2 s. */
const READ_TIMEOUT_MS = 8_000;
const GATEWAY_HEADERS = { 'X-API-Key': 'chaos-key', 'X-Workspace-ID': 'ws-chaos' };

interface Binding {
  name: string;
  /** Starts the report without waiting for it: a non-streaming call, so a refusal can be retried. */
  start(t: TestSim, headers: Record<string, string>): Promise<Response>;
  taskIdOf(answer: any): string;
  subscribe(
    t: TestSim,
    taskId: string,
    afterSeq: number,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response>;
  getTask(t: TestSim, taskId: string, headers: Record<string, string>): Promise<Response>;
  stateOf(answer: any): string;
  payload(event: SseEvent): any;
  isCompleted(payload: any): boolean;
}

const v1Completed = (p: any) => p.statusUpdate?.status.state === 'TASK_STATE_COMPLETED';
const v03Completed = (p: any) => p.kind === 'status-update' && p.status.state === 'completed';
const v03 = (
  path: string,
  extraHeaders: Record<string, string>,
  selector: Record<string, string>,
): Omit<Binding, 'name'> => ({
  start: (t, h) =>
    post(
      t,
      path,
      rpcEnvelope(
        'message/send',
        v03Send(REPORT_TEXT, { messageId: 'rc-1' }, { configuration: { blocking: false } }),
        { id: 's', ...selector },
      ),
      { ...extraHeaders, ...h },
    ),
  taskIdOf: (answer) => answer.result.id,
  subscribe: (t, taskId, afterSeq, h, signal) =>
    post(
      t,
      path,
      rpcEnvelope('tasks/resubscribe', { taskId, afterSeq }, { id: 'r', ...selector }),
      { ...extraHeaders, ...h },
      signal,
    ),
  getTask: (t, id, h) =>
    post(t, path, rpcEnvelope('tasks/get', { id }, { id: 'g', ...selector }), { ...extraHeaders, ...h }),
  stateOf: (answer) => answer.result.status.state,
  payload: (event) => event.json.result,
  isCompleted: v03Completed,
});

const BINDINGS: Binding[] = [
  {
    name: 'REST',
    start: (t, h) =>
      post(t, '/message:send', v1Send(REPORT_TEXT, { messageId: 'rc-1' }, RETURN_IMMEDIATELY), h),
    taskIdOf: (answer) => answer.task.id,
    subscribe: (t, id, afterSeq, h, signal) =>
      fetch(`${t.url}/tasks/${id}:subscribe`, {
        headers: { Accept: 'text/event-stream', ...cursorHeader(afterSeq), ...h },
        ...(signal && { signal }),
      }),
    getTask: (t, id, h) => fetch(`${t.url}/tasks/${id}`, { headers: h }),
    stateOf: (answer) => answer.status.state,
    payload: (event) => event.json,
    isCompleted: v1Completed,
  },
  {
    name: 'JSON-RPC 1.0',
    start: (t, h) =>
      post(
        t,
        '/',
        rpcEnvelope('SendMessage', v1Send(REPORT_TEXT, { messageId: 'rc-1' }, RETURN_IMMEDIATELY), {
          id: 's',
        }),
        { ...V1_HEADERS, ...h },
      ),
    taskIdOf: (answer) => answer.result.task.id,
    subscribe: (t, id, afterSeq, h, signal) =>
      post(
        t,
        '/',
        rpcEnvelope('SubscribeToTask', { id }, { id: 'r' }),
        { ...V1_HEADERS, ...cursorHeader(afterSeq), ...h },
        signal,
      ),
    getTask: (t, id, h) => post(t, '/', rpcEnvelope('GetTask', { id }, { id: 'g' }), { ...V1_HEADERS, ...h }),
    stateOf: (answer) => answer.result.status.state,
    payload: (event) => event.json.result,
    isCompleted: v1Completed,
  },
  { name: 'JSON-RPC 0.3', ...v03('/', {}, {}) },
  { name: 'gateway (v0.3)', ...v03('/agents/a2a', GATEWAY_HEADERS, { agent_code: 'explore' }) },
];

interface ClientLog {
  taskId: string;
  /** seq → the `data:` line first received for it. */
  data: Map<number, string>;
  payloads: any[];
  connections: number;
  /** Streams that ended, failed or went silent before the completed status. */
  broken: number;
  timeouts: number;
  duplicates: number;
  idless: number;
  /** Each 503/429 met: status, Retry-After (s), and how long the client waited before the next try. */
  refusals: { status: number; retryAfter: number; waited: number }[];
  finalState: string;
}

const TIMEOUT = Symbol('timeout');

/** The reconnecting client under test. Everything it does is driven by the virtual clock. */
async function reconnectingClient(t: TestSim, b: Binding): Promise<ClientLog> {
  const log: ClientLog = {
    taskId: '',
    data: new Map(),
    payloads: [],
    connections: 0,
    broken: 0,
    timeouts: 0,
    duplicates: 0,
    idless: 0,
    refusals: [],
    finalState: '',
  };

  /** A non-streaming call, retried after Retry-After while it is refused. */
  const call = async (send: () => Promise<Response>): Promise<any> => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await send();
      if (response.status !== 503 && response.status !== 429) {
        expect(response.status).toBe(200);
        const answer = (await response.json()) as any;
        expect(answer.error).toBeUndefined();
        return answer;
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      await response.arrayBuffer();
      const refusedAt = t.clock.now();
      await sleep(t, retryAfter * 1_000);
      log.refusals.push({ status: response.status, retryAfter, waited: t.clock.now() - refusedAt });
    }
    throw new Error('still refused after 20 attempts');
  };

  /** The next event, undefined at the end of the stream, or TIMEOUT after a silence. */
  const nextWithin = async (reader: SseReader): Promise<SseEvent | undefined | typeof TIMEOUT> => {
    let timer: { cancel(): void } | undefined;
    const silence = new Promise<typeof TIMEOUT>(
      (resolve) => (timer = t.clock.setTimer(READ_TIMEOUT_MS, () => resolve(TIMEOUT))),
    );
    try {
      return await Promise.race([reader.next(), silence]);
    } finally {
      timer!.cancel();
    }
  };

  log.taskId = b.taskIdOf(await call(() => b.start(t, {})));
  let lastSeq = 0;
  let completed = false;
  while (!completed) {
    if (++log.connections > 100) throw new Error('no progress after 100 connections');
    const abort = new AbortController();
    let reader: SseReader;
    try {
      const response = await b.subscribe(t, log.taskId, lastSeq, {}, abort.signal);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      reader = new SseReader(response);
    } catch {
      log.broken++; // reset before the headers
      continue;
    }
    try {
      for (;;) {
        const event = await nextWithin(reader);
        if (event === TIMEOUT) {
          if (!completed) log.timeouts++;
          break;
        }
        if (event === undefined) break;
        if (event.id === undefined) {
          log.idless++; // a quirk's frame: not in the task's log
          continue;
        }
        const seq = Number(event.id);
        if (seq <= lastSeq) {
          expect(event.data, `copy of seq ${seq}`).toBe(log.data.get(seq));
          log.duplicates++;
          continue;
        }
        expect(seq, 'no gap').toBe(lastSeq + 1);
        log.data.set(seq, event.data);
        log.payloads.push(b.payload(event));
        lastSeq = seq;
        completed ||= b.isCompleted(b.payload(event));
      }
    } catch {
      // reset mid-stream: resubscribe with the last seq
    }
    abort.abort();
    if (!completed) log.broken++;
  }
  log.finalState = b.stateOf(await call(() => b.getTask(t, log.taskId, {})));
  return log;
}

/** The task's events read cleanly after it ended: from seq 0, chaos off. */
async function cleanReplay(t: TestSim, b: Binding, taskId: string): Promise<SseEvent[]> {
  const reader = new SseReader(await b.subscribe(t, taskId, 0, { 'X-Sim-Chaos': 'off' }));
  return settle(t, reader.rest());
}

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(PROFILES)('under %s', (profile) => {
  it.each(BINDINGS)(
    '$name: the client recovers seqs 1..last, payloads equal to a clean replay, last completed',
    async (b) => {
      t = await startSim({ seed: SEED, chaos: profile, apiKeys: { 'chaos-key': ['ws-chaos'] } });
      const sim = t;
      const log = await settle(sim, reconnectingClient(sim, b));
      const reference = await cleanReplay(sim, b, log.taskId);

      expect([...log.data.keys()]).toEqual(reference.map((e) => Number(e.id)));
      expect([...log.data.keys()]).toEqual(reference.map((_, i) => i + 1));
      expect(log.payloads).toEqual(reference.map(b.payload));
      expect(b.isCompleted(log.payloads.at(-1))).toBe(true);
      expect(log.finalState).toMatch(/^(TASK_STATE_COMPLETED|completed)$/);

      // What the client met is what the fault log says chaos did.
      const faults = await faultsOf(sim, { taskId: log.taskId });
      const of = (kind: string) => faults.filter((f) => f.kind === kind);
      const last = reference.length;
      expect(log.connections - 1).toBe(of('drop').filter((d) => d.seq! < last).length);
      expect(log.broken).toBe(log.connections - 1);
      expect(log.timeouts).toBe(of('drop').filter((d) => d.detail.mode === 'hang').length);
      expect(log.idless).toBe(of('quirk').filter((q) => q.detail.quirk !== 'keep-alive-flood').length);
      expect(log.duplicates).toBeLessThanOrEqual(of('duplicate').length);
      const refusals = (await faultsOf(sim, { kind: 'error' })).length;
      expect(log.refusals.length).toBe(refusals);
      for (const r of log.refusals) expect(r.waited).toBe(r.retryAfter * 1_000);

      // Each profile did disturb this run, so the recovery above was not trivial.
      const met = {
        'flaky-mobile': () => of('delay').length,
        'lossy-proxy': () => log.broken,
        'duplicate-storm': () => (expect(log.duplicates).toBe(of('duplicate').length), log.duplicates),
        'hanging-proxy': () => log.timeouts,
        'flaky-backend': () => log.refusals.length,
        'quirky-agent': () => log.idless,
      }[profile]!();
      expect(met).toBeGreaterThan(0);
    },
  );
});
