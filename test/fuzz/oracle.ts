/**
 * What the fuzz suite holds every answer to: no 5xx unless the request asked chaos for one (and the
 * fault log shows it was injected), a well-formed protocol error for every refusal (REST:
 * `{error:{code,status,message}}` with code = HTTP status; JSON-RPC: `{jsonrpc, id, error:{code,
 * message}}` echoing the id), well-formed SSE frames, nothing logged as a simulator bug, and no
 * request left without an answer. Requests go over node:http, which sends any path and method.
 */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'vitest';
import type { FaultRecord } from '../../src/chaos/fault-log.js';
import { createLogger, type Logger } from '../../src/lib/log.js';
import type { VirtualClock } from '../../src/lib/clock.js';

export interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Exchange {
  probe: Probe;
  /** Undefined when no answer came: the connection failed or nothing came at all. */
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The answer was still coming (an open stream) when the exchange gave up on it. */
  open: boolean;
  /** The socket error, e.g. ECONNRESET. */
  error?: string;
  /** Faults chaos injected while the exchange ran. */
  faults: FaultRecord[];
}

/** The simulator as the fuzz suite sees it: where it is, its clock, what it injected and logged. */
export interface Target {
  url: string;
  /** A virtual clock to move when nothing else happens; absent on real time. */
  clock?: VirtualClock;
  faults: FaultRecord[];
  /** Lines the simulator logged at level error: every one is a simulator bug. */
  errors: string[];
}

/** A logger that keeps what the simulator reports as its own bugs. */
export function bugLogger(into: string[]): Logger {
  return createLogger({ level: 'error', format: 'pretty', write: (line) => into.push(line) });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Loop turns with nothing happening before the virtual clock moves to its next timer. */
const IDLE_TURNS = 8;
/**
 * Give up on an answer after this many clock moves, or this many idle loop turns with no timer due:
 * many before an answer starts (reading files, say, takes real I/O), few into a stream that has
 * gone quiet (an input-required task, a hanging proxy).
 */
const MAX_JUMPS = 400;
const MAX_IDLE = 200_000;
const MAX_IDLE_STREAMING = 4000;

/**
 * Sends one probe and reads its answer to the end, moving the virtual clock whenever the loop is
 * idle (timers stand for scenario delays, chaos latency, keep-alives). A stream that never ends
 * (input-required, a hanging proxy) is cut after a bounded number of moves and reported as open.
 */
export function exchange(target: Target, probe: Probe): Promise<Exchange> {
  const firstFault = target.faults.length;
  const { hostname, port } = new URL(target.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const result: Omit<Exchange, 'faults'> = { probe, headers: {}, body: '', open: false };
    let settled = false;
    let progress = 0;
    const finish = (extra: Partial<Exchange> = {}) => {
      if (settled) return;
      settled = true;
      resolve({
        ...result,
        body: Buffer.concat(chunks).toString('utf8'),
        ...extra,
        faults: target.faults.slice(firstFault),
      });
    };
    // node:http frames a GET, DELETE or OPTIONS body only when told its length; unframed, the body
    // would read as the start of the next request on the connection.
    const length =
      probe.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(probe.body)) };
    const req = http.request({
      host: hostname,
      port,
      method: probe.method,
      path: probe.path,
      headers: { ...length, ...probe.headers },
      agent,
    });
    req.on('response', (res) => {
      result.status = res.statusCode;
      result.headers = res.headers;
      progress++;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        progress++;
      });
      res.on('end', () => finish());
      res.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
      res.on('close', () => finish({ open: !res.complete }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
    req.end(probe.body);

    // Drives time only while nothing happens: no wall-clock wait anywhere.
    let idle = 0;
    let jumps = 0;
    let seen = 0;
    const tick = () => {
      if (settled) return;
      idle = progress === seen ? idle + 1 : 0;
      seen = progress;
      const next = target.clock?.nextAt();
      if (idle >= IDLE_TURNS && next !== undefined && target.clock && jumps < MAX_JUMPS) {
        target.clock.advance(Math.max(0, next - target.clock.now()));
        jumps++;
        idle = 0;
      } else if (
        jumps >= MAX_JUMPS ||
        idle >= (result.status === undefined ? MAX_IDLE : MAX_IDLE_STREAMING)
      ) {
        req.destroy();
        finish({ open: true });
        return;
      }
      setImmediate(tick);
    };
    setImmediate(tick);
  });
}

