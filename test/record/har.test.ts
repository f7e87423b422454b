/**
 * `record --har FILE` (option `record.har`): besides the scenarios, the session's calls are written
 * as a HAR 1.2 file, which the HAR schema accepts, with the client's secrets masked as the journal
 * keeps them. The agent recorded is a simulator of our own, on the same virtual clock.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { harProblems } from '../helpers/har.js';
import { startRecorder, startSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { postJson, v1Send } from '../helpers/wire.js';

let out: string;
let har: any;
let text: string;
let written: string | undefined;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'a2a-sim-record-har-'));
  const agent = await startSim();
  const recorder = await startRecorder(agent, { out, har: join(out, 'calls', 'session.har') });
  try {
    const auth = { Authorization: 'Bearer user-s3cret-token' };
    await agent.drive(postJson(recorder, '/message:send', v1Send('What is the weather today?'), auth));
    const reader = await agent.drive(postSse(`${recorder.url}/message:stream`, v1Send('Hello there')));
    await agent.drive(reader.rest());
    ({ har: written } = await recorder.recording!.stop());
  } finally {
    await recorder.close();
    await agent.close();
  }
  text = await readFile(join(out, 'calls', 'session.har'), 'utf8');
  har = JSON.parse(text);
});
afterAll(() => rm(out, { recursive: true, force: true }));

it('writes the calls as a HAR file the schema accepts, and says where', () => {
  expect(written).toBe(join(out, 'calls', 'session.har'));
  expect(harProblems(har)).toEqual([]);
  expect(har.log.creator.name).toBe('a2a-sim');
  const paths = har.log.entries.map((e: any) => new URL(e.request.url).pathname);
  expect(paths).toEqual(['/message:send', '/message:stream']);
});

it("keeps the stream's frames and masks the client's secret", () => {
  const stream = har.log.entries[1];
  expect(stream.response.content.mimeType).toMatch(/^text\/event-stream/);
  expect(stream.response.content.text).toMatch(/^data: \{"message":/m);
  expect(stream.response.content.text).toMatch(/\n\n$/);
  expect(text).not.toContain('user-s3cret-token');
  expect(har.log.entries[0].request.headers).toContainEqual({ name: 'authorization', value: '(redacted)' });
});
