/**
 * `GET /_sim/requests.har`: the journal as HAR 1.2, from real calls over HTTP (a REST send carrying
 * a secret, a JSON-RPC call, an SSE stream), checked against the HAR schema; the stream's frames are
 * in its entry, the secret is not anywhere, and the control plane's access rules hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harProblems } from '../helpers/har.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { admin, postJson, rpc, v1Send } from '../helpers/wire.js';

const TOKEN = { 'X-Admin-Token': 'admin-s3cret' };

describe('the journal as HAR', () => {
  let t: TestSim;
  let streamTaskId: string;
  let streamEvents: unknown[];

  beforeAll(async () => {
    t = await startSim({ adminToken: 'admin-s3cret' });
    const sent = await t.drive(
      postJson(t, '/message:send', v1Send('What is the weather today?'), {
        Authorization: 'Bearer user-s3cret-token',
      }),
    );
    expect(sent.status).toBe(200);
    const called = await t.drive(rpc(t, 'SendMessage', v1Send('Hello'), { version: '1.0' }));
    expect(called.body.result).toBeDefined();
    const reader = await t.drive(postSse(`${t.url}/message:stream`, v1Send('What is the weather today?')));
    streamEvents = (await t.drive(reader.rest())).map((event) => event.json);
    streamTaskId = (streamEvents[0] as { task: { id: string } }).task.id;
  });
  afterAll(() => t.close());

  async function har(query = '') {
    const answer = await admin(t, 'GET', `/requests.har${query}`, undefined, TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    return answer;
  }

  it('is a HAR 1.2 document the schema accepts, one entry per call, oldest first', async () => {
    const { body } = await har();
    expect(harProblems(body)).toEqual([]);
    expect(body.log.creator).toEqual({ name: 'a2a-sim', version: expect.any(String) });
    const entries = body.log.entries;
    expect(entries.map((e: any) => [e.request.method, new URL(e.request.url).pathname])).toEqual([
      ['POST', '/message:send'],
      ['POST', '/'],
      ['POST', '/message:stream'],
    ]);
    expect(new URL(entries[0].request.url).origin).toBe(t.url);
    expect(entries.every((e: any) => e.response.status === 200)).toBe(true);
  });

  it('shows the Authorization header masked, and the secret nowhere', async () => {
    const { body, text } = await har();
    expect(text).not.toContain('user-s3cret-token');
    expect(body.log.entries[0].request.headers).toContainEqual({
      name: 'authorization',
      value: '(redacted)',
    });
  });

  it('keeps each request body and answer, JSON-RPC included', async () => {
    const [send, call] = (await har()).body.log.entries;
    expect(send.request.postData.mimeType).toMatch(/^application\/json/);
    expect(JSON.parse(send.request.postData.text).message.parts[0].text).toBe('What is the weather today?');
    expect(JSON.parse(send.response.content.text).task).toBeDefined();
    expect(JSON.parse(call.request.postData.text).method).toBe('SendMessage');
    expect(JSON.parse(call.response.content.text).result).toBeDefined();
    expect(call.comment).toContain('SendMessage');
  });

  it("holds a stream's SSE frames as text/event-stream text", async () => {
    const stream = (await har()).body.log.entries[2];
    expect(stream.response.content.mimeType).toMatch(/^text\/event-stream/);
    const data = (stream.response.content.text as string)
      .split('\n\n')
      .filter((frame) => frame.includes('data: '))
      .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)));
    expect(data).toEqual(streamEvents);
    expect(stream.timings.receive).toBe(stream.time);
  });

  it("takes the journal's filters", async () => {
    const { body } = await har(`?taskId=${streamTaskId}`);
    expect(body.log.entries).toHaveLength(1);
    expect(harProblems(body)).toEqual([]);
  });

  it('keeps to the control plane: no token, no archive', async () => {
    const { status, body, text } = await admin(t, 'GET', '/requests.har');
    expect(status).toBe(401);
    expect(body.error).toMatchObject({ status: 'UNAUTHENTICATED' });
    expect(text).not.toContain('log');
  });
});
