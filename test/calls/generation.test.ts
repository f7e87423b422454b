/**
 * The v1.1 draft's task generation (§3.2.7) with `--preview generation`, over HTTP on a real server:
 * one step per event, alike on the stream, GetTask, ListTasks and a resumed stream; and nothing of
 * it on the wire without the switch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { cursorHeader, getJson, postJson, rpc, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';
import { dataFrames, framesOf, REPORT_TEXT, settle, type Frame } from '../chaos/helpers.js';

let t: TestSim;
afterEach(() => t.close());

const GENERATION = { preview: ['generation' as const], keepAlive: 0 };

/** The generation a frame carries: its Task's, or its update's. */
function generationOf(frame: Frame): number | undefined {
  const json = frame.json;
  return json.task?.generation ?? json.statusUpdate?.generation ?? json.artifactUpdate?.generation;
}

async function streamFrames(path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return dataFrames(framesOf(await settle(t, response.text())));
}

describe('with --preview generation', () => {
  it('starts at 1 and steps by exactly one per event, on every answer alike (§3.2.7)', async () => {
    t = await startSim(GENERATION);
    const frames = await streamFrames('/message:stream', v1Send(REPORT_TEXT));
    const generations = frames.map(generationOf);
    expect(generations[0]).toBe(1);
    expect(generations).toEqual(generations.map((_, i) => i + 1));
    const taskId: string = frames[0]!.json.task.id;
    const last = generations.at(-1)!;

    const got = await getJson(t, `/tasks/${taskId}`);
    expect(got.body.generation).toBe(last);
    const listed = await getJson(t, '/tasks');
    expect(listed.body.tasks[0].generation).toBe(last);
    const viaRpc = await rpc(t, 'GetTask', { id: taskId }, { version: '1.0' });
    expect(viaRpc.body.result.generation).toBe(last);

    // A resume after seq 2 replays the same events with the same generations.
    const resumed = await streamFrames(`/tasks/${taskId}:subscribe`, undefined, cursorHeader(2));
    expect(resumed.map((f) => [f.id, generationOf(f)])).toEqual(
      frames.slice(2).map((f) => [f.id, generationOf(f)]),
    );
  });

  it('answers SendMessage and the stream of a follow-up with the task at its generation', async () => {
    t = await startSim(GENERATION);
    const sent = await t.drive(postJson(t, '/message:send', v1Send('Book me a flight')));
    const task = sent.body.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // Created (1), working (2), input-required (3).
    expect(task.generation).toBe(3);
    const followUp = v1Send('From Paris to Rome', { taskId: task.id });
    const frames = await streamFrames('/message:stream', followUp);
    // The turn opens with the task as it is (no mutation), then one step per event.
    expect(frames.map(generationOf)).toEqual(frames.map((_, i) => 3 + i));
  });
});

describe('without --preview', () => {
  it('sends no generation anywhere: the answers are those of a 1.0 server', async () => {
    t = await startSim({ keepAlive: 0 });
    const frames = await streamFrames('/message:stream', v1Send(REPORT_TEXT));
    const taskId: string = frames[0]!.json.task.id;
    const texts = [
      ...frames.map((f) => f.data!),
      (await getJson(t, `/tasks/${taskId}`)).text,
      (await getJson(t, '/tasks')).text,
      (await rpc(t, 'GetTask', { id: taskId }, { version: '1.0' })).text,
    ];
    for (const text of texts) expect(text).not.toContain('generation');
  });

  it('ignores currentGeneration and ifGenerationMatch', async () => {
    t = await startSim({ keepAlive: 0 });
    const sent = await t.drive(postJson(t, '/message:send', v1Send('Book me a flight')));
    const taskId: string = sent.body.task.id;
    const got = await getJson(t, `/tasks/${taskId}?currentGeneration=99`);
    expect(got.status).toBe(200);
    const followUp = v1Send('From Paris to Rome', { taskId }, { configuration: { ifGenerationMatch: 99 } });
    const answer = await t.drive(postJson(t, '/message:send', followUp));
    expect(answer.status).toBe(200);
    expect(answer.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('SendMessage with returnImmediately', () => {
  it('answers with the task at generation 1, just created', async () => {
    t = await startSim(GENERATION);
    const sent = await postJson(t, '/message:send', v1Send(REPORT_TEXT, {}, RETURN_IMMEDIATELY));
    expect(sent.body.task.generation).toBe(1);
  });
});
