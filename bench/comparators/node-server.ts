/**
 * Bench comparator: the express comparator's work (./work.ts: the same routes, bodies and streams)
 * behind plain `node:http`, no framework: the route is read off the method and URL, the body is
 * read once into one buffer and parsed once, and the answer is written with its headers in one
 * `writeHead`. What it measures is how much of a request's cost is the HTTP stack itself: the
 * difference to the express comparator is express's router, body parser and `res.json()`; the
 * difference to the simulator is everything the simulator does beyond that (seeds, scenarios, the
 * event log, the journal).
 *
 * Like express it listens with Node's default backlog (511). Flags: `--speed N`, `--ticks N`,
 * `--chunks N` (./work.ts). Prints `listening on http://127.0.0.1:PORT` once it accepts connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerGet, answerRpc, answerSend, playStream, responseSink, type Answer } from './work.js';

/** As express.json() is configured in ./express-server.ts. */
const BODY_LIMIT = 4 * 2 ** 20;
const JSON_TYPES = new Set(['application/json', 'application/a2a+json']);
/** The content type res.json() writes; only Content-Length is added per answer. */
const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND = Buffer.from('Not Found');

function reply(res: ServerResponse, { status, body }: Answer): void {
  const json = JSON.stringify(body);
  res.writeHead(status, ['Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(json))]);
  res.end(json);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, ['Content-Type', 'text/plain', 'Content-Length', String(NOT_FOUND.length)]);
  res.end(NOT_FOUND);
}

/**
 * The request's JSON body, to `then`: undefined when it is not JSON by its content type (as
 * express.json() leaves it), a 400 or 413 answered here when it does not parse or is too large.
 */
function readJson(req: IncomingMessage, res: ServerResponse, then: (body: unknown) => void): void {
  const type = req.headers['content-type']?.split(';', 1)[0]!.trim().toLowerCase();
  if (!type || !JSON_TYPES.has(type)) {
    req.resume();
    req.once('end', () => then(undefined));
    return;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  req.on('data', (chunk: Buffer) => {
    length += chunk.length;
    if (length <= BODY_LIMIT) chunks.push(chunk);
  });
  req.once('end', () => {
    if (length > BODY_LIMIT) return reply(res, { status: 413, body: { error: 'request entity too large' } });
    let body: unknown;
    try {
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
      body = JSON.parse(text);
    } catch {
      return reply(res, { status: 400, body: { error: 'body is not JSON' } });
    }
    then(body);
  });
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (req.method === 'GET') {
    const id = path.startsWith('/tasks/') ? path.slice('/tasks/'.length) : '';
    // Not URI-decoded, unlike express's params: task ids are UUIDs.
    if (id && !id.includes('/')) reply(res, answerGet(id));
    else notFound(res);
    return;
  }
  if (req.method !== 'POST') return notFound(res);
  switch (path) {
    case '/message:send':
      return readJson(req, res, (body) => reply(res, answerSend(body)));
    case '/':
      return readJson(req, res, (body) => reply(res, answerRpc(body)));
    case '/message:stream':
      return readJson(req, res, (body) => {
        const refused = playStream(body, responseSink(res));
        if (refused) reply(res, refused);
      });
    default:
      req.resume();
      notFound(res);
  }
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
