/**
 * A bounded copy of an answer as it went out: its headers, its body, or a stream's events (its SSE
 * frames, as sent, chaos included). The client decides how large an answer gets (a long message, a
 * stream it keeps open), so the copy keeps the first {@link MAX_ANSWER_CHARS} characters and only
 * counts the rest, and says so.
 *
 * A stream's frame that is an event of the task's log, encoded as every stream of that binding
 * encodes it, is kept as the log keeps that event and encoded again when the copy is read: the
 * store holds the event anyway, so a thousand open streams do not hold a second copy of every frame
 * they sent (the text of each would outlive its write by the whole stream). It counts as its text
 * would.
 */
import type { LoggedEvent } from '../domain/types.js';
import { headersBytes } from '../lib/bytes.js';
import type { KeptEvent } from '../store/kept-event.js';

/** An answer's body (or a stream's frames) is kept up to this size; the rest is counted, not kept. */
export const MAX_ANSWER_CHARS = 16 * 1024;
/** A stream's events kept at most, whatever their size. */
export const MAX_ANSWER_EVENTS = 200;

/** What the journal shows of an answer (`answer` on a journal entry). */
export interface AnswerEntry {
  headers: Record<string, string>;
  /** A non-streamed answer's body, as sent (its first {@link MAX_ANSWER_CHARS} characters). */
  body?: string;
  /** A stream's events, each the SSE frame as sent (`id: 3\ndata: {…}`), oldest first. */
  events?: string[];
  /** Bytes sent and not kept (UTF-8), when the answer outgrew the copy. */
  moreBytes?: number;
  /** A stream's events sent and not kept (a frame cut at the edge counts as one). */
  moreEvents?: number;
}

/** Answer headers whose values are secrets: shown as sent, not what they hold. */
const SECRET_ANSWER_HEADERS = new Set(['set-cookie', 'authorization', 'x-api-key', 'x-admin-token']);

/** How a stream encodes an event of the task's log as its SSE frame (blank line included). */
export type RenderFrame = (event: LoggedEvent) => string;

type SentHeaders = Readonly<Record<string, number | string | readonly string[] | undefined>>;

function copyHeader(into: Record<string, string>, name: string, value: SentHeaders[string]): void {
  if (value === undefined) return;
  const text = Array.isArray(value) ? value.join(', ') : String(value);
  into[name] = SECRET_ANSWER_HEADERS.has(name) ? '(redacted)' : text.slice(0, 1024);
}

export class AnswerCopy {
  private text = '';
  private moreBytes = 0;
  /** Frame ends (blank lines) seen in what was not kept. */
  private moreFrames = 0;
  private headers: Record<string, string> = {};
  /** A stream's frames as they come whole from its writer: texts, or log events to render. */
  private frames: (string | KeptEvent)[] | undefined;
  private render: RenderFrame | undefined;
  /** Characters the kept frames hold. */
  private framesChars = 0;

  /**
   * From now on the answer is an event stream whose writer hands over each frame whole
   * ({@link frame}, {@link event}); what passes through {@link take} is those same frames.
   */
  streamed(render?: RenderFrame): void {
    this.frames = [];
    this.render = render;
  }

  /** A frame kept as its text: a comment, a snapshot, a made-up event, an error. */
  frame(text: string): void {
    this.keep(text, text);
  }

  /** A frame that is `kept`, an event of the task's log, as `render` encodes it: `text`, not kept. */
  event(kept: KeptEvent, text: string): void {
    this.keep(this.render ? kept : text, text);
  }

  private keep(frame: string | KeptEvent, text: string): void {
    const frames = this.frames;
    if (!frames) return this.take(text);
    if (
      this.moreFrames === 0 &&
      frames.length < MAX_ANSWER_EVENTS &&
      this.framesChars + text.length <= MAX_ANSWER_CHARS
    ) {
      frames.push(frame);
      this.framesChars += text.length;
      return;
    }
    this.moreBytes += Buffer.byteLength(text, 'utf8');
    this.moreFrames++;
  }

  /** Takes what went out: a chunk of the body, a string or bytes. */
  take(chunk: string | Uint8Array): void {
    if (this.frames) return;
    const room = MAX_ANSWER_CHARS - this.text.length;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.length <= room) {
      this.text += text;
      return;
    }
    // Copied out (`Buffer` round trip): a slice of a long string keeps the whole string alive.
    if (room > 0) this.text += Buffer.from(text.slice(0, room), 'utf8').toString('utf8');
    const rest = room > 0 ? text.slice(room) : text;
    this.moreBytes += Buffer.byteLength(rest, 'utf8');
    for (let at = rest.indexOf('\n\n'); at !== -1; at = rest.indexOf('\n\n', at + 2)) this.moreFrames++;
  }

  /**
   * The headers as sent, secrets masked, each value clipped like a request header: those set on the
   * response, then those given to `writeHead` with it (any case; they win over the same name set).
   */
  sentHeaders(set: SentHeaders, given?: SentHeaders): void {
    const headers: Record<string, string> = {};
    for (const name in set) copyHeader(headers, name, set[name]);
    for (const name in given) copyHeader(headers, name.toLowerCase(), given[name]);
    this.headers = headers;
  }

  /** What the copy holds, approximately, in bytes: what the journal counts. */
  get bytes(): number {
    return this.text.length + this.framesChars + headersBytes(this.headers);
  }

  toEntry(streamed: boolean): AnswerEntry {
    const entry: AnswerEntry = { headers: this.headers };
    let moreBytes = this.moreBytes;
    if (!streamed) {
      entry.body = this.text;
    } else if (this.frames) {
      entry.events = this.frames.map((frame) => this.textOf(frame).slice(0, -2));
      if (this.moreFrames > 0) entry.moreEvents = this.moreFrames;
    } else {
      const frames = this.text.split('\n\n');
      // What follows the last blank line is a frame not ended: cut at the edge of the copy (its
      // rest was counted, not kept), or cut by chaos (shown as it went out).
      const tail = frames.pop() ?? '';
      const events = frames.slice(0, MAX_ANSWER_EVENTS);
      let moreEvents = frames.length - events.length;
      for (const frame of frames.slice(MAX_ANSWER_EVENTS)) moreBytes += Buffer.byteLength(frame) + 2;
      if (this.moreBytes > 0) {
        moreBytes += Buffer.byteLength(tail);
        moreEvents += Math.max(this.moreFrames, 1);
      } else if (tail) {
        events.push(tail);
      }
      entry.events = events;
      if (moreEvents > 0) entry.moreEvents = moreEvents;
    }
    if (moreBytes > 0) entry.moreBytes = moreBytes;
    return entry;
  }

  private textOf(frame: string | KeptEvent): string {
    if (typeof frame === 'string') return frame;
    try {
      return this.render!(frame.logged());
    } catch (error) {
      return `: event ${frame.seq} could not be encoded again (${(error as Error).message})\n\n`;
    }
  }
}
