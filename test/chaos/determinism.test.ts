/**
 * Chaos is seeded and only touches the wire. The same seed, profile and requests give the same
 * fault log and byte-identical transcripts; another seed or profile gives other faults. And what
 * a task did, read cleanly afterwards (GetTask, a subscribe from seq 0 with `X-Sim-Chaos: off`),
 * is the same with and without a global profile, timestamps included.
 *
 * Requests go out at fixed virtual times (one slot each), and the server has taken each one before
 * the clock moves, so how fast the event loop runs cannot shift anything.
 */
import { expect, it } from 'vitest';
import { VirtualClock } from '../../src/index.js';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import {
  chaosHeader as chaos,
  getJson,
  JSON_HEADERS,
  RETURN_IMMEDIATELY,
  rpcEnvelope,
  v03Send,
  V1_HEADERS,
  v1Send,
} from '../helpers/wire.js';
import { faultsOf, REPORT_TEXT, settle, waitUntil } from './helpers.js';

const SLOT_MS = 100_000;
const PROFILE = 'flaky-mobile, errors-rate=0.3';

/** Moves the clock to the start of `slot`; every request of a session goes out at such a time. */
async function toSlot(t: TestSim, slot: number): Promise<void> {
  const target = VirtualClock.DEFAULT_START + slot * SLOT_MS;
  expect(t.clock.now()).toBeLessThanOrEqual(target);
  t.clock.advance(target - t.clock.now());
  await flushIo();
}

const errorCode = (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code ?? error);

/** Everything the body brought until the server ended it, and how it ended. */
async function readBody(response: Response): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
    }
    return `${text}[end]`;
  } catch (error) {
    return `${text}[broken: ${errorCode(error)}]`;
  }
}

/**
 * One request and its whole answer as a client saw it: status, the headers chaos can change, and
 * the body. The clock stays put until the server has the request (a task or a timer appeared, or
 * the answer came), then runs until the answer is complete.
 */
async function exchange(t: TestSim, request: () => Promise<Response>): Promise<string> {
  const [timers, tasks] = [t.clock.pending, t.sim.store.size];
  let answer: { response?: Response; error?: unknown } | undefined;
  const sent = request().then(
    (response) => (answer = { response }),
    (error: unknown) => (answer = { error }),
  );
  await waitUntil(
    () => answer !== undefined || t.clock.pending !== timers || t.sim.store.size !== tasks,
    'the server to take the request',
  );
  await settle(t, sent);
  if (!answer?.response) return `[no response: ${errorCode(answer?.error)}]`;
  const { status, headers } = answer.response;
  const head = `${status} ${headers.get('content-type')} retry-after=${headers.get('retry-after')}`;
  return `${head}\n${await settle(t, readBody(answer.response))}`;
}

const post =
  (t: TestSim, path: string, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...headers },
      body: JSON.stringify(body),
    });
const get =
  (t: TestSim, path: string, headers: Record<string, string> = {}) =>
  () =>
    fetch(`${t.url}${path}`, { headers });

/** The report and a weather task under `profile`, then replays and reads of the report under it. */
async function chaosSession(seed: string, profile: string) {
  const t = await startSim({ seed, keepAlive: 0 });
  try {
    const out: string[] = [];
    await toSlot(t, 0);
    out.push(
      await exchange(
        t,
        post(t, '/message:stream', v1Send(REPORT_TEXT, { messageId: 'd-1' }), chaos(profile)),
      ),
    );
    const reportId = (await getJson(t, '/tasks?pageSize=1', chaos('off'))).body.tasks[0].id as string;
    await toSlot(t, 1);
    const weather = v1Send('What is the weather today?', { messageId: 'd-2' }, RETURN_IMMEDIATELY);
    const sendWeather = rpcEnvelope('SendMessage', weather, { id: 'd-2' });
    out.push(await exchange(t, post(t, '/', sendWeather, { ...V1_HEADERS, ...chaos(profile) })));
    for (let i = 0; i < 4; i++) {
      await toSlot(t, 2 + i);
      out.push(
        await exchange(
          t,
          get(t, `/tasks/${reportId}:subscribe`, { 'Last-Event-ID': '0', ...chaos(profile) }),
        ),
      );
      out.push(await exchange(t, get(t, `/tasks/${reportId}`, chaos(profile))));
    }
    return { out, faults: (await getJson(t, '/_sim/faults')).text };
  } finally {
    await t.close();
  }
}

it('gives identical fault logs and byte-identical transcripts for the same seed, profile and requests', async () => {
  const a = await chaosSession('chaos-seed', PROFILE);
  const b = await chaosSession('chaos-seed', PROFILE);
  expect(b.faults).toBe(a.faults); // the whole body, nothing excluded
  expect(b.out).toEqual(a.out);

  // And there was plenty to reproduce: every kind of fault the profile can make, and broken reads.
  const faults = JSON.parse(a.faults).faults as { kind: string }[];
  expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(['delay', 'drop', 'duplicate', 'error']));
  expect(a.out.some((x) => x.includes('[broken: ECONNRESET]'))).toBe(true);
  expect(a.out.some((x) => x.startsWith('503 '))).toBe(true);
});

