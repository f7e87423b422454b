/**
 * Small HTTP helpers shared by the bindings: reading a bounded body, media types, the
 * `A2A-Version` header, and writing JSON without express's per-response extras.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, invalidParams } from '../../domain/errors.js';
import type { Exchange } from '../../calls/exchange.js';

/**
 * Reads the request body as UTF-8, refusing more than `limitBytes` with PayloadTooLargeError. A body
 * declared larger is refused before any of it is read, one that grows larger is read no further;
 * either way the answer closes the connection, so the rest is never read (RFC 9110 §15.5.14). `by`
 * says what sets the limit, for the message. A body a middleware in front already read (the
 * simulator's express app mounted behind `express.json()`) is taken from what it left in `req.body`.
 */
export function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limitBytes: number,
  by = '--max-body-bytes, or maxBodyBytes in createSimulator',
): Promise<string> {
  const tooLarge = () => {
    const message = `Request body too large: the limit is ${limitBytes} bytes (${by}).`;
    return new A2AError('PayloadTooLargeError', message, { metadata: { limitBytes } });
  };
  // The stream will not end a second time: waiting for it would never answer.
  if (req.readableEnded) {
    return new Promise((resolve) => {
      const text = bodyReadBefore(req);
      if (Buffer.byteLength(text) > limitBytes) throw tooLarge();
      resolve(text);
    });
  }
  return new Promise((resolve, reject) => {
    const refuse = () => {
      req.pause();
      res.setHeader('Connection', 'close');
      reject(tooLarge());
    };
    if (Number(req.headers['content-length']) > limitBytes) {
      refuse();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      chunks.length = 0;
      refuse();
    };
    req.on('data', onData);
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    // A client that hangs up mid-body is not a simulator bug: nobody is left to answer, and the
    // error says so should anything try.
    req.on('error', () =>
      reject(
        new A2AError(
          'InvalidRequestError',
          'Failed to read the request body: the connection closed before the body ended.',
        ),
      ),
    );
  });
}

/**
 * The body of a request whose stream a middleware already read, from what it parsed into `req.body`:
 * the text (`express.text()`), the bytes (`express.raw()`) or the JSON value (`express.json()`),
 * written out again. An empty body stays empty, though express.json() makes it `{}`.
 */
function bodyReadBefore(req: IncomingMessage): string {
  const body: unknown = (req as IncomingMessage & { body?: unknown }).body;
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (req.headers['content-length'] === '0') return '';
  if (body !== undefined) return JSON.stringify(body);
  throw new A2AError(
    'InternalError',
    'The request body was read before it reached the simulator, and nothing parsed it into req.body: mount the simulator before the middleware that reads bodies, or parse them with express.json().',
  );
}

export interface JsonBodyOptions {
  limitBytes: number;
  /** What sets the limit, for the message. */
  by?: string;
  /** An empty body is no body (undefined), rather than a parse error. */
  optional?: boolean;
  /** Learns the body as read. */
  exchange?: Exchange;
}

/** Reads and parses a bounded JSON body; malformed or overly nested JSON is a ParseError. */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  options: JsonBodyOptions,
): Promise<unknown> {
  const text = await readBody(req, res, options.limitBytes, options.by);
  options.exchange?.readBody(text);
  if (options.optional && text.trim() === '') return undefined;
  const parsed = parseJson(text);
  if (!parsed.ok) throw new A2AError('ParseError', `Invalid JSON body: ${parsed.error}.`);
  return parsed.value;
}

export interface RequestTarget {
  /** As written, still percent-encoded: `/tasks/a%2Fb`. */
  pathname: string;
  /** As written: `?pageSize=1`, or `""`. */
  search: string;
  query: URLSearchParams;
}

/**
 * The path and query of a request target (`req.url`), read the way express routes it. `new URL(target,
 * base)` is not that: it reads `//x/y` as the host `x` and throws on `//` or `//:80`, which any
 * client may send.
 *
 * @example requestTarget('//evil/tasks?pageSize=1') // → { pathname: '//evil/tasks', search: '?pageSize=1', … }
 */
