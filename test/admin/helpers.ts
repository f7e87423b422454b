/**
 * Shared by the control-plane tests: admin calls, a message in each binding's shapes, and a
 * WebSocket watcher of the live feed that collects every message it gets.
 */
import { mkdtemp } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { SimEvent } from '../../src/admin/events.js';
import { flushIo, type TestSim } from '../helpers/sim.js';

export const JSON_HEADERS = { 'Content-Type': 'application/json' };

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One HTTP call answered at once (the clock stays put); JSON in and out. */
export async function http(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { ...(body !== undefined && JSON_HEADERS), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * A call to the admin API as a script makes it: `admin(t, 'GET', '/tasks?agent=explore')`. It sends
 * `X-Sim-Admin: 1`, which a change without a JSON body needs.
 */
export const admin = (
  t: TestSim,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => http(`${t.url}/_sim${path}`, method, body, { 'X-Sim-Admin': '1', ...headers });

export const v1Message = (text: string, messageId: string, extra: Record<string, unknown> = {}) => ({
  message: { role: 'ROLE_USER', parts: [{ text }], messageId, ...extra },
});
export const v03Message = (text: string, messageId: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', role: 'user', parts: [{ kind: 'text', text }], messageId, ...extra },
});
export const rpc = (method: string, params: unknown, id: string | number, extra = {}) => ({
  ...extra,
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/**
 * A blocking send over REST at `base` (the root, `/acme` for a tenant, `/agents/explore`), driven
 * on virtual time until the turn ends; the task (or message) it answered.
 */
export async function restSend(t: TestSim, base: string, text: string, messageId: string, extra = {}) {
  const answer = await t.drive(
    http(`${t.url}${base}/message:send`, 'POST', v1Message(text, messageId, extra)),
  );
  if (answer.status !== 200) throw new Error(`send failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.task ?? answer.body.message;
}

/** A blocking v0.3 `message/send` through the gateway, as agent `explore` in `workspace`. */
export async function gatewaySend(t: TestSim, workspace: string, text: string, messageId: string) {
  const answer = await t.drive(
    http(
      `${t.url}${t.sim.gatewayPath}`,
      'POST',
      rpc('message/send', v03Message(text, messageId), `gw-${messageId}`, { agent_code: 'explore' }),
      { 'X-Workspace-ID': workspace },
    ),
  );
  if (!answer.body.result) throw new Error(`gateway send failed: ${JSON.stringify(answer.body)}`);
  return answer.body.result;
}

/** A fresh temporary directory for scenario files. */
export const tempDir = (name: string) => mkdtemp(join(tmpdir(), `a2a-sim-${name}-`));

/** A feed message: the bus event, and `payload` on a `task:event`. */
export type FeedMessage = SimEvent & { payload?: any };

/** A live-feed connection that records every message and how it ended. */
export interface Watcher {
  ws: WebSocket;
  messages: FeedMessage[];
  /** Set once the connection closed: the close code and reason the client saw. */
  closed?: { code: number; reason: string };
  /** Resolves with the close code and reason. */
  done: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export interface WatchOptions {
  headers?: Record<string, string>;
  /** Another way to reach the server, e.g. over a non-loopback address. */
  base?: string;
  /** Another path to try to upgrade. */
  path?: string;
}

/**
 * Opens `/_sim/feed` (with `query`) and resolves once it is open; rejects with {@link FeedRefused}
 * (the HTTP status, headers and body) if the upgrade is refused.
 */
export function watchFeed(
  t: TestSim,
  query = '',
  { headers = {}, base = t.url, path = '/_sim/feed' }: WatchOptions = {},
): Promise<Watcher> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}${query}`, { headers });
  const watcher: Watcher = {
    ws,
    messages: [],
    done: new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        watcher.closed = { code, reason: reason.toString() };
        resolve(watcher.closed);
      }),
    ),
    close: async () => {
      if (ws.readyState === ws.CLOSED) return;
      ws.close();
      await watcher.done;
    },
  };
  ws.on('message', (data) => watcher.messages.push(JSON.parse(String(data)) as FeedMessage));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(watcher));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => reject(new FeedRefused(res.statusCode ?? 0, body, res.headers)));
    });
    ws.once('error', reject);
  });
}

export class FeedRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(`feed refused: ${status} ${body}`);
  }
}

/** Lets I/O run (never the clock) until `condition` holds. */
export async function ioUntil(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (condition()) return;
    await flushIo(5);
  }
  throw new Error(`ioUntil: ${what} did not happen`);
}

/** A non-loopback address of this machine, to reach a server bound to 0.0.0.0 from "elsewhere". */
export function nonLoopbackAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (!a.internal && a.family === 'IPv4') return a.address;
  }
  return undefined;
}
