/**
 * Shared by the chaos acceptance tests: the long report's stream in each dialect, a raw TCP client that sees
 * exactly how a connection ends (FIN, RST, or not at all), SSE frames in wire order, the fault
 * log, and waiting for I/O without moving the virtual clock.
 */
import net from 'node:net';
import type { FaultRecord } from '../../src/chaos/fault-log.js';
import { flushIo, settledYet, type TestSim } from '../helpers/sim.js';
import { postSse, type SseReader } from '../helpers/sse.js';
import { chaosHeader, getJson, rpcEnvelope, V1_HEADERS, v03Send, v1Send } from '../helpers/wire.js';

export type { FaultRecord };

export const REPORT_TEXT = 'Write a long report on climate change';

const V1_TERMINAL = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/** A streaming call of the long report in one dialect, and how to read its payloads. */
export interface StreamBinding {
  name: string;
  operation: string;
  path: string;
  headers: Record<string, string>;
  body(messageId: string): unknown;
  payload(json: any): any;
  /** The state of a status payload, in this dialect's spelling. */
  state(payload: any): string | undefined;
  /** The state of a Task payload. */
  taskState(payload: any): string | undefined;
  isTerminal(payload: any): boolean;
  states: { unknown: string; working: string; completed: string };
}

const V1_STATES = {
  unknown: 'TASK_STATE_UNSPECIFIED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
};
const v1Binding = {
  state: (p: any) => p.statusUpdate?.status.state,
  taskState: (p: any) => p.task?.status.state,
  isTerminal: (p: any) => V1_TERMINAL.includes(p.statusUpdate?.status.state),
  states: V1_STATES,
};
export const STREAMS: StreamBinding[] = [
  {
    name: 'REST',
    operation: 'POST /message:stream',
    path: '/message:stream',
    headers: {},
    body: (id) => v1Send(REPORT_TEXT, { messageId: id }),
    payload: (json) => json,
    ...v1Binding,
  },
  {
    name: 'JSON-RPC 1.0',
    operation: 'SendStreamingMessage',
    path: '/',
    headers: V1_HEADERS,
    body: (id) => rpcEnvelope('SendStreamingMessage', v1Send(REPORT_TEXT, { messageId: id }), { id }),
    payload: (json) => json.result,
    ...v1Binding,
  },
  {
    name: 'JSON-RPC 0.3',
    operation: 'message/stream',
    path: '/',
    headers: {},
    body: (id) => rpcEnvelope('message/stream', v03Send(REPORT_TEXT, { messageId: id }), { id }),
    payload: (json) => json.result,
    state: (p) => (p.kind === 'status-update' ? p.status.state : undefined),
    taskState: (p) => (p.kind === 'task' ? p.status.state : undefined),
    isTerminal: (p) => p.kind === 'status-update' && p.final === true,
    states: { unknown: 'unknown', working: 'working', completed: 'completed' },
  },
];
/** The long report's stream over REST and over JSON-RPC 1.0. */
export const [REST_STREAM, RPC_STREAM] = STREAMS as [StreamBinding, StreamBinding, StreamBinding];

/** Opens the long report as a stream under `profile` (`id` names its message and request). */
export const startStream = (t: TestSim, b: StreamBinding, id: string, profile: string) =>
  postSse(`${t.url}${b.path}`, b.body(id), { ...b.headers, ...chaosHeader(profile) });
/** The id of the only task of this simulator, read without chaos and without moving the clock. */
export const onlyTaskId = async (t: TestSim) =>
  (await getJson(t, '/tasks', chaosHeader('off'))).body.tasks[0].id as string;
/** The SSE ids `1` to `n`: the seqs of a task's first n events. */
export const seqsTo = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
/** The id of the task a stream's first frame opens. */
export const reportTaskId = (b: StreamBinding, json: any) => {
  const p = b.payload(json);
  return (p.task?.id ?? p.id) as string;
};

/** Yields to the event loop until `condition` holds; never moves the clock. */
export async function waitUntil(
  condition: () => boolean,
  what = 'condition',
  turns = 100_000,
): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`waitUntil: ${what} did not happen`);
}

/** Moves the clock to the next timer, fires it, and lets the I/O it caused run. */
async function step(t: TestSim): Promise<boolean> {
  const next = t.clock.nextAt();
  if (next === undefined) return false;
  t.clock.advance(Math.max(0, next - t.clock.now()));
  await flushIo(10);
  return true;
}

/** Like `drive`, with more I/O turns between clock jumps: a reader catches up before time moves on. */
export async function settle<T>(t: TestSim, work: Promise<T>, maxSteps = 20_000): Promise<T> {
  const settled = settledYet(work);
  for (let i = 0; !settled(); i++) {
    if (i > maxSteps) throw new Error('settle: still pending');
    await flushIo(5);
    if (!settled() && !(await step(t))) await flushIo(20);
  }
  return work;
}

/** Moves the clock from timer to timer until `condition` holds (checked after the I/O of each step). */
export async function runUntil(t: TestSim, condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    await flushIo(5);
    if (condition()) return;
    if (!(await step(t))) {
      await flushIo(50);
      if (condition()) return;
      throw new Error(`runUntil: no timer left and ${what} did not happen`);
    }
  }
  throw new Error(`runUntil: ${what} did not happen`);
}

