/** The bounded copy of an answer: a body, a stream's frames, and what did not fit, counted. */
import { describe, expect, it } from 'vitest';
import { AnswerCopy, MAX_ANSWER_CHARS, MAX_ANSWER_EVENTS } from '../../src/calls/answer-copy.js';
import type { LoggedEvent } from '../../src/domain/types.js';
import type { KeptEvent } from '../../src/store/kept-event.js';

describe('AnswerCopy', () => {
  it('keeps a small body whole, from strings and bytes alike', () => {
    const copy = new AnswerCopy();
    copy.take('{"a":');
    copy.take(Buffer.from('1}'));
    copy.sentHeaders({ 'content-type': 'application/json', 'content-length': 7, 'set-cookie': ['s=1'] });
    expect(copy.toEntry(false)).toEqual({
      headers: { 'content-type': 'application/json', 'content-length': '7', 'set-cookie': '(redacted)' },
      body: '{"a":1}',
    });
  });

  it('takes the headers given to writeHead over those set, whatever their case', () => {
    const copy = new AnswerCopy();
    copy.sentHeaders(
      { 'content-type': 'text/plain', 'x-kept': '1' },
      { 'Content-Type': 'application/json', 'X-Api-Key': 'secret' },
    );
    expect(copy.toEntry(false).headers).toEqual({
      'content-type': 'application/json',
      'x-kept': '1',
      'x-api-key': '(redacted)',
    });
  });

  it('keeps the first 16 KiB of a large body and counts the rest in bytes', () => {
    const copy = new AnswerCopy();
    copy.take('x'.repeat(MAX_ANSWER_CHARS - 10));
    copy.take('é'.repeat(30));
    const entry = copy.toEntry(false);
    expect(entry.body).toHaveLength(MAX_ANSWER_CHARS);
    expect(entry.moreBytes).toBe(20 * 2);
    expect(copy.bytes).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
  });

  it('splits a stream into its frames as sent; a frame cut by chaos shows as it went out', () => {
    const copy = new AnswerCopy();
    copy.take('id: 1\ndata: {"a":1}\n\n');
    copy.take(': keep-alive\n\n');
    copy.take('id: 2\ndata: {"a"');
    expect(copy.toEntry(true)).toEqual({
      headers: {},
      events: ['id: 1\ndata: {"a":1}', ': keep-alive', 'id: 2\ndata: {"a"'],
    });
  });

  it("counts a long stream's events and bytes past the copy, and keeps no more than the cap", () => {
    const copy = new AnswerCopy();
    const frame = `data: ${'y'.repeat(12)}\n\n`; // 20 characters
    for (let i = 0; i < 1_000; i++) copy.take(frame);
    const entry = copy.toEntry(true);
    expect(entry.events).toHaveLength(MAX_ANSWER_EVENTS);
    expect(entry.events![0]).toBe(frame.trimEnd());
    expect(entry.moreEvents).toBe(1_000 - MAX_ANSWER_EVENTS);
    expect(entry.moreBytes).toBe((1_000 - MAX_ANSWER_EVENTS) * 20);
    expect(copy.bytes).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
  });

  describe("a stream's frames, handed over whole by its writer", () => {
    const logged = (seq: number) => ({ seq }) as unknown as LoggedEvent;
    /** The log's kept form, which rebuilds the event when the copy is read. */
    const event = (seq: number): KeptEvent => ({ seq, afterMs: 0, logged: () => logged(seq) });
    const render = (e: LoggedEvent) => `id: ${e.seq}\ndata: {"seq":${e.seq}}\n\n`;

    it('keeps an event of the log as the event and encodes it again when read; other frames as text', () => {
      const copy = new AnswerCopy();
      copy.streamed(render);
      copy.frame('data: {"snapshot":true}\n\n');
      copy.event(event(1), render(logged(1)));
      copy.event(event(1), render(logged(1)));
      copy.frame(': keep-alive\n\n');
      // What the response writes is these same frames: not taken twice.
      copy.take('id: 1\ndata: {"seq":1}\n\n');
      expect(copy.toEntry(true).events).toEqual([
        'data: {"snapshot":true}',
        'id: 1\ndata: {"seq":1}',
        'id: 1\ndata: {"seq":1}',
        ': keep-alive',
      ]);
      expect(copy.bytes).toBe('data: {"snapshot":true}\n\n'.length + 2 * render(logged(1)).length + 14);
    });

    it('counts the frames past the copy, whole, in events and bytes', () => {
      const copy = new AnswerCopy();
      copy.streamed(render);
      for (let seq = 1; seq <= 1_000; seq++) copy.event(event(seq), render(logged(seq)));
      const entry = copy.toEntry(true);
      expect(entry.events).toHaveLength(MAX_ANSWER_EVENTS);
      expect(entry.events!.at(-1)).toBe(render(logged(MAX_ANSWER_EVENTS)).slice(0, -2));
      expect(entry.moreEvents).toBe(1_000 - MAX_ANSWER_EVENTS);
      let rest = 0;
      for (let seq = MAX_ANSWER_EVENTS + 1; seq <= 1_000; seq++) rest += render(logged(seq)).length;
      expect(entry.moreBytes).toBe(rest);
      expect(copy.bytes).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    });
  });
});
