/**
 * The soak's one process (bench/soak.ts starts it under `node --expose-gc`, pinned to the server
 * core): a simulator made with `createSimulator` on a VirtualClock, serving on 127.0.0.1 as usual,
 * and the traffic that drives it over HTTP.
 *
 * Time: every turn of the event loop moves the clock `STEP_MS` of virtual time (firing every timer
 * due on the way), then starts the actions due by then. Actions are scheduled in virtual time, so
 * many per virtual minute with busy and quiet phases alternating, so the tasks per virtual hour, and
 * what the retention limits do with them, are the same on any machine: only the wall time differs.
 * A request needs a few turns to travel, during which the clock moves on: a blocking send returns
 * once its scenario's delays have passed in virtual time, as it would in real time.
 *
 * Every `sampleEveryMinutes` of virtual time: `gc()`, then RSS and heap. The traffic's own state is
 * bounded (the requests in flight and the last 64 task ids), so what can grow is the simulator.
 *
 * The job comes as JSON in argv[2]. Prints `{"phase":"sample",…}` per sample and
 * `{"phase":"done","result":…}` at the end.
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface SoakJob {
  virtualHours: number;
  /** Busy and quiet phases alternate, each this long (virtual). */
  phaseMinutes: number;
  /** Actions started per virtual minute in a busy and in a quiet phase. */
  busyPerMinute: number;
  quietPerMinute: number;
  sampleEveryMinutes: number;
  retention: { maxTasks: number; terminalTtlMs: number };
}

export interface SoakSample {
  /** Virtual hours since the start. */
  hour: number;
  wallSec: number;
  tasksCreated: number;
  storeSize: number;
  evictedTtl: number;
  evictedCap: number;
  inFlight: number;
  /** After gc(). */
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
}

export interface SoakActionCount {
  started: number;
  ok: number;
  /** GetTask of a task the retention limits had already evicted: a correct 404, not an error. */
  gone: number;
  errors: number;
}

export interface SoakResult {
  wallSec: number;
  samples: SoakSample[];
  actions: Record<string, SoakActionCount>;
  /** The first few errors, for the log. */
  errors: string[];
  firstEvictionHour: { ttl: number | null; cap: number | null };
  maxStoreSize: number;
}

/** Virtual time per turn of the event loop. */
const STEP_MS = 250;
const HOUR = 3_600_000;
const MB = 2 ** 20;

const job = JSON.parse(process.argv[2] ?? '{}') as SoakJob;
const gc = globalThis.gc;
if (!gc) throw new Error('the soak process needs node --expose-gc');

// The build, as every other workload runs it (`npm run bench` builds first); typed from the source.
const { createSimulator, VirtualClock } = (await import(
  new URL('../dist/index.js', import.meta.url).href
)) as typeof import('../src/index.js');

const clock = new VirtualClock();
const sim = await createSimulator({
  port: 0,
  clock,
  seed: 'soak',
  logLevel: 'silent',
  retention: job.retention,
});

// ------------------------------------------------------------------------- what the store does

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
let created = 0;
let evictedTtl = 0;
let evictedCap = 0;
let maxStoreSize = 0;
const firstEvictionHour: SoakResult['firstEvictionHour'] = { ttl: null, cap: null };
let closing = false;
const start = clock.now();
const hoursNow = () => (clock.now() - start) / HOUR;

sim.store.onEvent((_record, event) => {
  if (event.seq === 1) created++;
});
sim.store.onEvict((record) => {
  if (closing) return;
  // The store evicts a terminal task whose end is older than the TTL, or, past maxTasks, the oldest.
  const { state, timestamp } = record.task.status;
  const expired = TERMINAL.has(state) && Date.parse(timestamp) <= clock.now() - job.retention.terminalTtlMs;
  if (expired) {
    evictedTtl++;
    firstEvictionHour.ttl ??= hoursNow();
  } else {
    evictedCap++;
    firstEvictionHour.cap ??= hoursNow();
  }
});

// ------------------------------------------------------------------------------------ traffic

const agent = new Agent({ keepAlive: true, maxSockets: 32 });
const V1 = { 'Content-Type': 'application/json', 'A2A-Version': '1.0' };
const V03 = { 'Content-Type': 'application/json' };

