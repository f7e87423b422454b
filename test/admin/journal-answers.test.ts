/**
 * The journal keeps a bounded copy of each answer (`answer` on `GET /_sim/requests/{n}`): the body of
 * a plain answer, a stream's events as sent, and what did not fit, counted; answers count in the
 * journal's byte budget, however large a client makes them.
 */
import { afterEach, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS } from '../../src/calls/answer-copy.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { admin, chaosHeader, postJson, rpcStream, v03Send, v1Send } from '../helpers/wire.js';

let t: TestSim | undefined;
afterEach(() => t?.close());

/** Every journal entry in full: the list leaves the answers out, one entry has its own. */
async function requests(sim: TestSim): Promise<any[]> {
  const listed = (await admin(sim, 'GET', '/requests')).body.requests as any[];
  expect(listed.every((entry) => entry.answer === undefined)).toBe(true);
  return Promise.all(listed.map(async (entry) => (await admin(sim, 'GET', `/requests/${entry.n}`)).body));
}

it('shows the answer: status, headers and body as sent', async () => {
  t = await startSim();
  const sent = await t.drive(postJson(t, '/message:send', v1Send('What is the weather today?')));
  const [entry] = await requests(t);
  expect(entry.status).toBe(200);
  expect(entry.answer.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(entry.answer.body)).toEqual(sent.body);
  expect(entry.answer.moreBytes).toBeUndefined();
});

it("shows a stream's events as they were sent", async () => {
  t = await startSim();
  const reader = await t.drive(postSse(`${t.url}/message:stream`, v1Send('What is the weather today?')));
  const events = await t.drive(reader.rest());
  const [entry] = await requests(t);
  expect(entry.streamed).toBe(true);
  expect(entry.answer.headers['content-type']).toMatch(/^text\/event-stream/);
  const data = entry.answer.events
    .filter((frame: string) => frame.includes('data: '))
    .map((frame: string) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)));
  expect(data).toEqual(events.map((event) => event.json));
});

it.each([
  ['JSON-RPC 1.0', 'SendStreamingMessage', v1Send, '1.0'],
  ['JSON-RPC 0.3', 'message/stream', v03Send, undefined],
] as const)(
  "shows a %s stream's frames as sent, duplicates and made-up states included",
  async (_binding, method, send, version) => {
    t = await startSim();
    const headers = chaosHeader('duplicate=1, quirks=unknown-state');
    const reader = await t.drive(
      rpcStream(t, method, send('What is the weather today?'), {
        id: 'r-7',
        headers,
        ...(version && { version }),
      }),
    );
    const events = await t.drive(reader.rest());
    const [entry] = await requests(t);
    const frames = (entry.answer.events as string[]).filter((frame) => frame.includes('data: '));
    expect(frames.map((frame) => frame.slice(frame.indexOf('data: ') + 6))).toEqual(
      events.map((event) => event.data),
    );
    expect(
      frames.map((frame) => (frame.startsWith('id: ') ? frame.slice(4, frame.indexOf('\n')) : undefined)),
    ).toEqual(events.map((event) => event.id));
    // Duplicated events went out twice, and so show twice.
    expect(new Set(events.map((event) => event.data)).size).toBeLessThan(events.length);
  },
);

it('keeps the byte budget with large answers: each answer clipped, the oldest entries forgotten', async () => {
  const maxBytes = 256 * 1024;
  t = await startSim({ journalBytes: maxBytes });
  const text = 'z'.repeat(200 * 1024);
  for (let i = 0; i < 30; i++) {
    // The task's answer echoes the message in its history: an answer as large as the client makes it.
    const answer = await t.drive(postJson(t, '/message:send', v1Send(text, { messageId: `big-${i}` })));
    expect(answer.status).toBe(200);
    const { journal } = (await admin(t, 'GET', '/health')).body.memory;
    expect(journal.bytes).toBeLessThanOrEqual(maxBytes);
  }
  const kept = await requests(t);
  expect(kept.length).toBeLessThan(30);
  expect(kept.length).toBeGreaterThan(1);
  for (const entry of kept) {
    expect(entry.answer.body.length).toBe(MAX_ANSWER_CHARS);
    expect(entry.answer.moreBytes).toBeGreaterThan(text.length - MAX_ANSWER_CHARS);
  }
  expect(kept.at(-1).n).toBe(30);
});
