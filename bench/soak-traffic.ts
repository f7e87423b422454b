/**
 * The soak's traffic (bench/soak-process.ts plays it on a virtual clock): a weighted mix of A2A
 * requests to one simulator over keep-alive HTTP, each answer read to its end (an SSE stream to its
 * last event). The mix is seeded, so every run starts the same actions in the same order, and its
 * own state is bounded (the requests in flight and the last 64 task ids): what grows is the simulator.
 */
import { Agent, request as httpRequest } from 'node:http';

export interface SoakActionCount {
  started: number;
  ok: number;
  /** GetTask of a task the retention limits had already evicted: a correct 404, not an error. */
  gone: number;
  errors: number;
}

const V1 = { 'Content-Type': 'application/json', 'A2A-Version': '1.0' };
const V03 = { 'Content-Type': 'application/json' };
const TASK_NOT_FOUND = -32001;

interface WireTask {
  id: string;
  status: { state: string };
}

class Gone extends Error {}

/** mulberry32: the same mix of actions on every run. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The wire side of the mix: requests to one simulator, their message ids, the tasks they made. */
class SoakClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 32 });
  /** Messages sent so far: numbers every messageId and JSON-RPC id. */
  messages = 0;
  /** Requests sent again after a reset on a reused idle connection (see {@link call}). */
  retried = 0;
  /** The last task ids created: what GetTask asks for (some already evicted). */
  private readonly recent: string[] = [];

  constructor(
    private readonly url: string,
    private readonly random: () => number,
  ) {}

  /**
   * One request, its whole answer read (an SSE stream to its end). A request that meets a reset
   * before any answer on a kept-alive connection the server was closing as idle is sent again, once,
   * as Node's documentation advises (`request.reusedSocket`): the server never read it.
   */
  call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = V1,
    retry = false,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      let answered = false;
      const request = httpRequest(
        `${this.url}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            ...headers,
            ...(payload !== undefined && { 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (response) => {
          answered = true;
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          response.on('error', reject);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered && !retry && request.reusedSocket && error.code === 'ECONNRESET') {
          this.retried++;
          resolve(this.call(method, path, body, headers, true));
        } else reject(error);
      });
      request.end(payload);
    });
  }

  /** Every other request repeats the usual phrasing, as a demo does; the rest are new texts. */
  phrase(text: string): string {
    return this.messages % 2 ? text : `${text} (request ${this.messages})`;
  }

  nextMessageId(): string {
    return `soak-${++this.messages}`;
  }

  v1Message(text: string, taskId?: string) {
    return {
      role: 'ROLE_USER',
      parts: [{ text }],
      messageId: this.nextMessageId(),
      ...(taskId && { taskId }),
    };
  }

  recentId(): string {
    return this.recent[Math.floor(this.random() * this.recent.length)] ?? 'none-yet';
  }

  expectState(what: string, task: WireTask | undefined, state: string): WireTask {
    if (task?.status?.state !== state)
      throw new Error(`${what}: ${task?.status?.state ?? 'no task'}, not ${state}`);
    this.recent.push(task.id);
    if (this.recent.length > 64) this.recent.shift();
    return task;
  }

  async restSend(text: string, state: string, options: { taskId?: string; now?: boolean } = {}) {
    const answer = await this.call('POST', '/message:send', {
      message: this.v1Message(text, options.taskId),
      ...(options.now && { configuration: { returnImmediately: true } }),
    });
    const task = (JSON.parse(expectOk('message:send', answer)) as { task?: WireTask }).task;
    return this.expectState(`message:send "${text}"`, task, state);
  }

  async jsonRpc(method: string, params: unknown, headers: Record<string, string> = V1) {
    const answer = await this.call(
      'POST',
      '/',
      { jsonrpc: '2.0', id: this.messages, method, params },
      headers,
    );
    const reply = JSON.parse(expectOk(method, answer)) as { result?: unknown; error?: { message: string } };
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result;
  }

  close(): void {
    this.agent.destroy();
  }
}

function expectOk(what: string, answer: { status: number; text: string }): string {
  if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  return answer.text;
}

interface SoakAction {
  name: string;
  weight: number;
  run(client: SoakClient): Promise<unknown>;
}

/** A REST message:send of `text` (phrased), whose task must be in `state` when it answers. */
const restSendAction = (name: string, weight: number, text: string, state: string): SoakAction => ({
  name,
  weight,
  run: (client) => client.restSend(client.phrase(text), state),
});

/** The actions of the mix, with their weights: mostly new tasks, some reads. */
const ACTIONS: SoakAction[] = [
  restSendAction('rest-send-weather', 24, 'What is the weather today?', 'TASK_STATE_COMPLETED'),
  {
    name: 'jsonrpc-v1-send-weather',
    weight: 8,
    run: async (client) => {
      const result = (await client.jsonRpc('SendMessage', {
        message: client.v1Message(client.phrase('What is the forecast for tomorrow?')),
      })) as { task?: WireTask };
      client.expectState('SendMessage', result.task, 'TASK_STATE_COMPLETED');
    },
  },
  {
    name: 'jsonrpc-v03-send-weather',
    weight: 5,
    run: async (client) => {
      const result = (await client.jsonRpc(
        'message/send',
        {
          message: {
            kind: 'message',
            role: 'user',
            parts: [{ kind: 'text', text: client.phrase('What is the temperature outside?') }],
            messageId: client.nextMessageId(),
          },
        },
        V03,
      )) as WireTask;
      client.expectState('message/send', result, 'completed');
    },
  },
  {
    // input-required, then the follow-up on the same task.
    name: 'rest-flight-booking',
    weight: 12,
    run: async (client) => {
      const task = await client.restSend(client.phrase('Book me a flight'), 'TASK_STATE_INPUT_REQUIRED');
      await client.restSend('From Paris to Rome', 'TASK_STATE_COMPLETED', { taskId: task.id });
    },
  },
  restSendAction('rest-send-failure', 8, 'Please fail this task', 'TASK_STATE_FAILED'),
  {
    // The report takes 2–4 s to cancel: the task goes on working meanwhile, then ends canceled.
    name: 'rest-slow-cancel',
    weight: 8,
    run: async (client) => {
      const task = await client.restSend(
        client.phrase('Write a long report on climate change'),
        'TASK_STATE_SUBMITTED',
        { now: true },
      );
      expectOk('cancel', await client.call('POST', `/tasks/${task.id}:cancel`));
    },
  },
  {
    // About 30 s of report chunks, read to the end.
    name: 'rest-stream-report',
    weight: 8,
    run: async (client) => {
      const text = expectOk(
        'message:stream',
        await client.call('POST', '/message:stream', {
          message: client.v1Message(client.phrase('Write a long report')),
        }),
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
    run: async (client) => {
      const answer = await client.call('GET', `/tasks/${client.recentId()}`);
      if (answer.status === 404) throw new Gone();
      expectOk('GetTask', answer);
    },
  },
  {
    name: 'jsonrpc-get-task',
    weight: 4,
    run: async (client) => {
      const answer = await client.call('POST', '/', {
        jsonrpc: '2.0',
        id: client.messages,
        method: 'GetTask',
        params: { id: client.recentId() },
      });
      const reply = JSON.parse(expectOk('GetTask', answer)) as { error?: { code: number; message: string } };
      if (reply.error?.code === TASK_NOT_FOUND) throw new Gone();
      if (reply.error) throw new Error(`GetTask: ${reply.error.message}`);
    },
  },
  {
    name: 'rest-list-tasks',
    weight: 5,
    run: async (client) => {
      const list = JSON.parse(expectOk('ListTasks', await client.call('GET', '/tasks?pageSize=20'))) as {
        tasks?: unknown[];
      };
      if (!Array.isArray(list.tasks)) throw new Error('ListTasks: no tasks array');
    },
  },
];

const TOTAL_WEIGHT = ACTIONS.reduce((sum, a) => sum + a.weight, 0);

/** The mix against one simulator: starts actions one at a time and counts how each ends. */
export class SoakTraffic {
  readonly counts: Record<string, SoakActionCount> = Object.fromEntries(
    ACTIONS.map((a) => [a.name, { started: 0, ok: 0, gone: 0, errors: 0 }]),
  );
  /** The first few errors, for the log. */
  readonly errors: string[] = [];
  inFlight = 0;
  // One stream for the pick and the task a GetTask reads, drawn in the order actions start.
  private readonly random = seededRandom(0x50a4);
  private readonly client: SoakClient;

  constructor(url: string) {
    this.client = new SoakClient(url, this.random);
  }

  /** Starts the next action of the mix, picked by weight. */
  launchNext(): void {
    const action = this.pick();
    const count = this.counts[action.name]!;
    count.started++;
    this.inFlight++;
    action
      .run(this.client)
      .then(
        () => count.ok++,
        (error: unknown) => {
          if (error instanceof Gone) return count.gone++;
          count.errors++;
          if (this.errors.length < 10) this.errors.push(`${action.name}: ${String(error)}`);
        },
      )
      .finally(() => this.inFlight--);
  }

  /** Requests sent again after a reset on a reused idle connection. */
  get retried(): number {
    return this.client.retried;
  }

  close(): void {
    this.client.close();
  }

  private pick(): SoakAction {
    let r = this.random() * TOTAL_WEIGHT;
    for (const action of ACTIONS) if ((r -= action.weight) < 0) return action;
    return ACTIONS[ACTIONS.length - 1]!;
  }
}
