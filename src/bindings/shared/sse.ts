/**
 * Server-Sent Events on a Node response (§4): headers flushed at once, one single-line `data:`
 * per event, `id: <seq>` on task events, `: keep-alive` comments from one shared timer.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AnswerCopy } from '../../calls/answer-copy.js';
import type { Clock, Timer } from '../../lib/clock.js';
import type { KeptEvent } from '../../store/kept-event.js';

export const SSE_HEADERS = Object.freeze({
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
});

/** A client that stops reading is cut off once this much output is queued for it. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** One event's frame, blank line included. `data` must be a single line (JSON.stringify output is). */
export function sseFrame(data: string, options: { id?: number; event?: string } = {}): string {
  let frame = '';
  if (options.id !== undefined) frame += `id: ${options.id}\n`;
  if (options.event !== undefined) frame += `event: ${options.event}\n`;
  return `${frame}data: ${data}\n\n`;
}

export class SseWriter {
  private closed = false;
  private wrote = false;
  /** Chunks framed this tick and not yet written: they leave together at its end ({@link writeWaiting}). */
  private waiting = '';

  /** `copy`: the journal's copy of the answer, which gets each frame whole as it goes out. */
  constructor(
    private readonly res: ServerResponse,
    private readonly keepAlive: KeepAliveHub,
    private readonly copy?: AnswerCopy,
  ) {}

  open(): void {
    this.res.socket?.setNoDelay(true);
    this.res.writeHead(200, SSE_HEADERS);
    // The first event, mostly written in this same tick, carries the headers in its own write;
    // a stream with nothing to send yet (a resubscribe) gets them on their own.
    process.nextTick(() => {
      if (!this.wrote && !this.res.destroyed) this.res.flushHeaders();
    });
    this.keepAlive.add(this);
    this.res.on('close', () => this.markClosed());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * Writes one event. `data` must be a single line (JSON.stringify output is). `kept`: the event of
   * the task's log that `data` encodes as the stream's encoding always does, for the copy.
   */
  event(data: string, options: { id?: number; event?: string } = {}, kept?: KeptEvent): void {
    const frame = sseFrame(data, options);
    if (this.write(frame)) {
      if (kept) this.copy?.event(kept, frame);
      else this.copy?.frame(frame);
    }
  }

  comment(text: string): void {
    const frame = `: ${text}\n\n`;
    if (this.write(frame)) this.copy?.frame(frame);
  }

  close(): void {
    if (this.closed) return;
    this.markClosed();
    this.writeWaiting();
    this.res.end();
  }

  /**
   * Goes silent, keep-alives included, and leaves the connection open until the client gives up;
   * what it wrote before, this tick's chunks too, still goes out.
   */
  hang(): void {
    this.markClosed();
    this.writeWaiting();
  }

  /** Writes the chunks framed this tick, in one write: at the tick's end, or before the body ends. */
  writeWaiting(): void {
    const text = this.waiting;
    if (text === '') return;
    this.waiting = '';
    const socket = this.res.socket;
    // A socket the client closed meanwhile is not written to: a write to it would fail.
    if (socket?.writable) socket.write(text);
  }

  /** Whether `chunk` went out. */
  private write(chunk: string): boolean {
    if (this.closed) return false;
    const socket = this.res.socket;
    // After the first write, which sends the headers with it, every event of a chunked body.
    const queued =
      this.wrote && socket && this.res.chunkedEncoding
        ? this.writeChunk(socket, chunk)
        : this.writeThroughResponse(chunk);
    if (this.closed) return false;
    if (queued > MAX_QUEUED_BYTES) {
      // The client can resubscribe and resume from its last seq; unbounded buffering is not an option.
      this.markClosed();
      this.res.destroy();
    }
    return true;
  }

  private writeThroughResponse(chunk: string): number {
    this.wrote = true;
    this.res.write(chunk);
    return this.res.writableLength;
  }

  /**
   * One event of the response's chunked body, framed here and written to the socket with the other
   * chunks of this tick as one string: `res.write` frames it in four writes (size, CRLF, data, CRLF),
   * ~2.5 µs and ~300 bytes of garbage an event more (BENCHMARKS.md, run U), on every event of every
   * stream, and corking the socket for the tick, as `res.write` does, buffers each write and
   * schedules a tick of its own for every stream (run W). The events a stream gets in one run of the
   * timers (many, when the server is behind) still leave in one write. A response not framed in
   * chunks (HTTP/1.0, HEAD), or without its socket, goes through `res.write`.
   */
  private writeChunk(socket: Socket, chunk: string): number {
    if (!socket.writable) {
      this.markClosed();
      return 0;
    }
    if (this.waiting === '') waitForTickEnd(this);
    this.waiting += `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
    return socket.writableLength + this.waiting.length;
  }

  private markClosed(): void {
    this.closed = true;
    this.keepAlive.remove(this);
  }
}

/** Streams with chunks waiting, written at the end of the tick: one scheduled tick for all of them. */
let waitingWriters: SseWriter[] = [];

function waitForTickEnd(writer: SseWriter): void {
  if (waitingWriters.length === 0) process.nextTick(writeAllWaiting);
  waitingWriters.push(writer);
}

function writeAllWaiting(): void {
  const writers = waitingWriters;
  waitingWriters = [];
  for (const writer of writers) writer.writeWaiting();
}

/** Sends `: keep-alive` on every open stream every `intervalMs`, on one clock timer for all of them. */
export class KeepAliveHub {
  private readonly writers = new Set<SseWriter>();
  private timer: Timer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
  ) {}

  add(writer: SseWriter): void {
    this.writers.add(writer);
    if (!this.timer && this.intervalMs > 0) this.arm();
  }

  remove(writer: SseWriter): void {
    this.writers.delete(writer);
    if (this.writers.size === 0) {
      this.timer?.cancel();
      this.timer = undefined;
    }
  }

  get openStreams(): number {
    return this.writers.size;
  }

  private arm(): void {
    this.timer = this.clock.setTimer(this.intervalMs, () => {
      for (const writer of this.writers) writer.comment('keep-alive');
      this.timer = undefined;
      if (this.writers.size > 0) this.arm();
    });
  }
}
