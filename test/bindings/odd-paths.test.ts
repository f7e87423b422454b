/**
 * Request targets no client library sends, written byte for byte: protocol-relative `//…` targets,
 * undecodable percent-escapes, the absolute form, and requests Node cannot parse at all. Each gets a
 * protocol error (never a 500 or a bare status line), and the server keeps serving; a WebSocket
 * upgrade of any of them is refused, not a crash.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { parseAnswer, rawHttp, type RawAnswer } from '../helpers/raw-http.js';
import { JSON_HEADERS, rpcEnvelope } from '../helpers/wire.js';
import { watchFeed } from '../admin/helpers.js';

let t: TestSim;
beforeAll(async () => {
  t = await startSim({ speed: 0 });
});
afterAll(() => t.close());

const UPGRADE = {
  Upgrade: 'websocket',
  Connection: 'Upgrade',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version': '13',
};

/** A `google.rpc.Status` body whose code is the HTTP status. */
function expectStatus(answer: RawAnswer, httpStatus: number, status: string, reason: string) {
  expect(answer.status, answer.body).toBe(httpStatus);
  expect(answer.headers['content-type']).toMatch(/^application\/(a2a\+)?json/);
  expect(answer.json.error).toMatchObject({ code: httpStatus, status, message: expect.any(String) });
  expect(answer.json.error.details[0]).toMatchObject({ reason });
}

async function expectServing() {
  expect((await rawHttp(t.url, 'GET', '/_sim/health')).json).toMatchObject({ status: 'ok' });
}

describe('protocol-relative targets', () => {
  it.each([
    ['GET', '//'],
    ['DELETE', '//:80'],
    ['GET', '//evil.example'],
    ['POST', '//agents/explore'],
    ['GET', '/agents/explore//'],
    ['GET', '//.well-known/agent-card.json'],
  ])('answers %s %s with the 404 of an unknown path', async (method, target) => {
    expectStatus(await rawHttp(t.url, method, target), 404, 'NOT_FOUND', 'METHOD_NOT_FOUND');
    await expectServing();
  });

  it('reads //host/tasks as a path, not as the host "host" and the path /tasks', async () => {
    const answer = await rawHttp(t.url, 'GET', '//evil.example/tasks');
    expectStatus(answer, 404, 'NOT_FOUND', 'METHOD_NOT_FOUND');
    expect(answer.json.error.message).toContain('//evil.example/tasks');
  });

  it('answers the JSON-RPC endpoint of an agent at its path with a trailing //', async () => {
    const answer = await rawHttp(
      t.url,
      'POST',
      '/agents/explore//',
      JSON_HEADERS,
      JSON.stringify(rpcEnvelope('GetTask', { id: 'nope' })),
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32001 } });
  });

  it('serves an absolute-form target (RFC 9112 §3.2.2) as its path', async () => {
    const answer = await rawHttp(t.url, 'GET', 'http://elsewhere.example/tasks?pageSize=1');
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ tasks: [], pageSize: 1 });
  });
});

describe('undecodable percent-escapes', () => {
  it.each([
    '/agents/%ZZ/tasks',
    '/agents/%E0%A4%A/message:send',
    '/tasks/%ZZ',
    '/tasks/%E0%A4%A:cancel',
    '/%ZZ/tasks',
    '/agents/explore/tasks/%/pushNotificationConfigs',
  ])('answers GET %s with 400 INVALID_ARGUMENT naming the path', async (target) => {
    const answer = await rawHttp(t.url, 'GET', target);
    expectStatus(answer, 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    expect(answer.json.error.details[1].fieldViolations[0]).toMatchObject({ field: 'path' });
  });

  it('reads an undecodable query value as it is: a bad pageToken, not a crash', async () => {
    const answer = await rawHttp(t.url, 'GET', '/tasks?pageToken=%E0%A4%A');
    expectStatus(answer, 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
  });
});

describe('WebSocket upgrades of odd targets', () => {
  it.each(['//', '//:80', '/_sim//feed', '/agents/%ZZ', '/tasks', 'http://x.example/_sim/nope'])(
    'refuses an upgrade of %s with 404 and keeps serving',
    async (target) => {
      const answer = await rawHttp(t.url, 'GET', target, UPGRADE);
      expectStatus(answer, 404, 'NOT_FOUND', 'METHOD_NOT_FOUND');
      await expectServing();
    },
  );

  it('still accepts the feed itself, also with an undecodable filter (read as a plain value)', async () => {
    const watcher = await watchFeed(t, '?taskId=%ZZ');
    await watcher.close();
    expect(watcher.closed?.code).toBe(1005);
  });
});

describe('a known path with a method it does not take', () => {
  it.each([
    ['DELETE', '/message:send', 'POST'],
    ['GET', '/message:stream', 'POST'],
    ['PUT', '/acme/tasks', 'GET'],
    ['PATCH', '/agents/explore/tasks/t-1/pushNotificationConfigs', 'GET, POST'],
    ['POST', '/tasks/t-1/pushNotificationConfigs/c-1', 'GET, DELETE'],
  ])('answers %s %s with 405 UNIMPLEMENTED and Allow: %s', async (method, target, allow) => {
    const answer = await rawHttp(t.url, method, target);
    expectStatus(answer, 405, 'UNIMPLEMENTED', 'METHOD_NOT_ALLOWED');
    expect(answer.headers['allow']).toBe(allow);
    expect(answer.json.error.message).toContain(`this path accepts ${allow}`);
  });
});

describe('requests that never reach a route', () => {
  /** Writes `text` as it is; the answer once the server hangs up. */
  function rawBytes(text: string): Promise<RawAnswer | undefined> {
    const { hostname, port } = new URL(t.url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname, () => socket.end(Buffer.from(text, 'latin1')));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks))));
    });
  }

  it.each([
    ['a request line that is not HTTP', 400, 'GARBAGE\r\n\r\n'],
    ['an unknown method', 400, 'FROB / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a broken header line', 400, 'GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n'],
    [
      'two Content-Lengths',
      400,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ],
    ['headers over 16 KiB', 431, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
  ])(
    'answers %s with %d and the google.rpc.Status body, not a bare status line',
    async (_name, status, text) => {
      const answer = await rawBytes(text);
      expect(answer?.status).toBe(status);
      expect(answer?.headers['content-type']).toMatch(/^application\/json/);
      expect(answer?.json.error).toMatchObject({
        code: status,
        message: expect.stringMatching(/^Malformed HTTP request/),
      });
      await expectServing();
    },
  );

  it('answers CONNECT with 405: this server is not a proxy', async () => {
    const answer = await rawBytes('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expectStatus(answer!, 405, 'UNIMPLEMENTED', 'METHOD_NOT_ALLOWED');
    expect(answer?.headers['allow']).toBeTruthy();
    await expectServing();
  });
});