/** Sends each probe in turn; the exchanges, in order. */
export async function exchanges(target: Target, probes: readonly Probe[]): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (const probe of probes) out.push(await exchange(target, probe));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Checks

const describeExchange = (x: Exchange) =>
  `${x.probe.method} ${x.probe.path} ${JSON.stringify(x.probe.headers)} ${x.probe.body?.slice(0, 300) ?? ''}\n→ ${x.status} ${x.error ?? ''} ${x.body.slice(0, 500)}`;

/** Whether chaos injected a failure into this exchange: a 5xx or a cut connection is then expected. */
function chaosFailed(x: Exchange): boolean {
  return x.faults.some((f) => f.kind === 'error' || f.kind === 'drop');
}

/** The common part: an answer came, it is not a 5xx, and nothing was logged as a bug. */
export function checkAnswered(target: Target, x: Exchange): void {
  expect(target.errors, describeExchange(x)).toEqual([]);
  if (chaosFailed(x)) return;
  expect(x.error, describeExchange(x)).toBeUndefined();
  expect(x.status, `no answer: ${describeExchange(x)}`).toBeDefined();
  expect(x.status!, describeExchange(x)).toBeLessThan(500);
  if (x.open) expect(isSse(x), `an answer that never ended: ${describeExchange(x)}`).toBe(true);
}

function isSse(x: Exchange): boolean {
  return String(x.headers['content-type'] ?? '').startsWith('text/event-stream');
}

function parseJsonBody(x: Exchange): any {
  try {
    return JSON.parse(x.body);
  } catch {
    throw new Error(`not JSON: ${describeExchange(x)}`);
  }
}

/** A `google.rpc.Status` error body whose code is the HTTP status. */
export function checkStatusBody(x: Exchange, body: any): void {
  expect(body?.error, describeExchange(x)).toMatchObject({
    code: x.status,
    status: expect.stringMatching(/^[A-Z_]+$/),
    message: expect.any(String),
  });
}

/**
 * An answer of the HTTP+JSON binding, the agent card, the admin API or a 404 for an unknown path:
 * errors as `google.rpc.Status`, successes as JSON or a stream, what HTTP says for the rest.
 */
export function checkRest(target: Target, x: Exchange, { files = false } = {}): void {
  checkAnswered(target, x);
  if (x.status === undefined || x.status >= 500 || x.probe.method === 'HEAD') return;
  if (isSse(x))
    return checkSseFrames(x, (data, event) => {
      if (event === 'error') checkStatusBody({ ...x, status: data?.error?.code }, data);
      else
        expect(
          Object.keys(data ?? {}).filter((k) =>
            ['task', 'message', 'statusUpdate', 'artifactUpdate'].includes(k),
          ),
          describeExchange(x),
        ).toHaveLength(1);
    });
  if ([204, 304].includes(x.status)) return expect(x.body, describeExchange(x)).toBe('');
  if (x.status === 301 || x.status === 101) return;
  if (x.status >= 400) {
    expect(String(x.headers['content-type']), describeExchange(x)).toMatch(/^application\/(a2a\+)?json/);
    checkStatusBody(x, parseJsonBody(x));
    if (x.status === 405) expect(x.headers['allow'], describeExchange(x)).toBeTruthy();
    return;
  }
  // Express answers OPTIONS itself with the methods a path takes; the dashboard's files are not JSON.
  if (x.probe.method === 'OPTIONS' || (files && !String(x.headers['content-type']).includes('json'))) return;
  expect(typeof parseJsonBody(x), describeExchange(x)).toBe('object');
}

/** The id a JSON-RPC answer must echo: the request's, when it sent a valid one; else null. */
export function expectedId(text: string | undefined): unknown {
  try {
    const body = JSON.parse(text ?? '');
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !('id' in body)) return null;
    const id = body.id;
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  } catch {
    return null;
  }
}

