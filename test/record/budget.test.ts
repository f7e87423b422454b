/**
 * A recording keeps what it will write until it stops, within `record.maxBytes`
 * (`--max-recording-bytes`): a conversation it has no room for, at its first message or as it grows,
 * is left out whole and counted, and what it held goes back to the others. The agent recorded is a
 * real @a2a-js/sdk server.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { SseReader } from '../helpers/sse.js';
import { startUpstreamAgent } from '../helpers/upstream-agent.js';

async function stream(base: string, text: string, messageId: string) {
  const res = await fetch(`${base}/message:stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: { role: 'ROLE_USER', messageId, parts: [{ text }] } }),
  });
  return (await new SseReader(res).rest()).map((event) => event.json);
}

it('leaves out a conversation past the budget, whole, says how many, and records the next that fits', async () => {
  const out = await mkdtemp(join(tmpdir(), 'a2a-sim-record-budget-'));
  const agent = await startUpstreamAgent({ stepMs: 0 });
  const recorder = await createSimulator({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    builtinScenarios: false,
    proxy: { url: agent.url, binding: 'rest' },
    record: { out, maxBytes: 2_500 },
  });
  try {
    await stream(recorder.url, 'hello there', 'h-1');
    // Too large from its first message.
    await stream(recorder.url, `What is the weather in Oslo? ${'x'.repeat(10_000)}`, 'w-1');
    // Fits at first; then its chunks do not: cut short, and left out, though the client got it all.
    const report = await stream(recorder.url, 'Write the report', 'r-1');
    expect(report.filter((item) => item.artifactUpdate)).toHaveLength(4);
    await stream(recorder.url, 'Please fail', 'x-1');

    const { conversations, leftOut, files } = await recorder.recording!.stop();
    expect({ conversations, leftOut }).toEqual({ conversations: 2, leftOut: 2 });
    expect(files).toHaveLength(3);
    expect((await readdir(out)).filter((f) => !f.endsWith('.agent.yaml')).sort()).toEqual([
      'hello-there.yaml',
      'please-fail.yaml',
    ]);
  } finally {
    await recorder.close();
    await agent.close();
    await rm(out, { recursive: true, force: true });
  }
});