/** One request, its whole answer read (an SSE stream to its end). */
function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = V1,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = httpRequest(
      `${sim.url}${path}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload !== undefined && { 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

interface WireTask {
  id: string;
  status: { state: string };
}

class Gone extends Error {}
const TASK_NOT_FOUND = -32001;

let messages = 0;
/** Every other request repeats the usual phrasing, as a demo does; the rest are new texts. */
const phrase = (text: string) => (messages % 2 ? text : `${text} (request ${messages})`);
const v1Message = (text: string, taskId?: string) => ({
  role: 'ROLE_USER',
  parts: [{ text }],
  messageId: `soak-${++messages}`,
  ...(taskId && { taskId }),
});

/** The last task ids created: what GetTask asks for (some already evicted). */
const recent: string[] = [];
function remember(id: string): void {
  recent.push(id);
  if (recent.length > 64) recent.shift();
}
const recentId = () => recent[Math.floor(random() * recent.length)] ?? 'none-yet';

function expectOk(what: string, answer: { status: number; text: string }): string {
  if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  return answer.text;
}

function expectState(what: string, task: WireTask | undefined, state: string): WireTask {
  if (task?.status?.state !== state)
    throw new Error(`${what}: ${task?.status?.state ?? 'no task'}, not ${state}`);
  remember(task.id);
  return task;
}

async function restSend(text: string, state: string, options: { taskId?: string; now?: boolean } = {}) {
  const answer = await call('POST', '/message:send', {
    message: v1Message(text, options.taskId),
    ...(options.now && { configuration: { returnImmediately: true } }),
  });
  const task = (JSON.parse(expectOk('message:send', answer)) as { task?: WireTask }).task;
  return expectState(`message:send "${text}"`, task, state);
}

async function jsonRpc(method: string, params: unknown, headers: Record<string, string> = V1) {
  const answer = await call('POST', '/', { jsonrpc: '2.0', id: messages, method, params }, headers);
  const reply = JSON.parse(expectOk(method, answer)) as { result?: unknown; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/** The actions of the mix, with their weights: mostly new tasks, some reads. */
const ACTIONS: { name: string; weight: number; run: () => Promise<unknown> }[] = [
  {
    name: 'rest-send-weather',
    weight: 24,
    run: () => restSend(phrase('What is the weather today?'), 'TASK_STATE_COMPLETED'),
  },
  {
    name: 'jsonrpc-v1-send-weather',
    weight: 8,
    run: async () => {
      const result = (await jsonRpc('SendMessage', {
        message: v1Message(phrase('What is the forecast for tomorrow?')),
      })) as { task?: WireTask };
      expectState('SendMessage', result.task, 'TASK_STATE_COMPLETED');
    },
  },
  {
    name: 'jsonrpc-v03-send-weather',
    weight: 5,
    run: async () => {
      const result = (await jsonRpc(
        'message/send',
        {
          message: {
            kind: 'message',
            role: 'user',
            parts: [{ kind: 'text', text: phrase('What is the temperature outside?') }],
            messageId: `soak-${++messages}`,
          },
        },
        V03,
      )) as WireTask;
      expectState('message/send', result, 'completed');
    },
  },
  {
    // input-required, then the follow-up on the same task.
    name: 'rest-flight-booking',
    weight: 12,
    run: async () => {
      const task = await restSend(phrase('Book me a flight'), 'TASK_STATE_INPUT_REQUIRED');
      await restSend('From Paris to Rome', 'TASK_STATE_COMPLETED', { taskId: task.id });
    },
  },
  {
    name: 'rest-send-failure',
    weight: 8,
    run: () => restSend(phrase('Please fail this task'), 'TASK_STATE_FAILED'),
  },
  {
    // The report takes 2–4 s to cancel: the task goes on working meanwhile, then ends canceled.
    name: 'rest-slow-cancel',
    weight: 8,
    run: async () => {
      const task = await restSend(phrase('Write a long report on climate change'), 'TASK_STATE_SUBMITTED', {
        now: true,
      });
      expectOk('cancel', await call('POST', `/tasks/${task.id}:cancel`));
    },
  },
  {
    // About 30 s of report chunks, read to the end.
    name: 'rest-stream-report',
    weight: 8,
    run: async () => {
      const text = expectOk(
        'message:stream',
        await call('POST', '/message:stream', { message: v1Message(phrase('Write a long report')) }),
      );
      const last = text
        .trimEnd()
        .split('\n')
        .findLast((line) => line.startsWith('data:'));
      const event = JSON.parse(last?.slice(5) ?? '{}') as { statusUpdate?: { status?: { state?: string } } };
      if (event.statusUpdate?.status?.state !== 'TASK_STATE_COMPLETED')
        throw new Error(`message:stream ended with ${last?.slice(0, 200)}`);
    },
  },
  {
    name: 'rest-get-task',
    weight: 15,
    run: async () => {
      const answer = await call('GET', `/tasks/${recentId()}`);
      if (answer.status === 404) throw new Gone();
      expectOk('GetTask', answer);
    },
  },
  {
    name: 'jsonrpc-get-task',
    weight: 4,
    run: async () => {
      const answer = await call('POST', '/', {
        jsonrpc: '2.0',
        id: messages,
        method: 'GetTask',
        params: { id: recentId() },
      });
      const reply = JSON.parse(expectOk('GetTask', answer)) as { error?: { code: number; message: string } };
      if (reply.error?.code === TASK_NOT_FOUND) throw new Gone();
      if (reply.error) throw new Error(`GetTask: ${reply.error.message}`);
    },
  },
  {
    name: 'rest-list-tasks',
    weight: 5,
    run: async () => {
      const list = JSON.parse(expectOk('ListTasks', await call('GET', '/tasks?pageSize=20'))) as {
        tasks?: unknown[];
      };
      if (!Array.isArray(list.tasks)) throw new Error('ListTasks: no tasks array');
    },
  },
];

/** mulberry32: the same mix of actions on every run. */
let seed = 0x50a4;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const totalWeight = ACTIONS.reduce((sum, a) => sum + a.weight, 0);
function pick(): (typeof ACTIONS)[number] {
  let r = random() * totalWeight;
  for (const action of ACTIONS) if ((r -= action.weight) < 0) return action;
  return ACTIONS[ACTIONS.length - 1]!;
}

const counts: Record<string, SoakActionCount> = Object.fromEntries(
  ACTIONS.map((a) => [a.name, { started: 0, ok: 0, gone: 0, errors: 0 }]),
);
const errors: string[] = [];
let inFlight = 0;

function launch(action: (typeof ACTIONS)[number]): void {
  const count = counts[action.name]!;
  count.started++;
  inFlight++;
  action
    .run()
    .then(
      () => count.ok++,
      (error: unknown) => {
        if (error instanceof Gone) return count.gone++;
        count.errors++;
        if (errors.length < 10) errors.push(`${action.name}: ${String(error)}`);
      },
    )
    .finally(() => inFlight--);
}

// --------------------------------------------------------------------------------------- run

const wallStart = performance.now();
const samples: SoakSample[] = [];

function sample(): void {
  gc!();
  const memory = process.memoryUsage();
  const s: SoakSample = {
    hour: hoursNow(),
    wallSec: (performance.now() - wallStart) / 1000,
    tasksCreated: created,
    storeSize: sim.store.size,
    evictedTtl,
    evictedCap,
    inFlight,
    rssMB: memory.rss / MB,
    heapUsedMB: memory.heapUsed / MB,
    heapTotalMB: memory.heapTotal / MB,
    externalMB: memory.external / MB,
  };
  samples.push(s);
  process.stdout.write(`${JSON.stringify({ phase: 'sample', sample: s })}\n`);
}

const end = start + job.virtualHours * HOUR;
const phaseMs = job.phaseMinutes * 60_000;
const sampleEveryMs = job.sampleEveryMinutes * 60_000;
let nextAction = start;
let nextSample = start + sampleEveryMs;
const turn = () => new Promise((resolve) => setImmediate(resolve));

sample();
while (clock.now() < end) {
  await turn();
  clock.advance(Math.min(STEP_MS, end - clock.now()));
  maxStoreSize = Math.max(maxStoreSize, sim.store.size);
  for (const now = clock.now(); nextAction <= now && nextAction < end;) {
    const busy = Math.floor((nextAction - start) / phaseMs) % 2 === 0;
    nextAction += 60_000 / (busy ? job.busyPerMinute : job.quietPerMinute);
    launch(pick());
  }
  if (clock.now() >= nextSample) {
    sample();
    nextSample += sampleEveryMs;
  }
}
// The actions still in flight finish on a clock that goes on moving; none start.
for (let turns = 0; inFlight > 0 && turns < 100_000; turns++) {
  await turn();
  clock.advance(STEP_MS);
}
const wallSec = (performance.now() - wallStart) / 1000;
closing = true;
await sim.close();
agent.destroy();
const result: SoakResult = { wallSec, samples, actions: counts, errors, firstEvictionHour, maxStoreSize };
process.stdout.write(`${JSON.stringify({ phase: 'done', result })}\n`, () => process.exit(0));