it('meets other faults with another seed or another profile', async () => {
  const pattern = (faults: string) =>
    (JSON.parse(faults).faults as any[]).map(({ taskId: _id, ...rest }) => JSON.stringify(rest));
  const base = await chaosSession('chaos-seed', PROFILE);
  const otherSeed = await chaosSession('another-seed', PROFILE);
  const otherProfile = await chaosSession('chaos-seed', 'duplicate-storm, errors-rate=0.3');
  expect(pattern(otherSeed.faults)).not.toEqual(pattern(base.faults));
  expect(pattern(otherProfile.faults)).not.toEqual(pattern(base.faults));
  expect(new Set(pattern(otherProfile.faults).map((f) => JSON.parse(f).kind))).not.toContain('drop');
});

it('meets the same faults under the older spellings of the keys as under the new ones', async () => {
  const withoutHeader = (faults: string) =>
    (JSON.parse(faults).faults as any[]).map(({ request: { chaos: _header, ...request }, ...rest }) => ({
      ...rest,
      request,
    }));
  const now = await chaosSession(
    'chaos-seed',
    'latency-first-byte=200ms, latency-per-event=0..300ms, drop-after-events=40, drop-probability=0.1, ' +
      'duplicate-probability=0.3, duplicate-late-by=1, errors-kind=429, errors-rate=0.3, errors-retry-after=2s',
  );
  const old = await chaosSession(
    'chaos-seed',
    'latency=200ms, jitter=300ms, drop-after=40, drop-rate=0.1, ' +
      'duplicate=0.3, duplicate-late=1, error=429, error-rate=0.3, retry-after=2s',
  );
  expect(old.out).toEqual(now.out);
  expect(withoutHeader(old.faults)).toEqual(withoutHeader(now.faults));
  const kinds = new Set(withoutHeader(now.faults).map((f) => f.kind));
  expect(kinds).toEqual(new Set(['delay', 'drop', 'duplicate', 'error']));
  expect(now.out.some((x) => x.startsWith('429 '))).toBe(true);
});

/**
 * The same requests at the same virtual times, streams read until they end or break; then each
 * task read cleanly: GetTask over REST, under the global profile and with it off, and a replay
 * from seq 0.
 */
async function cleanReads(options: { chaos?: string }) {
  const t = await startSim({ seed: 'wire-only', keepAlive: 0, ...options });
  try {
    await toSlot(t, 0);
    await exchange(t, post(t, '/message:stream', v1Send(REPORT_TEXT, { messageId: 'w-1' })));
    await toSlot(t, 1);
    const asked = await exchange(
      t,
      post(
        t,
        '/',
        rpcEnvelope('SendMessage', v1Send('Book me a flight', { messageId: 'w-2' }), { id: 'w-2' }),
        V1_HEADERS,
      ),
    );
    const flightId = /"task":\{"id":"([^"]+)"/.exec(asked)![1]!;
    await toSlot(t, 2);
    const answer = v1Send('From San Francisco to New York', { messageId: 'w-3', taskId: flightId });
    await exchange(t, post(t, '/message:stream', answer));
    await toSlot(t, 3);
    await exchange(
      t,
      post(
        t,
        '/',
        rpcEnvelope('message/stream', v03Send('Please fail this task', { messageId: 'w-4' }), { id: 'w-4' }),
      ),
    );
    await toSlot(t, 4);
    await exchange(t, post(t, '/message:send', v1Send('What is the weather today?', { messageId: 'w-5' })));
    const listed = (await getJson(t, '/tasks?includeArtifacts=true', chaos('off'))).body;
    const reportId = listed.tasks.find(
      (task: any) => task.artifacts?.[0]?.name === 'Climate Change Report',
    ).id;
    for (let i = 0; i < 3; i++) {
      await toSlot(t, 5 + i); // more streams under the global profile (if any): more chances to break
      await exchange(t, get(t, `/tasks/${reportId}:subscribe`, { 'Last-Event-ID': '0' }));
    }
    await toSlot(t, 8);

    const list = (await getJson(t, '/tasks?includeArtifacts=true', chaos('off'))).text;
    const ids = (JSON.parse(list).tasks as { id: string }[]).map((task) => task.id).sort();
    const reads: string[] = [list];
    for (const id of ids) {
      reads.push(await exchange(t, get(t, `/tasks/${id}`, chaos('off'))));
      reads.push(await exchange(t, get(t, `/tasks/${id}`)));
      reads.push(
        await exchange(t, get(t, `/tasks/${id}:subscribe`, { 'Last-Event-ID': '0', ...chaos('off') })),
      );
    }
    return { ids, reads, faults: await faultsOf(t) };
  } finally {
    await t.close();
  }
}

it('changes only the wire: clean reads of every task are identical with and without a global profile', async () => {
  const calm = await cleanReads({});
  const chaotic = await cleanReads({ chaos: 'flaky-mobile' });
  expect(calm.faults).toEqual([]);
  expect(chaotic.faults.filter((f) => f.kind === 'drop').length).toBeGreaterThan(0);
  expect(chaotic.ids).toEqual(calm.ids);
  expect(calm.ids).toHaveLength(4);
  expect(chaotic.reads).toEqual(calm.reads);
  // The replays hold the tasks' whole logs, timestamps included.
  expect(calm.reads.join('').match(/"timestamp":"2026-01-01T/g)!.length).toBeGreaterThan(20);
});
