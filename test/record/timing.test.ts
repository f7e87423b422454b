/**
 * A recording keeps its stream's pace: an agent that sends a chunk about every second, with one
 * pair of chunks back to back, replays in the time it took (within 10%), not at the pace of one
 * range drawn over all its gaps. The agent is a simulator of our own; it, the recorder and the
 * replay all run on virtual clocks, so the 30 seconds recorded take a few milliseconds.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Simulator } from '../../src/index.js';
import type { VirtualClock } from '../../src/lib/clock.js';
import type { TaskStoreView } from '../../src/index.js';
import { turn, inline } from '../engine/helpers.js';
import { flushIo, settledYet, startRecorder, startSim, startSimWith } from '../helpers/sim.js';
import { SseReader } from '../helpers/sse.js';

/** The agent's gaps between chunks, ms: a second or so, and one pair sent together. */
const GAPS = [1000, 0, 1070, 980, 1010, 950, 1040, 990, 1000, 1030, 960, 1020, 1000, 1000, 970];
const CHUNKS = GAPS.length + 1;

const AGENT_SCENARIO = `
description: A report written a chunk at a time.
match: [{ text: write the report }]
steps:
  - status: working
    after: 100ms
  - artifact:
      name: report
      chunks: [${Array.from({ length: CHUNKS }, (_, i) => `"part ${i}. "`).join(', ')}]
      every: [${GAPS.map((ms) => `${ms}ms`).join(', ')}]
    after: 200ms
  - status: completed
`;

async function streamReport(base: string): Promise<unknown[]> {
  const res = await fetch(`${base}/message:stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      message: { role: 'ROLE_USER', messageId: 'm-1', parts: [{ text: 'write the report' }] },
    }),
  });
  return (await new SseReader(res).rest()).map((event) => event.json);
}

/** From the first chunk to the last, as the task's log has them, ms. */
function artifactSpan(store: TaskStoreView): number {
  const [record] = [...store.all()];
  const times = record!.log
    .readAfter(0)
    .filter((logged) => logged.event.kind === 'artifact')
    .map((logged) => logged.atMs);
  expect(times).toHaveLength(CHUNKS);
  return times.at(-1)! - times[0]!;
}

/** Artifact events a store has taken in so far, with a counter kept up to date. */
function countArtifacts(store: TaskStoreView): () => number {
  let count = 0;
  store.onEvent((_record, logged) => {
    if (logged.event.kind === 'artifact') count++;
  });
  return () => count;
}

/**
 * Runs the shared clock to each next timer, but only once the recorder has taken in every chunk the
 * agent sent: real I/O in flight looks like an idle loop, and a jump then would stamp a chunk late.
 */
async function driveRecording<T>(
  clock: VirtualClock,
  work: Promise<T>,
  sent: () => number,
  taken: () => number,
): Promise<T> {
  const settled = settledYet(work);
  for (let step = 0; !settled(); step++) {
    if (step > 10_000) throw new Error('the recording never finished');
    while (!settled() && taken() < sent()) await new Promise((resolve) => setImmediate(resolve));
    await flushIo(5);
    if (settled()) break;
    const next = clock.nextAt();
    if (next !== undefined) clock.advance(Math.max(0, next - clock.now()));
  }
  return work;
}

describe('recording a stream that sends a chunk about every second', () => {
  let out: string;
  let recordedSpan: number;
  let replayedSpan: number;
  let scenario: any;

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'a2a-sim-timing-'));
    const agent = await startSimWith({ 'report.yaml': AGENT_SCENARIO }, { builtinScenarios: false });
    let recorder: Simulator | undefined;
    try {
      recorder = await startRecorder(agent, { out });
      const sent = countArtifacts(agent.sim.store);
      const taken = countArtifacts(recorder.store);
      await driveRecording(agent.clock, streamReport(recorder.url), sent, taken);
      recordedSpan = artifactSpan(agent.sim.store);
      await recorder.recording!.stop();
    } finally {
      await recorder?.close();
      await agent.close();
    }
    scenario = parse(await readFile(join(out, 'write-the-report.yaml'), 'utf8'));
    const replay = await startSim({ scenarioDirs: [out], builtinScenarios: false });
    try {
      expect(replay.sim.issues).toEqual([]);
      await replay.drive(streamReport(replay.url));
      replayedSpan = artifactSpan(replay.sim.store);
    } finally {
      await replay.close();
    }
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('writes the gaps between chunks as the list observed, in order', () => {
    const artifact = scenario.steps.find((step: any) => step.artifact).artifact;
    expect(artifact.chunks).toHaveLength(CHUNKS);
    expect(artifact.every).toEqual(GAPS.map((ms) => `${ms}ms`));
  });

  it('replays within 10% of the time the agent took', () => {
    expect(recordedSpan).toBe(GAPS.reduce((a, b) => a + b, 0));
    expect(Math.abs(replayedSpan - recordedSpan)).toBeLessThanOrEqual(recordedSpan * 0.1);
  });
});

describe('`every` as a list of durations', () => {
  it('spaces the chunks by its entries in order, and reads it again from its start', async () => {
    const s = await inline(`
description: listed gaps
steps:
  - artifact:
      chunks: ["a", "b", "c", "d", "e", "f"]
      every: [100ms, 0ms, 2s]
  - status: completed
`);
    const times = turn(s, 'go', 'seed')
      .entries.filter((e) => e.event.kind === 'artifact')
      .map((e) => e.atMs);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps).toEqual([100, 0, 2000, 100, 0]);
  });

  it('refuses an empty list, with the path of the step', async () => {
    await expect(
      inline(`
description: no gaps
steps:
  - artifact:
      chunks: ["a", "b"]
      every: []
`),
    ).rejects.toThrow(/steps\[0\]|steps\.0/);
  });
});