/** Resolves after `ms` of virtual time. */
export const sleep = (t: TestSim, ms: number) =>
  new Promise<void>((resolve) => t.clock.setTimer(ms, resolve));

export async function faultsOf(
  t: TestSim,
  query: { taskId?: string; kind?: string; after?: number } = {},
): Promise<FaultRecord[]> {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  );
  return (await getJson(t, `/_sim/faults?${params}`)).body.faults as FaultRecord[];
}

// ---------------------------------------------------------------------------------------------
// SSE frames in wire order

export interface Frame {
  comment?: string;
  id?: string;
  event?: string;
  /** The raw `data:` text; `json` is it parsed. */
  data?: string;
  json?: any;
}

/** Splits an SSE body into its frames (events and comments), in the order they were sent. */
export function framesOf(body: string): Frame[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else if (line.startsWith('id: ')) frame.id = line.slice(4);
        else if (line.startsWith('event: ')) frame.event = line.slice(7);
        else if (line.startsWith('data: ')) frame.data = line.slice(6);
      }
      if (frame.data !== undefined) frame.json = JSON.parse(frame.data);
      return frame;
    });
}

export const dataFrames = (frames: Frame[]) => frames.filter((f) => f.data !== undefined);
export const ids = (frames: Frame[]) => dataFrames(frames).flatMap((f) => (f.id === undefined ? [] : [f.id]));

// ---------------------------------------------------------------------------------------------
// A raw HTTP/1.1 exchange over node:net

export interface RawExchange {
  /** The response as far as it came: status, headers, and the chunked body decoded. */
  readonly status: number | undefined;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Bytes received in all. */
  readonly received: number;
  /** The server closed its side cleanly (FIN). */
  readonly fin: boolean;
  /** The socket error, e.g. `ECONNRESET`. */
  readonly error: string | undefined;
  readonly closed: boolean;
  /** The terminating zero-length chunk arrived: the response ended properly. */
  readonly complete: boolean;
  frames(): Frame[];
  /** The client's port: names the server's side of this connection. */
  readonly localPort: number | undefined;
  /** The client gives up: the socket is destroyed. */
  abort(): void;
}

/** Sends one request on a fresh connection and records everything that comes back, as it comes. */
export function rawRequest(
  t: TestSim,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): RawExchange {
  const text = body === undefined ? '' : JSON.stringify(body);
  const socket = net.connect(t.sim.port, '127.0.0.1');
  let bytes = Buffer.alloc(0);
  const state = { fin: false, error: undefined as string | undefined, closed: false };
  socket.on('data', (chunk: Buffer) => (bytes = Buffer.concat([bytes, chunk])));
  socket.on('end', () => (state.fin = true));
  socket.on('error', (error: NodeJS.ErrnoException) => (state.error = error.code ?? error.message));
  socket.on('close', () => (state.closed = true));
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${t.sim.port}`,
    ...Object.entries({
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    }).map(([key, value]) => `${key}: ${value}`),
  ].join('\r\n');
  socket.write(`${head}\r\n\r\n${text}`);

  const parse = () => {
    const raw = bytes.toString('latin1');
    const end = raw.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const rest = bytes.subarray(Buffer.byteLength(raw.slice(0, end + 4), 'latin1'));
    return { status: Number(statusLine.split(' ')[1]), headers, ...decodeBody(rest, headers) };
  };
  return {
    get status() {
      return parse()?.status;
    },
    get headers() {
      return parse()?.headers ?? {};
    },
    get body() {
      return parse()?.body ?? '';
    },
    get complete() {
      return parse()?.complete ?? false;
    },
    get received() {
      return bytes.length;
    },
    get fin() {
      return state.fin;
    },
    get error() {
      return state.error;
    },
    get closed() {
      return state.closed;
    },
    get localPort() {
      return socket.localPort;
    },
    frames() {
      return framesOf(this.body);
    },
    abort() {
      socket.destroy();
    },
  };
}

function decodeBody(rest: Buffer, headers: Record<string, string>): { body: string; complete: boolean } {
  if (headers['transfer-encoding'] !== 'chunked') {
    const length = Number(headers['content-length'] ?? NaN);
    return { body: rest.toString('utf8'), complete: rest.length === length };
  }
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = rest.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(rest.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return { body: Buffer.concat(parts).toString('utf8'), complete: true };
    if (rest.length < eol + 2 + size) break;
    parts.push(rest.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return { body: Buffer.concat(parts).toString('utf8'), complete: false };
}

/** Stamps each event of an SSE reader with the virtual time it was read at. */
export class TimedReader {
  readonly events: { id: string | undefined; data: string; json: any; at: number }[] = [];

  constructor(
    readonly reader: SseReader,
    private readonly t: TestSim,
  ) {}

  /** Takes what has arrived; true once the stream is over. */
  poll(): boolean {
    for (const e of this.reader.drain())
      this.events.push({ id: e.id, data: e.data, json: e.json, at: this.t.clock.now() });
    return this.reader.closed;
  }

  at(id: string): number {
    return this.events.find((e) => e.id === id)!.at;
  }
}
