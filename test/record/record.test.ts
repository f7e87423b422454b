/**
 * Recording a real agent (an @a2a-js/sdk server) through each binding it offers, then replaying the
 * files offline: the replay plays the same states in the same order, the same texts, artifacts and
 * chunk boundaries, with delays in the recorded range, and the same seed replays byte for byte.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createSimulator, type Simulator } from '../../src/index.js';
import { startSim } from '../helpers/sim.js';
import { SseReader } from '../helpers/sse.js';
import { startUpstreamAgent, type UpstreamAgent } from '../helpers/upstream-agent.js';

type Shape = unknown[];

/** What a v1.0 stream item says, without ids and timestamps. */
function shapeOf(item: any): Shape {
  const texts = (parts: any[] = []) => parts.map((p) => p.text ?? p.data ?? p.url ?? p.raw);
  if (item.task) return ['task', item.task.status.state];
  if (item.message) return ['message', texts(item.message.parts)];
  if (item.statusUpdate) {
    const { state, message } = item.statusUpdate.status;
    return ['status', state, texts(message?.parts)];
  }
  const { artifact, append, lastChunk } = item.artifactUpdate;
  return ['artifact', artifact.name, texts(artifact.parts), !!append, !!lastChunk];
}

async function stream(base: string, text: string, messageId: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/message:stream`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: 'Bearer s3cret-token',
      'x-api-key': 'key-123',
    },
    body: JSON.stringify({
      message: {
        role: 'ROLE_USER',
        messageId,
        parts: [{ text }],
        metadata: { session: 'private-session', skillId: 'travel' },
        ...extra,
      },
    }),
  });
  return (await new SseReader(res).rest()).map((event) => event.json);
}

/** The conversations a client has with the agent: each a list of turns' stream items. */
async function converse(base: string): Promise<Record<string, unknown[][]>> {
  const weather1 = await stream(base, 'What is the weather in Oslo?', 'w-1');
  const weather2 = await stream(base, 'What is the weather in Oslo?', 'w-2');
  const flight = await stream(base, 'Book a flight', 'f-1');
  const task = flight[0].task;
  const answer = await stream(base, 'From Oslo to Rome', 'f-2', {
    taskId: task.id,
    contextId: task.contextId,
  });
  const report = await stream(base, 'Write the report', 'r-1');
  const fail = await stream(base, 'Please fail', 'x-1');
  const hello = await stream(base, 'hello there', 'h-1');
  return {
    weather: [weather1, weather2],
    flight: [flight, answer],
    report: [report],
    fail: [fail],
    hello: [hello],
  };
}

const shapes = (conversations: Record<string, unknown[][]>) =>
  Object.fromEntries(
    Object.entries(conversations).map(([k, turns]) => [k, turns.map((t) => t.map(shapeOf))]),
  );

describe.each(['rest', 'jsonrpc', 'jsonrpc-0.3'] as const)('recording the SDK agent over %s', (binding) => {
  let agent: UpstreamAgent;
  let out: string;
  let live: Record<string, unknown[][]>;
  let files: string[];

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'a2a-sim-record-'));
    agent = await startUpstreamAgent({ stepMs: 20 });
    const recorder: Simulator = await createSimulator({
      port: 0,
      logLevel: 'silent',
      builtinScenarios: false,
      proxy: { url: agent.url, binding },
      record: { out, redact: ['session'] },
    });
    try {
      live = await converse(recorder.url);
      ({ files } = await recorder.recording!.stop());
    } finally {
      await recorder.close();
      // Offline from here on: the replay needs nothing of the agent.
      await agent.close();
    }
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('writes one scenario per conversation (the weather twice is one) and an agent file', async () => {
    expect((await readdir(out)).sort()).toEqual(
      [
        'book-a-flight.yaml',
        'hello-there.yaml',
        'please-fail.yaml',
        'travel-desk.agent.yaml',
        'what-is-the-weather-in-oslo.yaml',
        'write-the-report.yaml',
      ].sort(),
    );
    expect(files).toHaveLength(6);
    const agentFile = parse(await readFile(join(out, 'travel-desk.agent.yaml'), 'utf8'));
    expect(agentFile).toMatchObject({ name: 'Travel desk', security: { apiKey: { header: 'X-API-Key' } } });
    expect(agentFile.skills.map((s: { id: string }) => s.id)).toContain('flight-booking');
  });

  it('writes no secret: no credential, no redacted metadata', async () => {
    for (const name of await readdir(out)) {
      const text = await readFile(join(out, name), 'utf8');
      expect(text).not.toMatch(/s3cret-token|key-123|private-session/);
    }
    expect(agent.requests.some((r) => r.headers['authorization'] === 'Bearer s3cret-token')).toBe(true);
  });

  it('turns what the agent echoed into a reference to the input', async () => {
    const flight = await readFile(join(out, 'book-a-flight.yaml'), 'utf8');
    expect(flight).toContain('Searching flights {{input.text}}...');
  });

  it('replays offline as recorded: states, texts, artifacts and chunks, delays in range', async () => {
    const sim = await startSim({ scenarioDirs: [out], builtinScenarios: false });
    try {
      expect(sim.sim.issues).toEqual([]);
      expect(sim.sim.agents.map((a) => a.id)).toEqual(['travel-desk']);
      const replay = await sim.drive(converse(sim.url));
      expect(shapes(replay)).toEqual(shapes(live));
      const weather = parse(await readFile(join(out, 'what-is-the-weather-in-oslo.yaml'), 'utf8'));
      const after = weather.steps[0].after;
      const [min, max] = (typeof after === 'string' ? [after, after] : [after.min, after.max]).map(
        (d: string) => Number.parseInt(d, 10),
      );
      const taskId = (replay['weather']![0]![0] as any).task.id;
      const [created, working] = sim.sim.store.find(taskId)!.log.readAfter(0);
      expect(working!.atMs - created!.atMs).toBeGreaterThanOrEqual(min!);
      expect(working!.atMs - created!.atMs).toBeLessThanOrEqual(max!);
    } finally {
      await sim.close();
    }
  });

  it('replays byte for byte with one seed', async () => {
    const play = async () => {
      const sim = await startSim({ scenarioDirs: [out], builtinScenarios: false, seed: 'same' });
      try {
        return JSON.stringify(await sim.drive(converse(sim.url)));
      } finally {
        await sim.close();
      }
    };
    expect(await play()).toBe(await play());
  });
});
