/**
 * A hostile A2A agent for proxy tests: a node:http server on 127.0.0.1 and a free port that serves a
 * card (HTTP+JSON v1.0 at its root unless told otherwise) and answers every other request the way
 * the test says. It remembers what it received and sees when the simulator hangs up, so a test can
 * tell that a connection was let go without waiting on the wall clock.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CARD_PATH = '/.well-known/agent-card.json';

/** One request the agent received. */
export interface Received {
  method: string;
  path: string;
  /** Every header, lowercase names. */
  headers: Record<string, string>;
  /** The body parsed as JSON, undefined when there was none or it was not JSON. */
  body: any;
  /** Resolves when the simulator's connection for this request closed, however it ended. */
  closed: Promise<void>;
  /** Whether the answer was written to its end before the connection closed. */
  answered(): boolean;
}

export type Answer = (request: Received, res: ServerResponse) => void | Promise<void>;

export interface HostileAgentOptions {
  /** The card to serve, given the agent's base URL; default {@link v1Card} with streaming. */
  card?: (url: string) => unknown;
  /** What every request but the card's gets. */
  answer: Answer;
}

export interface HostileAgent {
  url: string;
  received: Received[];
  /** Requests other than the card's. */
  calls(): Received[];
  close(): Promise<void>;
}

/** A v1.0 card declaring HTTP+JSON at `url` (or `at`). */
export function v1Card(url: string, { streaming = true, at = url } = {}) {
  return {
    name: 'Hostile agent',
    description: 'Answers as the test says.',
    version: '1.0.0',
    supportedInterfaces: [{ url: at, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'all', name: 'All', description: 'Everything.', tags: ['any'] }],
  };
}

export async function startHostileAgent(options: HostileAgentOptions): Promise<HostileAgent> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = JSON.stringify((options.card ?? ((u: string) => v1Card(u)))(url));
  const received: Received[] = [];
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    void readBody(req).then((text) => {
      const request: Received = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flatHeaders(req),
        body: parse(text),
        closed,
        answered: () => res.writableFinished,
      };
      received.push(request);
      if (request.method === 'GET' && new URL(request.path, url).pathname === CARD_PATH) {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(card);
        return;
      }
      // A socket error after the simulator hung up is what these tests provoke: not a failure.
      res.on('error', () => {});
      void Promise.resolve(options.answer(request, res)).catch(() => res.destroy());
    });
  });
  return {
    url,
    received,
    calls: () => received.filter((r) => new URL(r.path, url).pathname !== CARD_PATH),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : value!,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// What an agent answers, as v1.0 ProtoJSON

export const at = (ms = 0) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

export function wireTask(id: string, state = 'TASK_STATE_WORKING', extra: Record<string, unknown> = {}) {
  return { id, contextId: `ctx-${id}`, status: { state, timestamp: at() }, ...extra };
}

export function wireStatus(taskId: string, state: string, text?: string, ms = 0) {
  return {
    statusUpdate: {
      taskId,
      contextId: `ctx-${taskId}`,
      status: {
        state,
        timestamp: at(ms),
        ...(text !== undefined && {
          message: { messageId: `m-${taskId}-${ms}`, role: 'ROLE_AGENT', parts: [{ text }] },
        }),
      },
    },
  };
}

export function wireArtifact(taskId: string, artifactId: string, text: string) {
  return {
    artifactUpdate: {
      taskId,
      contextId: `ctx-${taskId}`,
      artifact: { artifactId, parts: [{ text }] },
      lastChunk: true,
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
}

export const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** Writes `chunk`, waiting for the socket to drain when its buffer is full; false once it closed. */
export function write(res: ServerResponse, chunk: string | Buffer): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

let sent = 0;

/** A user message as a client sends it to the simulator over REST. */
export const userSend = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { role: 'ROLE_USER', messageId: `u-${++sent}`, parts: [{ text }] },
  ...extra,
});