/** A JSON-RPC envelope: `jsonrpc: "2.0"`, the id, and a result or an error with an integer code. */
function checkEnvelope(x: Exchange, body: any): void {
  const id = expectedId(x.probe.body);
  expect(body?.jsonrpc, describeExchange(x)).toBe('2.0');
  expect(
    body.id === null || JSON.stringify(body.id) === JSON.stringify(id),
    `id ${JSON.stringify(body.id)}, sent ${JSON.stringify(id)}: ${describeExchange(x)}`,
  ).toBe(true);
  expect('result' in body !== 'error' in body, describeExchange(x)).toBe(true);
  if ('error' in body) {
    expect(Number.isInteger(body.error?.code), describeExchange(x)).toBe(true);
    expect(typeof body.error.message, describeExchange(x)).toBe('string');
  }
}

/**
 * A JSON-RPC answer: HTTP 200 (or, on the gateway, the envelope error statuses; anywhere, an auth
 * failure's), a JSON envelope or a stream of them.
 */
export function checkRpc(target: Target, x: Exchange, statuses: readonly number[]): void {
  checkAnswered(target, x);
  if (x.status === undefined || x.status >= 500) return;
  if (!chaosFailed(x)) expect(statuses, describeExchange(x)).toContain(x.status);
  if (isSse(x)) return checkSseFrames(x, (data) => checkEnvelope(x, data));
  expect(String(x.headers['content-type']), describeExchange(x)).toMatch(/^application\/json/);
  checkEnvelope(x, parseJsonBody(x));
}

/** Each SSE frame has only `id:`, `event:`, `data:` and comment lines; each `data:` is JSON. */
function checkSseFrames(x: Exchange, checkData: (data: any, event: string | undefined) => void): void {
  const frames = x.body.split('\n\n');
  // A stream cut before its end may stop mid-frame.
  if (x.open || x.error) frames.pop();
  for (const frame of frames) {
    if (frame.trim() === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) continue;
      const [field] = line.split(':', 1);
      expect(['id', 'event', 'data'], `frame line "${line}": ${describeExchange(x)}`).toContain(field);
      const value = line.slice(field!.length + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      if (field === 'data') data.push(value);
      if (field === 'id') expect(value, describeExchange(x)).toMatch(/^\d+$/);
    }
    if (data.length) checkData(JSON.parse(data.join('\n')), event);
  }
}

// ---------------------------------------------------------------------------------------------
// WebSocket upgrades

/**
 * Asks to upgrade `path` to a WebSocket and reads the answer's head (and body): a 101 is closed at
 * once; any refusal must be the admin API's error body, code = HTTP status. The server closes a
 * refused upgrade itself; a probe nothing answers fails after a bounded number of idle loop turns.
 */
export function upgrade(target: Target, path: string, headers: Record<string, string>): Promise<Exchange> {
  const { hostname, port } = new URL(target.url);
  const probe: Probe = { method: 'GET', path, headers };
  const head = [
    `GET ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head.join('\r\n')}\r\n\r\n`));
    const received: Buffer[] = [];
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const text = Buffer.concat(received).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const lines = text.slice(0, Math.max(0, end)).split('\r\n');
      const status = end < 0 ? undefined : Number(lines[0]!.split(' ')[1]);
      const answerHeaders = Object.fromEntries(
        lines
          .slice(1)
          .map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
      );
      resolve({
        probe,
        status,
        headers: answerHeaders,
        body: end < 0 ? '' : text.slice(end + 4),
        open: false,
        faults: [],
        ...(error && { error }),
      });
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (Buffer.concat(received).toString('latin1').startsWith('HTTP/1.1 101')) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code));
    socket.on('close', () => finish());
    let idle = 0;
    const tick = () => {
      if (settled) return;
      if (++idle > MAX_IDLE) return finish('no answer');
      setImmediate(tick);
    };
    setImmediate(tick);
  });
}

/** An upgrade's answer: 101, or a refusal with the admin API's error body. */
export function checkUpgrade(target: Target, x: Exchange): void {
  checkAnswered(target, x);
  if (x.status === 101) return;
  expect(String(x.headers['content-type']), describeExchange(x)).toMatch(/^application\/json/);
  checkStatusBody(x, parseJsonBody(x));
}
