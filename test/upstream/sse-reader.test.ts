/**
 * The bounded SSE reader: the event stream format as the HTML standard defines it (§9.2.6: any
 * line end, a BOM, comments, fields other than `data`), read chunk by chunk however the chunks
 * fall, and refused past its limit on one line or one event instead of buffered.
 */
import { describe, expect, it } from 'vitest';
import { SseReader } from '../../src/upstream/sse-reader.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` cut into pieces of `size` bytes; all the events' data. */
function read(text: string, size = Number.MAX_SAFE_INTEGER, max = 1024): string[] {
  const reader = new SseReader('http://agent/stream', max);
  const all = bytes(text);
  const events: string[] = [];
  for (let i = 0; i < all.length; i += size) events.push(...reader.feed(all.subarray(i, i + size)));
  return events;
}

const STREAM =
  '\uFEFF: a comment\r\nid: 1\r\nevent: update\r\ndata: {"a":1}\r\n\r\n' +
  'data: first\ndata:second\n\n' +
  'retry: 10\rdata: ünïcödé 😀\r\r' +
  'data\n\n' +
  'data: never dispatched';

describe('reads the standard format', () => {
  it.each([1, 2, 3, 7, 1000])('in chunks of %i bytes', (size) => {
    expect(read(STREAM, size)).toEqual(['{"a":1}', 'first\nsecond', 'ünïcödé 😀', '']);
  });

  it('a CRLF split between two chunks ends one line, not two', () => {
    expect(read('data: a\r\ndata: b\r\n\r\n', 8)).toEqual(['a\nb']);
  });
});

describe('refuses instead of buffering', () => {
  it('a line past the limit, before it ends', () => {
    const reader = new SseReader('http://agent/stream', 1024);
    reader.feed(bytes(`data: ${'x'.repeat(1000)}`));
    expect(() => reader.feed(bytes('x'.repeat(100)))).toThrow(
      'http://agent/stream sent an event stream line longer than 1024 bytes',
    );
  });

  it('an event past the limit, in lines that each fit', () => {
    expect(() => read(`data: ${'y'.repeat(300)}\n`.repeat(4))).toThrow(
      'sent an event stream event larger than 1024 bytes',
    );
  });

  it('names the limit in the error it throws', () => {
    try {
      read('z'.repeat(2000));
      expect.unreachable();
    } catch (error) {
      expect((error as { details: { metadata: unknown } }).details.metadata).toEqual({
        limit: 'MAX_AGENT_EVENT_BYTES',
      });
    }
  });

  it('comments and other fields count too: a stream of them is still one line at a time', () => {
    expect(read(': keep-alive\n'.repeat(1000))).toEqual([]);
  });
});
