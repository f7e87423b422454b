/**
 * Journal entries as an HTTP Archive (HAR 1.2), the format a browser's network panel, Insomnia,
 * Charles or Fiddler import: each call with its request, its answer as it went out (a stream's SSE
 * frames as `text/event-stream` text) and its timing. What the journal clipped is said on a
 * `comment`; the exchange masked the secrets already. The text comes out piece by piece
 * ({@link harChunks}), one entry at a time, so a full journal is never one string in memory.
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
import { STATUS_CODES } from 'node:http';
import type { AnswerEntry } from './answer-copy.js';
import { MAX_BODY_CHARS, type JournalEntry } from './exchange.js';

export interface HarOptions {
  /** The simulator's version, for `log.creator`. */
  version: string;
  /**
   * The origin requests went to (`http://127.0.0.1:41241`); without it, each request's `Host`
   * header over `http:`.
   */
  origin?: string;
}

interface NameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: NameValue[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

/** HTTP/1 is all the journal copies answers of (HTTP/2 and gRPC calls come without one). */
const HTTP_VERSION = 'HTTP/1.1';

/**
 * The HAR document in pieces: its opening, then one entry per piece, then its end. Joined, they
 * are one JSON document.
 * @example for (const piece of harChunks(journal.entries(), { version })) res.write(piece);
 */
export function* harChunks(entries: Iterable<JournalEntry>, options: HarOptions): Generator<string> {
  const creator = { name: 'a2a-sim', version: options.version };
  yield `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`;
  let separator = '\n';
  for (const entry of entries) {
    yield separator + JSON.stringify(harEntry(entry, options.origin));
    separator = ',\n';
  }
  yield '\n]}}\n';
}

/** One journal entry as a HAR entry. */
export function harEntry(entry: JournalEntry, origin?: string): HarEntry {
  const url = urlOf(entry, origin);
  const time = Math.max(0, entry.durationMs ?? 0);
  const request: HarEntry['request'] = {
    method: entry.method,
    url: url.href,
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(entry.headers),
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: entry.body === undefined ? 0 : Buffer.byteLength(entry.body),
  };
  if (entry.body !== undefined) {
    // A clipped body ends with what it left out (exchange.ts `clip`): its size is not known.
    const clipped = entry.body.length > MAX_BODY_CHARS;
    if (clipped) request.bodySize = -1;
    request.postData = {
      mimeType: headerOf(entry.headers, 'content-type') ?? 'application/octet-stream',
      text: entry.body,
      ...(clipped && { comment: `The body was clipped to its first ${MAX_BODY_CHARS} characters.` }),
    };
  }
  const harEntry: HarEntry = {
    startedDateTime: entry.at,
    time,
    request,
    response: responseOf(entry),
    cache: {},
    // The journal times the whole exchange: the wait for an answer, or a stream's time on the wire.
    timings: entry.streamed ? { send: 0, wait: 0, receive: time } : { send: 0, wait: time, receive: 0 },
  };
  const about = [
    entry.binding && entry.operation && `${entry.binding} ${entry.operation}`,
    entry.taskId && `task ${entry.taskId}`,
    entry.faults.length > 0 && `chaos faults ${entry.faults.join(', ')}${andMore(entry.moreFaults)}`,
    entry.replica && `recorded by replica ${entry.replica}`,
  ].filter(Boolean);
  if (about.length) harEntry.comment = `#${entry.n}: ${about.join('; ')}`;
  return harEntry;
}

function responseOf(entry: JournalEntry): HarEntry['response'] {
  const status = entry.status ?? 0;
  const answer = entry.answer;
  const headers = answer?.headers ?? {};
  const content = contentOf(answer, entry.streamed === true);
  const response: HarEntry['response'] = {
    status,
    statusText: STATUS_CODES[status] ?? '',
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(headers),
    content,
    redirectURL: headerOf(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: answer && !content.comment ? content.size : -1,
  };
  if (entry.status === undefined) response.comment = 'No answer yet: the call was still going on.';
  else if (status === 0) response.comment = 'The connection closed without an answer.';
  else if (!answer) response.comment = 'The answer was not copied (only HTTP/1 answers are).';
  return response;
}

function contentOf(answer: AnswerEntry | undefined, streamed: boolean): HarEntry['response']['content'] {
  if (!answer) return { size: 0, mimeType: '' };
  const mimeType = headerOf(answer.headers, 'content-type') ?? (streamed ? 'text/event-stream' : '');
  const text = streamed ? (answer.events ?? []).map((frame) => `${frame}\n\n`).join('') : (answer.body ?? '');
  const content: HarEntry['response']['content'] = {
    size: Buffer.byteLength(text) + (answer.moreBytes ?? 0),
    mimeType,
    text,
  };
  if (answer.moreBytes !== undefined || answer.moreEvents !== undefined) {
    const events = answer.moreEvents ? ` (${answer.moreEvents} more events)` : '';
    content.comment = `Clipped: ${answer.moreBytes ?? 0} more bytes${events} were sent than kept here.`;
  }
  return content;
}

function urlOf(entry: JournalEntry, origin: string | undefined): URL {
  const base = origin ?? `http://${headerOf(entry.headers, 'host') ?? 'localhost'}`;
  try {
    return new URL(entry.path, base);
  } catch {
    // A Host header no URL can hold: the path still says what was asked.
    return new URL(entry.path, 'http://localhost');
  }
}

function nameValues(headers: Record<string, string>): NameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

const andMore = (more: number | undefined): string => (more ? ` and ${more} more` : '');
