/**
 * Stand-ins for a remote A2A agent: a real one built with the official `@a2a-js/sdk` (A2A v1.0, and
 * v0.3 JSON-RPC through the SDK's compat layer) whose replies are picked by the first user message,
 * and one that serves a valid card and then breaks every call in a chosen way.
 *
 * Where the real agent serves each interface its card may declare (`url` is its base URL):
 *  - `HTTP+JSON` v1.0 at `${url}`: the REST routes at the root (POST /message:send, GET /tasks/{id}, …).
 *  - `JSONRPC` v1.0 at `${url}/rpc`.
 *  - `JSONRPC` v0.3 (`JSONRPC-0.3`) at `${url}/v03`. The SDK's `legacyCompat` picks its v0.3 handler
 *    for a request whose `A2A-Version` is absent or `0.3`, as v0.3 clients send them; it could share
 *    `/rpc` with v1.0 that way, but a path of its own lets each card entry stand for one protocol.
 * Only the declared interfaces are mounted.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { AGENT_CARD_PATH, AgentCard, Message, Role, TaskArtifactUpdateEvent, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import type { AgentExecutionEvent, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

export type UpstreamInterface = 'HTTP+JSON' | 'JSONRPC' | 'JSONRPC-0.3';

export interface UpstreamAgentOptions {
  /** Real milliseconds the agent waits before each event after the first (default 15). */
  stepMs?: number;
  /** Card capabilities.streaming (default true). */
  streaming?: boolean;
  /** Which interfaces the card declares, in preference order (default all three). */
  interfaces?: UpstreamInterface[];
}

export interface UpstreamAgent {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  /** `${url}/.well-known/agent-card.json` */
  cardUrl: string;
  /**
   * Requests the agent received, newest last: method + path + the headers authorization, x-api-key,
   * x-workspace-id (lowercase names)
   */
  requests: { method: string; path: string; headers: Record<string, string> }[];
  close(): Promise<void>;
}

export type Misbehaviour = 'invalid-json' | 'wrong-media-type' | 'cut-stream' | 'hang' | 'error-500';

const INTERFACES: Record<
  UpstreamInterface,
  [path: string, protocolBinding: string, protocolVersion: string]
> = {
  'HTTP+JSON': ['', 'HTTP+JSON', '1.0'],
  JSONRPC: ['/rpc', 'JSONRPC', '1.0'],
  'JSONRPC-0.3': ['/v03', 'JSONRPC', '0.3'],
};

const RECORDED_HEADERS = ['authorization', 'x-api-key', 'x-workspace-id'] as const;

const { TASK_STATE_WORKING: WORKING, TASK_STATE_COMPLETED: COMPLETED, TASK_STATE_FAILED: FAILED } = TaskState;
const { TASK_STATE_CANCELED: CANCELED, TASK_STATE_INPUT_REQUIRED: INPUT_REQUIRED } = TaskState;
const TERMINAL: ReadonlySet<TaskState> = new Set([
  COMPLETED,
  FAILED,
  CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

const now = () => new Date().toISOString();

const textOf = (message: Message | undefined): string =>
  (message?.parts ?? []).flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join(' ');

/** Wire JSON (v1.0 ProtoJSON) for an agent's text message. */
const agentMessage = (taskId: string, contextId: string, text: string) => ({
  messageId: randomUUID(),
  ...(taskId && { taskId }),
  contextId,
  role: 'ROLE_AGENT',
  parts: [{ text, mediaType: 'text/plain' }],
});

const skill = (id: string, name: string, description: string) => ({
  id,
  name,
  description,
  tags: ['travel'],
});

/**
 * The card as v1.0 ProtoJSON, served as is. The SDK's card handler JSON.stringifies what its provider
 * returns, so a typed AgentCard would go out in its internal oneof shape (`{"scheme":{"$case":…}}`).
 */
function deskCard(url: string, interfaces: UpstreamInterface[], streaming: boolean) {
  return {
    name: 'Travel desk',
    description: 'Answers weather questions, books flights and writes trip reports.',
    supportedInterfaces: interfaces.map((name) => {
      const [path, protocolBinding, protocolVersion] = INTERFACES[name];
      return { url: `${url}${path}`, protocolBinding, protocolVersion };
    }),
    version: '1.0.0',
    capabilities: { streaming, pushNotifications: false },
    securitySchemes: {
      apiKey: {
        apiKeySecurityScheme: { description: 'Any key is accepted.', location: 'header', name: 'X-API-Key' },
      },
    },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      skill('weather', 'Weather', 'Current weather for a city, e.g. "What is the weather in Rome?".'),
      skill('flight-booking', 'Flight booking', 'Books a flight; asks where from and to first.'),
      skill('report', 'Report', 'Writes a report, streamed in chunks.'),
      skill('failure', 'Failure', 'Always fails: the service behind it is down.'),
    ],
  };
}

type Step = () => AgentExecutionEvent;

/** Event makers for one task; each makes its event (and timestamp) when played. */
function eventsFor(taskId: string, contextId: string) {
  return {
    status:
      (state: TaskState, text?: string): Step =>
      () => {
        const message =
          text === undefined ? undefined : Message.fromJSON(agentMessage(taskId, contextId, text));
        const status = { state, timestamp: now(), message };
        return AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined });
      },
    artifact:
      (
        name: string,
        text: string,
        chunk = { artifactId: randomUUID(), append: false, lastChunk: true },
      ): Step =>
      () => {
        const artifact = { artifactId: chunk.artifactId, name, parts: [{ text, mediaType: 'text/plain' }] };
        return AgentEvent.artifactUpdate(
          TaskArtifactUpdateEvent.fromJSON({ taskId, contextId, artifact, ...chunk }),
        );
      },
  };
}

