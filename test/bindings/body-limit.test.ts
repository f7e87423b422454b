/**
 * A body over the size limit (`--max-body-bytes`): HTTP 413 where the binding speaks HTTP statuses
 * (REST, the gateway's envelope, the admin API), a -32600 error object with HTTP 200 on JSON-RPC.
 * Reading stops at the limit and the answer closes the connection, so a client cannot make the
 * server read, let alone hold, more; a client that hangs up mid-body is no error of the server's.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.js';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { parseAnswer, rawHttp } from '../helpers/raw-http.js';
import { JSON_HEADERS, rpcEnvelope, v1Send } from '../helpers/wire.js';

const LIMIT = 1024;
const logged: string[] = [];
let t: TestSim;
beforeAll(async () => {
  t = await startSim({
    maxBodyBytes: LIMIT,
    logger: createLogger({ level: 'error', format: 'pretty', write: (line) => logged.push(line) }),
  });
});
afterAll(() => t.close());

/** A SendMessageRequest four times the limit. */
const bigSend = () => v1Send('x'.repeat(4 * LIMIT), { messageId: 'm' });
const big = (extra: object = {}) => JSON.stringify({ ...extra, ...bigSend() });
const rpcBody = (method: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify(rpcEnvelope(method, bigSend(), { id: 7, ...extra }));

/**
 * Streams `total` bytes of a chunked body until the server hangs up: how much got written, and the
 * answer that came back. Event driven: each write waits for `drain`, nothing waits on a timer.
 */
function flood(target: string, headers: Record<string, string>, total: number) {
  const { hostname, port } = new URL(t.url);
  return new Promise<{ written: number; answer: ReturnType<typeof parseAnswer> }>((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const head = [`POST ${target} HTTP/1.1`, `Host: ${hostname}`, 'Transfer-Encoding: chunked'];
    for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
    const received: Buffer[] = [];
    let written = 0;
    let open = true;
    const chunk = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
    const pump = () => {
      while (open && written < total) {
        written += 0x10000;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (open) socket.end('0\r\n\r\n');
    };
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open = false;
      resolve({ written, answer: parseAnswer(Buffer.concat(received)) });
    });
    socket.write(`${head.join('\r\n')}\r\n\r\n`, pump);
  });
}

describe('REST', () => {
  it('answers a body declared too large with 413 before reading it, and closes the connection', async () => {
    const answer = await rawHttp(t.url, 'POST', '/message:send', JSON_HEADERS, big());
    expect(answer.status).toBe(413);
    expect(answer.headers['connection']).toBe('close');
    expect(answer.json.error).toMatchObject({ code: 413, status: 'RESOURCE_EXHAUSTED' });
    expect(answer.json.error.message).toContain(`the limit is ${LIMIT} bytes (--max-body-bytes`);
    expect(answer.json.error.details[0]).toMatchObject({ reason: 'PAYLOAD_TOO_LARGE' });
  });

  it.each(['/message:send', '/tasks/t-1:cancel', '/agents/explore/message:stream'])(
    'stops reading a chunked body at the limit on POST %s: 413, then the server hangs up',
    async (target) => {
      const total = 256 * 1024 * 1024;
      const { written, answer } = await flood(target, JSON_HEADERS, total);
      expect(answer?.status).toBe(413);
      expect(answer?.json.error.code).toBe(413);
      expect(written).toBeLessThan(total);
    },
  );
});

describe('JSON-RPC', () => {
  it.each([
    ['SendMessage', { 'A2A-Version': '1.0' }],
    ['message/send', {}],
  ])(
    'answers %s over the limit with -32600 and HTTP 200, closing the connection',
    async (method, headers) => {
      const answer = await rawHttp(t.url, 'POST', '/', { ...JSON_HEADERS, ...headers }, rpcBody(method));
      expect(answer.status).toBe(200);
      expect(answer.headers['connection']).toBe('close');
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answer.json.error.message).toMatch(/too large/);
    },
  );

  it('stops reading a chunked JSON-RPC body at the limit', async () => {
    const total = 256 * 1024 * 1024;
    const { written, answer } = await flood('/', JSON_HEADERS, total);
    expect(answer?.status).toBe(200);
    expect(answer?.json.error.code).toBe(-32600);
    expect(written).toBeLessThan(total);
  });

  it('answers the gateway with 413 and -32600: envelope errors keep their HTTP status there', async () => {
    const body = rpcBody('message/send', { agent_code: 'explore' });
    const answer = await rawHttp(t.url, 'POST', t.sim.gatewayPath, JSON_HEADERS, body);
    expect(answer.status).toBe(413);
    expect(answer.json.error.code).toBe(-32600);
  });
});

describe('the admin API', () => {
  it('answers a body over its own 64 KiB limit with 413, naming that limit', async () => {
    const body = JSON.stringify({ chaos: 'x'.repeat(70_000) });
    const answer = await rawHttp(t.url, 'PUT', '/_sim/chaos', JSON_HEADERS, body);
    expect(answer.status).toBe(413);
    expect(answer.json.error).toMatchObject({ code: 413, status: 'RESOURCE_EXHAUSTED' });
    expect(answer.json.error.message).toContain("the admin API's limit");
  });
});

describe('a client that hangs up mid-body', () => {
  it('is no error of the server, which keeps serving', async () => {
    const { hostname, port } = new URL(t.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /message:send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"mess`,
    );
    await flushIo();
    socket.destroy();
    await flushIo();
    expect((await rawHttp(t.url, 'GET', '/_sim/health')).json.status).toBe('ok');
    expect(logged).toEqual([]);
  });
});
