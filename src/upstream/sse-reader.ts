/**
 * Reads an agent's event stream (the SSE format of the HTML standard, §9.2.6) into the `data` of
 * each event, holding at most one line and one event in memory, each at most `maxBytes`. A general
 * parser keeps whatever arrives until a line or an event ends; a hostile agent's line need never
 * end. Only `data` matters to A2A: `id`, `event`, `retry` and comments are read past.
 */
import { agentLimitExceeded } from './limits.js';

const LF = 0x0a;
const CR = 0x0d;

export class SseReader {
  private readonly decoder = new TextDecoder();
  /** The line being read, in the chunks it came in. */
  private line: Uint8Array[] = [];
  private lineBytes = 0;
  private data: string[] = [];
  private dataBytes = 0;
  /** The last chunk ended with CR: an LF starting the next one belongs to the same line end. */
  private afterCr = false;
  private started = false;

  /**
   * @param source what to name in errors (the stream's URL)
   * @example new SseReader('http://agent/message:stream', MAX_AGENT_EVENT_BYTES).feed(chunk) // ['{"task":…}']
   */
  constructor(
    private readonly source: string,
    private readonly maxBytes: number,
  ) {}

  /** The data of each event `chunk` completes, in order; throws past the limits. */
  feed(chunk: Uint8Array): string[] {
    const events: string[] = [];
    let start = 0;
    // The LF of a CRLF split across chunks.
    if (this.afterCr && chunk[0] === LF) start = 1;
    this.afterCr = false;
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte !== LF && byte !== CR) continue;
      this.take(chunk.subarray(start, i));
      this.endLine(events);
      if (byte === CR) {
        if (i + 1 === chunk.length) this.afterCr = true;
        else if (chunk[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
    return events;
  }

  private take(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.lineBytes += bytes.length;
    if (this.lineBytes > this.maxBytes) {
      throw agentLimitExceeded(
        'MAX_AGENT_EVENT_BYTES',
        `${this.source} sent an event stream line longer than ${this.maxBytes} bytes`,
      );
    }
    // A copy: the chunk's buffer may be reused once read.
    this.line.push(bytes.slice());
  }

  private endLine(events: string[]): void {
    const bytes = this.lineBytes;
    let line =
      this.line.length === 1
        ? this.decoder.decode(this.line[0])
        : this.decoder.decode(join(this.line, bytes));
    this.line = [];
    this.lineBytes = 0;
    if (!this.started) {
      this.started = true;
      if (line.startsWith('\uFEFF')) line = line.slice(1);
    }
    if (line === '') {
      if (this.data.length) events.push(this.data.join('\n'));
      this.data = [];
      this.dataBytes = 0;
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon < 0 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
    this.dataBytes += bytes + 1;
    if (this.dataBytes > this.maxBytes) {
      throw agentLimitExceeded(
        'MAX_AGENT_EVENT_BYTES',
        `${this.source} sent an event stream event larger than ${this.maxBytes} bytes`,
      );
    }
    this.data.push(value);
  }
}

function join(chunks: Uint8Array[], bytes: number): Uint8Array {
  const whole = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}