/** Plays the scenario its first user message picks, one event per `stepMs`; every task can be canceled. */
class TravelDesk implements AgentExecutor {
  /** Tasks not yet in a terminal state, input-required ones included: a cancel may come for any. */
  private readonly live = new Map<string, { contextId: string; stopped: boolean }>();

  constructor(
    private readonly stepMs: number,
    private readonly signal: AbortSignal,
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const steps = this.script(ctx);
    if (steps) await this.play(ctx.taskId, ctx.contextId, bus, steps);
    else
      bus.publish(
        AgentEvent.message(Message.fromJSON(agentMessage('', ctx.contextId, 'Hello from the travel desk!'))),
      );
  }

  /** The turn's events, or none for the direct Message reply. */
  private script(ctx: RequestContext): Step[] | undefined {
    const { taskId, contextId, task } = ctx;
    const said = textOf(ctx.userMessage);
    const first = task?.history.find((m) => m.role === Role.ROLE_USER) ?? ctx.userMessage;
    const topic = textOf(first).toLowerCase();
    const { status, artifact } = eventsFor(taskId, contextId);
    // The SDK wants a Task (or a Message) first on every turn, a follow-up's too.
    const opening: Step = () =>
      AgentEvent.task(
        task ?? {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now(), message: undefined },
          artifacts: [],
          history: [ctx.userMessage],
          metadata: undefined,
        },
      );
    if (topic.includes('weather')) {
      const city = / in ([^?]*)/i.exec(said)?.[1]?.trim() || 'Paris';
      return [
        opening,
        status(WORKING),
        artifact('Weather Report', `Sunny, 21°C in ${city}`),
        status(COMPLETED),
      ];
    }
    if (topic.includes('flight')) {
      if (!task)
        return [opening, status(WORKING), status(INPUT_REQUIRED, 'Where would you like to fly from and to?')];
      if (said.toLowerCase().includes('never mind')) return [opening, status(CANCELED, 'Booking stopped.')];
      const found = artifact('Itinerary', `Flight AB123 ${said}`);
      return [opening, status(WORKING, `Searching flights ${said}...`), found, status(COMPLETED)];
    }
    if (topic.includes('report')) {
      const artifactId = randomUUID();
      const chunks = ['Part 1. ', 'Part 2. ', 'Part 3. ', 'Part 4.'].map((text, i, all) =>
        artifact('Report', text, { artifactId, append: i > 0, lastChunk: i === all.length - 1 }),
      );
      return [opening, status(WORKING), ...chunks, status(COMPLETED)];
    }
    if (topic.includes('fail'))
      return [opening, status(WORKING), status(FAILED, 'The upstream service is down.')];
    if (topic.includes('slow')) {
      const steps = Array.from({ length: 20 }, (_, k) => status(WORKING, `step ${k + 1}`));
      return [opening, status(WORKING), ...steps, status(COMPLETED)];
    }
    if (topic.includes('hello') && !task) return undefined;
    return [opening, artifact('Echo', `You said: ${said}`), status(COMPLETED)];
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const run = this.live.get(taskId);
    this.live.delete(taskId);
    if (run) run.stopped = true;
    // Published even for a task this executor lost track of: the SDK's cancel waits for it.
    bus.publish(eventsFor(taskId, run?.contextId ?? '').status(CANCELED)());
  }

  private async play(
    taskId: string,
    contextId: string,
    bus: ExecutionEventBus,
    steps: Step[],
  ): Promise<void> {
    const run = { contextId, stopped: false };
    this.live.set(taskId, run);
    for (const [i, step] of steps.entries()) {
      if (i > 0) {
        try {
          await sleep(this.stepMs, undefined, { signal: this.signal });
        } catch {
          return; // the agent is closing
        }
      }
      if (run.stopped) return;
      const event = step();
      const state = event.kind === 'statusUpdate' ? event.data.status?.state : undefined;
      if (state !== undefined && TERMINAL.has(state) && this.live.get(taskId) === run)
        this.live.delete(taskId);
      bus.publish(event);
    }
  }
}

function recordedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    RECORDED_HEADERS.flatMap((name) => {
      const value = headers[name];
      return value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]];
    }),
  );
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Open streams and hung requests would keep server.close() waiting; their sockets go at once. */
async function shut(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** A real v1.0 A2A agent (the "Travel desk") on 127.0.0.1 and a free port; see the file comment. */
export async function startUpstreamAgent(options: UpstreamAgentOptions = {}): Promise<UpstreamAgent> {
  const { stepMs = 15, streaming = true, interfaces = ['HTTP+JSON', 'JSONRPC', 'JSONRPC-0.3'] } = options;
  const server = createServer();
  const url = await listen(server);
  const card = deskCard(url, interfaces, streaming);
  const stopping = new AbortController();
  const requestHandler = new DefaultRequestHandler(
    AgentCard.fromJSON(card),
    new InMemoryTaskStore(),
    new TravelDesk(stepMs, stopping.signal),
  );
  const userBuilder = UserBuilder.noAuthentication;
  const requests: UpstreamAgent['requests'] = [];
  const app = express();
  app.disable('x-powered-by');
  app.use((req, _res, next) => {
    requests.push({ method: req.method, path: req.originalUrl, headers: recordedHeaders(req.headers) });
    next();
  });
  // No legacyCompat here: with it, a card request without A2A-Version gets the v0.3-shaped card.
  app.use(
    `/${AGENT_CARD_PATH}`,
    agentCardHandler({ agentCardProvider: async () => card as unknown as AgentCard }),
  );
  // The JSON-RPC paths go before REST: the REST router's content-type guard and body parser run on
  // every request that reaches it.
  if (interfaces.includes('JSONRPC')) app.use('/rpc', jsonRpcHandler({ requestHandler, userBuilder }));
  if (interfaces.includes('JSONRPC-0.3'))
    app.use('/v03', jsonRpcHandler({ requestHandler, userBuilder, legacyCompat: { enabled: true } }));
  if (interfaces.includes('HTTP+JSON')) app.use(restHandler({ requestHandler, userBuilder }));
  server.on('request', app);
  return {
    url,
    cardUrl: `${url}/${AGENT_CARD_PATH}`,
    requests,
    close: async () => {
      stopping.abort();
      await shut(server);
    },
  };
}

const STREAMING_RPC_METHODS: ReadonlySet<string> = new Set(['SendStreamingMessage', 'SubscribeToTask']);

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

const CANNED: Partial<Record<Misbehaviour, [status: number, contentType: string, body: string]>> = {
  'invalid-json': [200, 'application/json', '{"task": {"id": '],
  'wrong-media-type': [200, 'text/html', '<html>oops</html>'],
  'error-500': [500, 'text/plain', 'Internal Server Error: upstream exploded'],
};

async function misbehave(mode: Misbehaviour, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const canned = CANNED[mode];
  if (canned) {
    res.writeHead(canned[0], { 'Content-Type': canned[1] }).end(canned[2]);
    return;
  }
  if (mode === 'hang') return;
  // cut-stream
  const path = new URL(req.url ?? '/', 'http://upstream').pathname;
  const rpc = path === '/rpc' ? await readJson(req) : undefined;
  if (!(rpc ? STREAMING_RPC_METHODS.has(rpc.method) : /:(stream|subscribe)$/.test(path))) {
    req.socket.destroy();
    return;
  }
  const state = { state: 'TASK_STATE_SUBMITTED', timestamp: now() };
  const task = { task: { id: randomUUID(), contextId: randomUUID(), status: state } };
  const first = rpc ? { jsonrpc: '2.0', id: rpc.id ?? null, result: task } : task;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.write(`data: ${JSON.stringify(first)}\n\n`);
  // Destroyed only once both writes reached the socket, so the client does see the half event.
  res.write('data: {"statusUpdate":{"taskId"', () => res.socket?.destroy());
}

/**
 * A server whose card is valid (HTTP+JSON at its root, JSONRPC at `/rpc`, streaming), so discovery
 * succeeds, and which then answers every other request the way `mode` says (see Misbehaviour).
 */
export async function startMisbehavingAgent(
  mode: Misbehaviour,
): Promise<{ url: string; cardUrl: string; close(): Promise<void> }> {
  const server = createServer();
  const url = await listen(server);
  const { securitySchemes, securityRequirements, ...valid } = deskCard(url, ['HTTP+JSON', 'JSONRPC'], true);
  const description = `Serves a valid card, then misbehaves on every call (${mode}).`;
  const card = JSON.stringify({ ...valid, name: 'Broken desk', description });
  server.on('request', (req, res) => {
    if (req.method === 'GET' && new URL(req.url ?? '/', url).pathname === `/${AGENT_CARD_PATH}`) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(card);
      return;
    }
    void misbehave(mode, req, res);
  });
  return { url, cardUrl: `${url}/${AGENT_CARD_PATH}`, close: () => shut(server) };
}

/** A port nothing listens on (just released), for a connection that must be refused. */
export async function unusedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
