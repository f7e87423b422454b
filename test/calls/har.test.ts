/**
 * Journal entries as HAR 1.2, from entries made by hand: what each field of a request and an answer
 * becomes, a stream's frames as event-stream text, clipping said on a comment, and a document that
 * the HAR schema accepts whole.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_CHARS, type JournalEntry } from '../../src/calls/exchange.js';
import { harChunks, harEntry } from '../../src/calls/har.js';
import { harProblems } from '../helpers/har.js';

const sent: JournalEntry = {
  n: 1,
  at: '2026-12-01T10:00:00.000Z',
  method: 'POST',
  path: '/message:send?tenant=a&x=1',
  headers: { host: '127.0.0.1:4000', 'content-type': 'application/json', authorization: '(redacted)' },
  body: '{"message":{}}',
  binding: 'REST',
  operation: 'POST /message:send',
  taskId: 't-1',
  status: 200,
  streamed: false,
  durationMs: 12,
  answer: { headers: { 'content-type': 'application/json' }, body: '{"task":{}}' },
  faults: [],
};

const streamed: JournalEntry = {
  ...sent,
  n: 2,
  path: '/message:stream',
  streamed: true,
  durationMs: 300,
  answer: {
    headers: { 'content-type': 'text/event-stream' },
    events: ['id: 1\ndata: {"task":{}}', 'id: 2\ndata: {"statusUpdate":{}}'],
    moreBytes: 2048,
    moreEvents: 3,
  },
  faults: [4],
};

describe('a journal entry as a HAR entry', () => {
  it('keeps the request: absolute URL, headers as sent (masked), query string, body with its type', () => {
    const { request } = harEntry(sent);
    expect(request).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:4000/message:send?tenant=a&x=1',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      queryString: [
        { name: 'tenant', value: 'a' },
        { name: 'x', value: '1' },
      ],
      postData: { mimeType: 'application/json', text: '{"message":{}}' },
      bodySize: 14,
    });
    expect(request.headers).toContainEqual({ name: 'authorization', value: '(redacted)' });
    expect(harEntry(sent, 'https://sim.test').request.url).toBe('https://sim.test/message:send?tenant=a&x=1');
  });

  it('keeps the answer, the timing and what the call was read as', () => {
    const entry = harEntry(sent);
    expect(entry.response).toMatchObject({
      status: 200,
      statusText: 'OK',
      content: { size: 11, mimeType: 'application/json', text: '{"task":{}}' },
      bodySize: 11,
    });
    expect(entry).toMatchObject({ time: 12, timings: { send: 0, wait: 12, receive: 0 } });
    expect(entry.comment).toBe('#1: REST POST /message:send; task t-1');
  });

  it("writes a stream's frames as event-stream text and says what was clipped", () => {
    const entry = harEntry(streamed);
    const text = 'id: 1\ndata: {"task":{}}\n\nid: 2\ndata: {"statusUpdate":{}}\n\n';
    expect(entry.response.content).toEqual({
      size: Buffer.byteLength(text) + 2048,
      mimeType: 'text/event-stream',
      text,
      comment: 'Clipped: 2048 more bytes (3 more events) were sent than kept here.',
    });
    expect(entry.response.bodySize).toBe(-1);
    expect(entry.timings).toEqual({ send: 0, wait: 0, receive: 300 });
    expect(entry.comment).toContain('chaos faults 4');
  });

  it('says when a request body was clipped, and when there was no answer yet', () => {
    const long = { ...sent, body: `${'x'.repeat(MAX_BODY_CHARS)}… (5 more characters)` };
    expect(harEntry(long).request.postData!.comment).toMatch(/clipped/);
    expect(harEntry(long).request.bodySize).toBe(-1);
    const { status: _s, answer: _a, durationMs: _d, ...open } = sent;
    const pending = harEntry(open);
    expect(pending.response).toMatchObject({ status: 0, content: { size: 0, mimeType: '' } });
    expect(pending.response.comment).toMatch(/No answer yet/);
  });
});

describe('the HAR document', () => {
  it('joins into one document the HAR 1.2 schema accepts', () => {
    const pieces = [...harChunks([sent, streamed], { version: '9.9.9' })];
    expect(pieces).toHaveLength(4);
    const har = JSON.parse(pieces.join(''));
    expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'a2a-sim', version: '9.9.9' } });
    expect(har.log.entries).toHaveLength(2);
    expect(harProblems(har)).toEqual([]);
  });

  it('is valid empty, and the schema check does refuse a broken one', () => {
    expect(harProblems(JSON.parse([...harChunks([], { version: '1' })].join('')))).toEqual([]);
    const broken = { log: { version: '1.2', creator: { name: 'x' }, entries: [{ time: 'soon' }] } };
    expect(harProblems(broken).length).toBeGreaterThan(0);
  });
});
