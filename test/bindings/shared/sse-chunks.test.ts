/**
 * An event stream's body on the wire, read byte for byte from a raw socket: HTTP/1.1 chunks whose
 * sizes count bytes (the weather report's "°F" is two), ending with the last chunk, after which
 * the connection serves the next request; HTTP/1.0 gets the same events unframed, and the end of
 * the stream closes the connection.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../../helpers/sim.js';

let t: TestSim;

beforeAll(async () => {
  t = await startSim({ seed: 'chunks' });
});

afterAll(() => t.close());

const SEND = JSON.stringify({
  message: { role: 'ROLE_USER', parts: [{ text: 'What is the weather today?' }], messageId: 'm-1' },
});

function request(version: '1.0' | '1.1', method: string, target: string, body = ''): string {
  const { host } = new URL(t.url);
  return [
    `${method} ${target} HTTP/${version}`,
    `Host: ${host}`,
    'Content-Type: application/json',
    'A2A-Version: 1.0',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/** Reads from `socket` until `done` says what was read is whole; resolves with it. */
function readUntil(socket: net.Socket, done: (bytes: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let bytes = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      if (!done(bytes)) return;
      socket.off('data', onData);
      resolve(bytes);
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => resolve(bytes));
  });
}

/** The body of a chunked answer, each chunk checked: its size in bytes, and the CRLF after it. */
function strictUnchunk(body: Buffer): { data: Buffer; sizes: number[]; rest: Buffer } {
  const parts: Buffer[] = [];
  const sizes: number[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error(`no chunk size line at byte ${at}`);
    const sizeText = body.subarray(at, lineEnd).toString('latin1');
    expect(sizeText).toMatch(/^[0-9a-f]+$/);
    const size = parseInt(sizeText, 16);
    if (size === 0) {
      expect(body.subarray(lineEnd + 2, lineEnd + 4).toString('latin1')).toBe('\r\n');
      return { data: Buffer.concat(parts), sizes, rest: body.subarray(lineEnd + 4) };
    }
    sizes.push(size);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    expect(body.subarray(lineEnd + 2 + size, lineEnd + 4 + size).toString('latin1')).toBe('\r\n');
    at = lineEnd + 4 + size;
  }
}

const endOfHead = (bytes: Buffer) => bytes.indexOf('\r\n\r\n') + 4;
const events = (sse: string) =>
  sse
    .split('\n\n')
    .filter((frame) => frame.startsWith('id: '))
    .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as Record<string, unknown>);

describe('an event stream on the wire', () => {
  it('is framed in chunks whose sizes count bytes, ends with the last chunk and leaves the connection open', async () => {
    const { port, hostname } = new URL(t.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    try {
      socket.write(request('1.1', 'POST', '/message:stream', SEND));
      const answer = await t.drive(readUntil(socket, (bytes) => bytes.includes('\r\n0\r\n\r\n')));
      const head = answer.subarray(0, endOfHead(answer)).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
      const { data, sizes, rest } = strictUnchunk(answer.subarray(endOfHead(answer)));
      expect(rest.length).toBe(0);
      const sse = data.toString('utf8');
      const kinds = events(sse).map((event) => Object.keys(event)[0]);
      expect(kinds).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
      expect(sse).toContain('°F');
      // One chunk an event.
      expect(sizes).toHaveLength(4);

      // The same connection answers the next request.
      socket.write(request('1.1', 'GET', '/.well-known/agent-card.json'));
      const card = await readUntil(socket, (bytes) => bytes.includes('\r\n0\r\n\r\n') || bytes.includes('}'));
      expect(card.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });

  it('goes unframed to an HTTP/1.0 client, and its end closes the connection', async () => {
    const { port, hostname } = new URL(t.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(request('1.0', 'POST', '/message:stream', SEND.replace('m-1', 'm-2')));
    const answer = await t.drive(readUntil(socket, () => false));
    const head = answer.subarray(0, endOfHead(answer)).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).not.toContain('transfer-encoding');
    const kinds = events(answer.subarray(endOfHead(answer)).toString('utf8')).map(
      (event) => Object.keys(event)[0],
    );
    expect(kinds).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    // Nothing after the last event, no last chunk: the connection's close ends the body.
    expect(answer.toString('utf8').endsWith('\n\n')).toBe(true);
    expect(socket.destroyed || socket.readableEnded).toBe(true);
  });
});
