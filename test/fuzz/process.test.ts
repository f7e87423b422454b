/**
 * Seeded fuzzing of the built CLI in a child process (`a2a-sim serve`, real time, speed 0, an admin
 * token and an API key), over raw sockets: well-formed requests of every binding and the admin API
 * with raw header bytes, and malformed HTTP (odd request lines, bad framing, huge headers). A crash
 * shows as the process exiting; afterwards it must still answer /_sim/health and must have logged
 * no error.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../helpers/cli.js';
import { parseAnswer, rawHttp, type RawAnswer } from '../helpers/raw-http.js';
import { fuzzParams, fuzzTimeout, hostileValue, oddText, queryString, segment } from './arbitraries.js';
import { rpcBody, v03Call, v1Call } from './requests.js';

const TOKEN = 'tok-3';

let server: ReturnType<typeof serve>;
let url: string;

beforeAll(async () => {
  server = serve([
    'serve',
    ...['--port', '0', '--host', '127.0.0.1', '--speed', '0', '--admin-token', TOKEN],
    ...['--api-key', 'key-1=ws-1', '--log-level', 'error'],
  ]);
  url = await server.url;
});
afterAll(async () => {
  await server.stop();
});

/** Writes `request` as it is and reads the answer until the server hangs up (or a stream starts). */
function send(request: Buffer): Promise<{ answer: RawAnswer | undefined; error?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    // Written, not ended: Node's server hangs up on a client that half-closes before it answers.
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const received: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      // A stream or a WebSocket stays open, and so may a kept-alive connection: once the head (and
      // the body it announces) is in, that is the answer.
      const bytes = Buffer.concat(received);
      const text = bytes.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = text.slice(0, end);
      const length = /^content-length: *(\d+)/im.exec(head);
      if (/^HTTP\/1\.1 101|^content-type: text\/event-stream/im.test(head)) socket.destroy();
      else if (length && bytes.length - end - 4 >= Number(length[1])) socket.destroy();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () =>
      resolve({ answer: parseAnswer(Buffer.concat(received)), ...(error && { error }) }),
    );
  });
}

const CHAOS = fc.constantFrom(
  'drop-after-events=1',
  'duplicate-probability=1, duplicate-late-by=1',
  'latency-first-byte=5ms, latency-per-event=0..5ms',
  'quirks=unknown-state+final-snapshot',
  '__proto__=1',
  'constructor',
  'latency-first-byte=1000h',
  'drop-mode=reset, drop-after-events=0',
  'profile=quirky-agent',
);

/** A header line: name and value, the value sometimes with raw bytes a client library would refuse. */
const headerLine = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      'Content-Type',
      'A2A-Version',
      'Accept',
      'X-API-Key',
      'X-Workspace-ID',
      'Last-Event-ID',
      'Origin',
    ),
    fc.oneof(
      fc.constantFrom('application/json', '1.0', '0.3', 'key-1', 'ws-1', '3', 'text/event-stream'),
      oddText,
    ),
  ),
  fc.tuple(fc.constant('X-Sim-Chaos'), CHAOS),
  fc.tuple(
    fc.constantFrom('X-Admin-Token', 'Authorization'),
    fc.constantFrom(TOKEN, `Bearer ${TOKEN}`, 'nope'),
  ),
);

/** Strips what would end a header line early (CR, LF) and encodes the rest as latin1 bytes. */
const headerText = ([name, value]: [string, string]) => `${name}: ${value.replace(/[\r\n]/g, '')}`;

const PATHS = [
  '/message:send',
  '/message:stream',
  '/tasks',
  '/tasks/x',
  '/tasks/x:cancel',
  '/tasks/x:subscribe',
  '/agents/explore/message:send',
  '/agents/explore/',
  '/',
  '/agents/a2a',
  '/.well-known/agent-card.json',
  '/_sim/health',
  '/_sim/reset',
  '/_sim/chaos',
  '/_sim/tasks',
  '/_sim/feed',
];

const anyCall = fc.oneof(
  v1Call(() => []),
  v03Call(() => []),
  fc.tuple(oddText, hostileValue),
);

/** A well-formed HTTP/1.1 request: framing right, content anything. */
const wellFormed = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...PATHS) },
      fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`),
    ),
    queryString,
    fc.array(headerLine, { maxLength: 5 }),
    fc.option(
      fc.oneof(
        rpcBody(anyCall, fc.constantFrom({}, { agent_code: 'explore' })),
        hostileValue.map((v) => JSON.stringify(v) ?? ''),
      ),
      { nil: undefined },
    ),
    fc.boolean(),
  )
  .map(([method, path, query, lines, body, upgrade]) => {
    const payload = Buffer.from(body ?? '', 'utf8');
    const head = [
      `${method} ${path}${query} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      ...(upgrade
        ? ['Upgrade: websocket', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13']
        : []),
      ...lines.map(headerText),
      `Content-Length: ${payload.length}`,
    ];
    return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
  });

/** Requests HTTP itself refuses: each one complete, so a server that waits for more is a bug. */
const malformed = fc
  .oneof(
    fc.constantFrom(
      'GARBAGE\r\n\r\n',
      'GET\r\n\r\n',
      'GET / HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n0\r\n\r\n',
      'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
      'PROPFIND / HTTP/1.1\r\nHost: x\r\n\r\n',
      'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET / HTTP/1.1\nHost: x\n\n',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET //:80 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }).map((text) => `${text}\r\n\r\n`),
  )
  .map((text) => Buffer.from(text, 'latin1'));

describe('fuzz: the CLI server in a child process survives hostile bytes', () => {
  it(
    'answers well-formed and malformed requests with a protocol error or success, never a 5xx, and does not exit',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: wellFormed }, malformed), async (request) => {
          const { answer, error } = await send(request);
          const context = `${request.toString('latin1').slice(0, 400)}\n→ ${error ?? ''} ${answer?.status} ${answer?.body.slice(0, 300)}`;
          expect(server.exitCode(), context).toBeNull();
          expect(answer, `no answer: ${context}`).toBeDefined();
          const { status, body } = answer!;
          expect(status, context).toBeLessThan(500);
          if (status >= 400 && !request.toString('latin1').startsWith('HEAD ')) {
            // The REST and admin error body, or (gateway, auth failures) a JSON-RPC error envelope.
            const parsed = JSON.parse(body);
            expect(parsed.error.code, context).toSatisfy((code: unknown) =>
              'jsonrpc' in parsed ? Number.isInteger(code) : code === status,
            );
            expect(typeof parsed.error.message, context).toBe('string');
          }
        }),
        fuzzParams(2500),
      );
      const health = await rawHttp(url, 'GET', `/_sim/health?token=${TOKEN}`);
      expect(health.json).toMatchObject({ status: 'ok' });
      expect(server.exitCode()).toBeNull();
      expect(
        server
          .stderr()
          .split('\n')
          .filter((line) => /^error:|Warning/.test(line)),
      ).toEqual([]);
    },
    fuzzTimeout(2500),
  );
});
