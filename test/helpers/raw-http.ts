/**
 * One HTTP/1.1 request written byte for byte on a fresh connection, for what fetch refuses to send:
 * a target like `//` or `%ZZ`, an absolute-form target, odd headers. `Connection: close` makes the
 * server end the exchange, so nothing waits on a timer.
 */
import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lowercased names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** `body` parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export function rawHttp(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    ...(body !== '' ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer) resolve(answer);
      else reject(new Error(`no HTTP answer to ${method} ${target}`));
    });
  });
}

export function parseAnswer(bytes: Buffer): RawAnswer | undefined {
  const text = bytes.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  const rest = bytes.subarray(end + 4);
  const body = (headers['transfer-encoding'] === 'chunked' ? unchunk(rest) : rest).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}

function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
