/**
 * The hostile soak's traffic (bench/soak-process.ts plays it beside the ordinary mix, on the same
 * virtual clock): requests at the simulator's limits.
 *
 * - JSON-RPC calls with 256 KiB ids, whose answers must echo them whole;
 * - GETs with 10–14 KiB `X-Sim-Chaos` or `X-Sim-Client` headers, a new client name each time, and
 *   some with both, past Node's 16 KiB of headers; storms of 100 polls from a new client each, which
 *   fill the verdicts' budget within the warm-up;
 * - bodies just under and just over `--max-body-bytes`;
 * - messages the simulator proxies to the hostile agent (bench/hostile-agent.ts), one per answer it
 *   can give, each meant to meet one of the proxy's limits.
 *
 * Beside it, bench/feed-watchers.ts keeps watchers of the live feed that never read.
 *
 * Every answer is checked: an action ends `ok` when it was answered as docs/limits.md says, under one
 * of the outcomes it allows (`429 STORE_FULL`, `502 MAX_AGENT_EVENT_BYTES`, …, counted), and as an
 * error otherwise. The hostile messages live in their own tenant (`/hostile/…`): the store's scope
 * share is what keeps them from locking out the ordinary traffic at the root.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { HostileAnswer } from './hostile-agent.js';

export interface HostileCount {
  started: number;
  ok: number;
  errors: number;
  /** How the accepted answers went, e.g. `{"429 STORE_FULL": 12, "200 TASK_STATE_FAILED": 3}`. */
  outcomes: Record<string, number>;
}

const KiB = 1024;
const V1 = { 'Content-Type': 'application/json', 'A2A-Version': '1.0' };
const TASK_NOT_FOUND = -32001;
const POLLS_PER_STORM = 100;
/** The tenant of every hostile message: a scope of its own in the store. */
const TENANT = 'hostile';

interface Answer {
  status: number;
  text: string;
}

/** A hostile action: how often it comes in a round of the mix, and what makes the outcome of its answer. */
interface HostileAction {
  name: string;
  weight: number;
  /** Resolves to the outcome's name when answered as documented; throws otherwise. */
  run(traffic: HostileTraffic): Promise<string>;
}

/** mulberry32, as the ordinary mix: the same actions in the same order on every run. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A chaos pair that asks for nothing. */
const HARMLESS = 'latency-first-byte=0ms';

/** `pair, ` repeated to about `bytes`: a header that parses, and means nothing more than `pair`. */
const padded = (pair: string, bytes: number) => `${pair}, `.repeat(Math.ceil(bytes / (pair.length + 2)));

/** The error's `reason` or `limit` (REST details, JSON-RPC data), as the outcome names it. */
function why(text: string): string {
  return /"limit":"(\w+)"/.exec(text)?.[1] ?? /"reason":"(\w+)"/.exec(text)?.[1] ?? '';
}