export function requestTarget(target: string | undefined = '/'): RequestTarget {
  let text = target;
  // The absolute form (`GET http://host/path`) is for proxies, but a server must accept it (RFC 9112 §3.2.2).
  if (!text.startsWith('/') && URL.canParse(text)) {
    const url = new URL(text);
    text = url.pathname + url.search;
  }
  const hash = text.indexOf('#');
  if (hash >= 0) text = text.slice(0, hash);
  const question = text.indexOf('?');
  const search = question < 0 ? '' : text.slice(question);
  return {
    pathname: question < 0 ? text : text.slice(0, question),
    search,
    query: new URLSearchParams(search),
  };
}

/** The media type without parameters, lowercased: `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(req: IncomingMessage): string | undefined {
  const header = req.headers['content-type'];
  return header ? header.split(';')[0]!.trim().toLowerCase() : undefined;
}

export const JSON_TYPES: readonly string[] = Object.freeze(['application/json', 'application/a2a+json']);

export function requireJsonBody(req: IncomingMessage): void {
  const type = mediaTypeOf(req);
  if (type !== undefined && JSON_TYPES.includes(type)) return;
  throw new A2AError(
    'ContentTypeNotSupportedError',
    `Unsupported request Content-Type ${type ? `"${type}"` : '(none)'}: send "Content-Type: application/json" or "application/a2a+json".`,
    { metadata: { contentType: type ?? '' } },
  );
}

/** The protocol versions this simulator speaks, as `Major.Minor`. */
export const SUPPORTED_VERSIONS: readonly string[] = Object.freeze(['1.0', '0.3']);

/**
 * The `A2A-Version` the request declares (header, else `?A2A-Version=`), as `Major.Minor`, or
 * undefined when it declares none. An undeclared version fails with VersionNotSupportedError.
 */
export function declaredVersion(
  req: Pick<IncomingMessage, 'headers'>,
  query: URLSearchParams | undefined,
): string | undefined {
  const raw = (req.headers['a2a-version'] as string | undefined) ?? query?.get('A2A-Version') ?? undefined;
  // As the simulator writes them, as most clients do: no parsing.
  if (raw !== undefined && SUPPORTED_VERSIONS.includes(raw)) return raw;
  if (raw === undefined || raw.trim() === '') return undefined;
  const match = /^\s*(\d+)\.(\d+)(?:\.\d+)?\s*$/.exec(raw);
  const version = match ? `${Number(match[1])}.${Number(match[2])}` : raw.trim();
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new A2AError(
      'VersionNotSupportedError',
      `Protocol version "${raw.trim()}" is not supported: use A2A-Version ${SUPPORTED_VERSIONS.join(' or ')}.`,
      { metadata: { requestedVersion: raw.trim(), supportedVersions: SUPPORTED_VERSIONS.join(',') } },
    );
  }
  return version;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': `${contentType}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * Deepest nesting accepted in a request. Anything stored is serialised again later, and
 * JSON.stringify overflows the stack a few thousand levels down: refusing it here keeps a hostile
 * message from poisoning the task that would store it.
 */
export const MAX_JSON_DEPTH = 64;

/** JSON.parse that reports malformed or overly nested input instead of throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (opensMoreThan(text, MAX_JSON_DEPTH) && depthExceeds(value, MAX_JSON_DEPTH)) {
    return { ok: false, error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  return { ok: true, value };
}

/**
 * Whether `text` has more than `limit` characters that open an object or an array: JSON nested
 * deeper needs that many, and counting them costs a small body far less than walking its value.
 */
function opensMoreThan(text: string, limit: number): boolean {
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code === 0x7b || code === 0x5b) && ++opened > limit) return true; // `{` or `[`
  }
  return false;
}

function depthExceeds(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The resume cursor a reconnecting `EventSource` sends: the SSE `id` (a task event seq) of the last
 * event it received. Undefined when absent; anything but a seq is refused rather than ignored.
 */
export function lastEventId(req: Pick<IncomingMessage, 'headers'>): number | undefined {
  const header = req.headers['last-event-id'];
  if (header === undefined || header === '') return undefined;
  if (typeof header === 'string' && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  throw invalidParams([
    {
      field: 'Last-Event-ID',
      description: `must be the id (a seq number) of an event this server sent, got "${String(header)}"`,
    },
  ]);
}

/** The headers an error answer carries beside its body: `Retry-After` when the error names one. */
export function errorHeaders(error: A2AError): Record<string, string> {
  const { retryAfterMs } = error.details;
  return retryAfterMs === undefined ? {} : { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) };
}
