/**
 * Shared by the control-plane tests: blocking sends over REST and the gateway, and a WebSocket
 * watcher of the live feed that collects every message it gets (admin calls: helpers/wire.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { SimEvent } from '../../src/admin/events.js';
import { flushIo, type TestSim } from '../helpers/sim.js';
import { postJson, rpc, v03Send, v1Send } from '../helpers/wire.js';

/**
 * A blocking send over REST at `base` (the root, `/acme` for a tenant, `/agents/explore`), driven
 * on virtual time until the turn ends; the task (or message) it answered.
 */
export async function restSend(t: TestSim, base: string, text: string, messageId: string, extra = {}) {
  const answer = await t.drive(postJson(t, `${base}/message:send`, v1Send(text, { messageId, ...extra })));
  if (answer.status !== 200) throw new Error(`send failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.task ?? answer.body.message;
}

/** A blocking v0.3 `message/send` through the gateway, as agent `explore` in `workspace`. */
export async function gatewaySend(t: TestSim, workspace: string, text: string, messageId: string) {
  const answer = await t.drive(
    rpc(t, 'message/send', v03Send(text, { messageId }), {
      path: t.sim.gatewayPath,
      id: `gw-${messageId}`,
      envelope: { agent_code: 'explore' },
      headers: { 'X-Workspace-ID': workspace },
    }),
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

/** The FeedRefused of an upgrade that must be refused; fails if the feed opened. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the upgrade to be refused');
    },
    (error: unknown) => {
      if (!(error instanceof FeedRefused)) throw error;
      return error;
    },
  );

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