function unexpected(what: string, answer: Answer): Error {
  return new Error(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
}

const FAILED = '200 TASK_STATE_FAILED';
const STORE_FULL = '429 STORE_FULL';

/**
 * A proxied message: the agent answers as its text says; `allowed` are the documented outcomes.
 * Any of them may also find the hostile tenant's share of the store taken by the tasks in progress
 * before it (a flood's, a slow stream's) and be refused with 429 STORE_FULL before the agent is asked.
 */
const proxied = (answer: HostileAnswer, allowed: string[], now = false): HostileAction => ({
  name: `proxy-${answer}`,
  weight: 1,
  run: async (traffic) => {
    const reply = await traffic.send(`hostile ${answer}`, now);
    const state = reply.status === 200 ? /"state":"(\w+)"/.exec(reply.text)?.[1] : undefined;
    const outcome = `${reply.status} ${state ?? why(reply.text)}`.trim();
    if (outcome !== STORE_FULL && !allowed.includes(outcome))
      throw unexpected(`proxy ${answer}, got ${outcome}`, reply);
    return outcome;
  },
});

const ACTIONS: HostileAction[] = [
  {
    // SendMessage with a 256 KiB id: answered whole, the id echoed whole (the journal keeps 128 characters).
    name: 'jsonrpc-big-id-send',
    weight: 3,
    run: async (traffic) => {
      const id = traffic.bigId();
      const answer = await traffic.rpc(id, 'SendMessage', {
        message: traffic.message('What is the weather today?'),
      });
      const reply = JSON.parse(answer.text) as {
        id?: unknown;
        result?: { task?: { id: string; status: { state: string } } };
      };
      if (reply.id !== id) throw unexpected('SendMessage: the id was not echoed whole', answer);
      const task = reply.result?.task;
      if (task?.status.state !== 'TASK_STATE_COMPLETED') throw unexpected('SendMessage', answer);
      traffic.remember(task.id);
      return '200 TASK_STATE_COMPLETED';
    },
  },
  {
    name: 'jsonrpc-big-id-get',
    weight: 2,
    run: async (traffic) => {
      const id = traffic.bigId();
      const answer = await traffic.rpc(id, 'GetTask', { id: `no-such-task-${traffic.n}` });
      const reply = JSON.parse(answer.text) as { id?: unknown; error?: { code: number } };
      if (reply.id !== id || reply.error?.code !== TASK_NOT_FOUND) throw unexpected('GetTask', answer);
      return `${TASK_NOT_FOUND}`;
    },
  },
  {
    // A chaos header of 10–14 KiB that parses and asks for nothing; a new client each time.
    name: 'get-big-chaos',
    weight: 3,
    run: (traffic) =>
      traffic.getTask({
        'X-Sim-Chaos': padded(HARMLESS, traffic.headerBytes()),
        'X-Sim-Client': traffic.clientName(),
      }),
  },
  {
    // The same, failing the call: a fault record that keeps the header's first 1 KiB.
    name: 'get-big-chaos-fault',
    weight: 1,
    run: (traffic) =>
      traffic.getTask({
        'X-Sim-Chaos': `errors-rate=1, errors-kind=503, ${padded(HARMLESS, traffic.headerBytes())}`,
        'X-Sim-Client': traffic.clientName(),
      }),
  },
  {
    // A client named by 10–14 KiB, new each time: what the verdicts keep, one client per name.
    name: 'get-big-client',
    weight: 4,
    run: (traffic) => traffic.getTask({ 'X-Sim-Client': traffic.clientName(traffic.headerBytes()) }),
  },
  {
    // One new client polling GetTask 100 times back to back: the calls the verdicts keep and count.
    name: 'poll-storm',
    weight: 2,
    run: async (traffic) => {
      const client = traffic.clientName();
      for (let i = 0; i < POLLS_PER_STORM; i++) await traffic.getTask({ 'X-Sim-Client': client });
      return '200/404';
    },
  },
  {
    // Both at 10 KiB: past Node's 16 KiB of headers, refused before the simulator sees it.
    name: 'get-past-header-limit',
    weight: 1,
    run: async (traffic) => {
      const answer = await traffic.call('GET', '/tasks/none', undefined, {
        'X-Sim-Chaos': padded(HARMLESS, 10 * KiB),
        'X-Sim-Client': traffic.clientName(10 * KiB),
      });
      if (answer.status !== 431) throw unexpected('GET past the header limit', answer);
      return '431';
    },
  },
  {
    // A message whose body is 1 KiB under --max-body-bytes: a task that holds it, in the hostile tenant.
    name: 'rest-body-near-max',
    weight: 1,
    run: async (traffic) => {
      const answer = await traffic.send(traffic.nearMaxText(-KiB));
      const outcome =
        answer.status === 200
          ? `200 ${/"state":"(\w+)"/.exec(answer.text)?.[1]}`
          : `${answer.status} ${why(answer.text)}`;
      if (outcome !== '200 TASK_STATE_COMPLETED' && outcome !== STORE_FULL)
        throw unexpected('near-max body', answer);
      return outcome;
    },
  },
  {
    name: 'rest-body-past-max',
    weight: 1,
    run: async (traffic) => {
      const answer = await traffic.send(traffic.nearMaxText(KiB));
      if (answer.status !== 413) throw unexpected('body past the max', answer);
      return '413';
    },
  },
  // Blocking sends: answered when the relay stops. The task fails; a send still waiting on the turn
  // hears why, unless the task had already failed by then (then it is answered with the task).
  proxied('flood-events', [FAILED]),
  proxied('flood-line', ['502 MAX_AGENT_EVENT_BYTES', FAILED]),
  proxied('big-body', ['502 MAX_AGENT_BODY_BYTES']),
  proxied('big-declared', ['502 MAX_AGENT_BODY_BYTES']),
  // Answered at once; the relay stops later, in virtual time (5 and 30 minutes).
  proxied('idle-stream', ['200 TASK_STATE_WORKING', '200 TASK_STATE_SUBMITTED'], true),
  proxied('slow-stream', ['200 TASK_STATE_WORKING', '200 TASK_STATE_SUBMITTED'], true),
];

/** Every action as many times as its weight: one round of the mix. */
const ROUND: readonly HostileAction[] = ACTIONS.flatMap((a) => Array<HostileAction>(a.weight).fill(a));

export interface HostileOptions {
  url: string;
  maxBodyBytes: number;
}

/** The hostile mix against one simulator: starts actions one at a time and counts how each ends. */
export class HostileTraffic {
  readonly counts: Record<string, HostileCount> = Object.fromEntries(
    ACTIONS.map((a) => [a.name, { started: 0, ok: 0, errors: 0, outcomes: {} }]),
  );
  /** The first few errors, for the log. */
  readonly errors: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Requests sent again after a reset on a reused idle connection. */
  retried = 0;
  /** Numbers every id, message and client name. */
  n = 0;
  private readonly random = seededRandom(0x4057);
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private readonly recent: string[] = [];
  private round: HostileAction[] = [];

  constructor(private readonly options: HostileOptions) {}

  /** Starts the next action of the mix. */
  launchNext(): void {
    const action = this.pick();
    const count = this.counts[action.name]!;
    count.started++;
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    action
      .run(this)
      .then(
        (outcome) => {
          count.ok++;
          count.outcomes[outcome] = (count.outcomes[outcome] ?? 0) + 1;
        },
        (error: unknown) => {
          count.errors++;
          if (this.errors.length < 10) this.errors.push(`${action.name}: ${String(error)}`);
        },
      )
      .finally(() => this.inFlight--);
  }

  close(): void {
    this.agent.destroy();
  }

  // ------------------------------------------------------------------------- for the actions

  /**
   * One request, its answer read whole; sent again once on a reset of a reused idle connection
   * before any answer, as the ordinary mix does (bench/soak-traffic.ts).
   */
  call(
    method: 'GET' | 'POST',
    path: string,
    payload?: string,
    headers: Record<string, string> = V1,
    retry = false,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const request = httpRequest(
        `${this.options.url}${path}`,
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
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered && !retry && request.reusedSocket && error.code === 'ECONNRESET') {
          this.retried++;
          resolve(this.call(method, path, payload, headers, true));
        } else reject(error);
      });
      request.end(payload);
    });
  }

  rpc(id: string, method: string, params: unknown): Promise<Answer> {
    return this.call('POST', '/', JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }

  /** A REST message:send in the hostile tenant; `now`: without waiting for the turn to end. */
  send(text: string, now = false): Promise<Answer> {
    const body = JSON.stringify({
      message: this.message(text),
      ...(now && { configuration: { returnImmediately: true } }),
    });
    return this.call('POST', `/${TENANT}/message:send`, body);
  }

  /** GetTask of a task a big-id send made (some evicted since), with these headers. */
  async getTask(headers: Record<string, string>): Promise<string> {
    const id = this.recent[Math.floor(this.random() * this.recent.length)] ?? 'none-yet';
    const answer = await this.call('GET', `/tasks/${id}`, undefined, { 'A2A-Version': '1.0', ...headers });
    const chaos = headers['X-Sim-Chaos'] ?? '';
    const expected = chaos.startsWith('errors-rate=1') ? [503] : [200, 404];
    if (!expected.includes(answer.status)) throw unexpected('GetTask', answer);
    return String(answer.status);
  }

  message(text: string) {
    return { role: 'ROLE_USER', parts: [{ text }], messageId: `hostile-${++this.n}` };
  }

  bigId(): string {
    return `${++this.n}-${'i'.repeat(256 * KiB)}`;
  }

  /** 10–14 KiB. */
  headerBytes(): number {
    return Math.floor((10 + this.random() * 4) * KiB);
  }

  /** A client name never used before, `bytes` long (short without). */
  clientName(bytes = 0): string {
    const name = `hostile-client-${++this.n}`;
    return bytes > name.length ? `${name}-${'c'.repeat(bytes - name.length - 1)}` : name;
  }

  /** A weather question padded so that its message:send body is `delta` bytes off --max-body-bytes. */
  nearMaxText(delta: number): string {
    const question = 'What is the weather today?';
    const envelope = JSON.stringify({
      message: { ...this.message(question), messageId: 'hostile-000000' },
    }).length;
    return `${question} ${'w'.repeat(this.options.maxBodyBytes + delta - envelope - 1)}`;
  }

  remember(taskId: string): void {
    this.recent.push(taskId);
    if (this.recent.length > 64) this.recent.shift();
  }

  /**
   * The next action of a round of the mix, shuffled (seeded): every action comes in every round (24
   * actions), so that even a few virtual minutes meet each of them.
   */
  private pick(): HostileAction {
    if (this.round.length === 0) {
      this.round = [...ROUND];
      for (let i = this.round.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [this.round[i], this.round[j]] = [this.round[j]!, this.round[i]!];
      }
    }
    return this.round.pop()!;
  }
}
