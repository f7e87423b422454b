/**
 * The agent behind `--proxy` in the hostile soak (bench/soak-process.ts): a node:http server on
 * 127.0.0.1 in the soak's own process that serves an honest card (HTTP+JSON v1.0, streaming) and
 * then answers every message as its text asks, each answer aimed at one of the proxy's limits
 * (docs/limits.md, "Proxy"). Everything it writes goes out in 64 KiB chunks, as fast as the
 * simulator reads or once per virtual second, until the simulator hangs up: none of them ends.
 *
 *   hostile flood-events   SSE: the task, then 64 KiB artifact events without end (the store's budget)
 *   hostile flood-line     SSE: the task, then one data line that never ends (MAX_AGENT_EVENT_BYTES)
 *   hostile big-body       JSON, chunked, without end (MAX_AGENT_BODY_BYTES, as it arrives)
 *   hostile big-declared   JSON declared 64 MiB long (MAX_AGENT_BODY_BYTES, on its Content-Length)
 *   hostile idle-stream    SSE: the task, then a 64 KiB comment per virtual second (RELAY_IDLE_MS)
 *   hostile slow-stream    SSE: the task, then a status every 30 virtual seconds (RELAY_TOTAL_MS)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTILE_ANSWERS = [
  'flood-events',
  'flood-line',
  'big-body',
  'big-declared',
  'idle-stream',
  'slow-stream',
] as const;
export type HostileAnswer = (typeof HOSTILE_ANSWERS)[number];

/** What the agent needs of the soak's clock: its timers run in virtual time. */
export interface AgentClock {
  now(): number;
  setTimer(delayMs: number, fn: () => void): { cancel(): void };
}

export interface HostileAgent {
  url: string;
  /** Answers started, by kind; connections the simulator has not let go yet. */
  answered: Record<HostileAnswer, number>;
  open: number;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;
const FILLER = 'x'.repeat(CHUNK);
const CARD_PATH = '/.well-known/agent-card.json';

export async function startHostileAgent(clock: AgentClock): Promise<HostileAgent> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = JSON.stringify(cardOf(url));
  const agent: HostileAgent = {
    url,
    answered: Object.fromEntries(HOSTILE_ANSWERS.map((a) => [a, 0])) as Record<HostileAnswer, number>,
    open: 0,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
  let tasks = 0;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // The simulator hangs up on every answer here: that is what the answers are for.
    res.on('error', () => {});
    agent.open++;
    res.once('close', () => agent.open--);
    if (req.method === 'GET' && req.url === CARD_PATH) {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(card);
      return;
    }
    void readText(req).then((body) => {
      const kind = HOSTILE_ANSWERS.find((a) => body.includes(`hostile ${a}`));
      if (!kind || req.url !== '/message:stream') {
        const error = { error: { code: 404, status: 'NOT_FOUND', message: 'Not found.' } };
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      agent.answered[kind]++;
      answer(kind, `hostile-${++tasks}`, res, clock);
    });
  });
  return agent;
}

function answer(kind: HostileAnswer, id: string, res: ServerResponse, clock: AgentClock): void {
  const at = () => new Date(clock.now()).toISOString();
  const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
  const task = frame({
    task: { id, contextId: `ctx-${id}`, status: { state: 'TASK_STATE_WORKING', timestamp: at() } },
  });
  let n = 0;
  switch (kind) {
    case 'flood-events':
      openSse(res, task);
      return flood(res, () =>
        frame({
          artifactUpdate: {
            taskId: id,
            contextId: `ctx-${id}`,
            artifact: { artifactId: `a-${++n}`, parts: [{ text: FILLER }] },
            lastChunk: true,
          },
        }),
      );
    case 'flood-line':
      openSse(res, `${task}data: {"artifactUpdate": {"taskId": "${id}", "artifact": {"parts": [{"text": "`);
      return flood(res, () => FILLER);
    case 'big-body':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`{"task": {"id": "${id}", "metadata": {"pad": "`);
      return flood(res, () => FILLER);
    case 'big-declared':
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 64 * 2 ** 20 });
      res.write(`{"task": {"id": "${id}", "metadata": {"pad": "`);
      return flood(res, () => FILLER);
    case 'idle-stream':
      openSse(res, task);
      return drip(res, clock, 1_000, () => `:${FILLER}\n\n`);
    case 'slow-stream':
      openSse(res, task);
      return drip(res, clock, 30_000, () =>
        frame({
          statusUpdate: {
            taskId: id,
            contextId: `ctx-${id}`,
            status: {
              state: 'TASK_STATE_WORKING',
              timestamp: at(),
              message: {
                messageId: `${id}-${++n}`,
                role: 'ROLE_AGENT',
                parts: [{ text: `still working (${n})` }],
              },
            },
          },
        }),
      );
  }
}

function openSse(res: ServerResponse, first: string): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.write(first);
}

/** Writes `next()` as fast as the simulator reads, until it hangs up. */
function flood(res: ServerResponse, next: () => string): void {
  const more = () => {
    while (!res.destroyed && res.write(next()));
  };
  res.on('drain', more);
  more();
}

/** Writes `next()` every `everyMs` of virtual time, until the simulator hangs up. */
function drip(res: ServerResponse, clock: AgentClock, everyMs: number, next: () => string): void {
  const tick = () => {
    if (res.destroyed) return;
    // A simulator that stops reading without hanging up must not make this agent the one that grows.
    if (res.writableLength < 4 * CHUNK) res.write(next());
    timer = clock.setTimer(everyMs, tick);
  };
  let timer = clock.setTimer(everyMs, tick);
  res.once('close', () => timer.cancel());
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function cardOf(url: string) {
  return {
    name: 'Hostile agent',
    description: 'Answers every message with one of the proxy limits in mind.',
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'all', name: 'All', description: 'Everything.', tags: ['any'] }],
  };
}
