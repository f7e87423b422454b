/**
 * `SubscribeToTask` over HTTP+JSON answers `GET` (the proto's binding) and `POST` (§11.3.2) alike:
 * the same events, the same cursor (`Last-Event-ID`), the same chaos. Over HTTP, real server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import {
  chaosHeader,
  cursorHeader,
  postJson,
  RETURN_IMMEDIATELY,
  v1Send,
  type HeaderMap,
} from '../helpers/wire.js';
import { dataFrames, faultsOf, framesOf, REPORT_TEXT, settle } from '../chaos/helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startSim({ keepAlive: 0 });
});
afterEach(() => t.close());

const METHODS = ['GET', 'POST'] as const;

/** Subscribes by `method` (POST with an empty body, as §11.3.2 allows) and hands back the Response. */
function subscribe(method: (typeof METHODS)[number], taskId: string, headers: HeaderMap = {}) {
  return fetch(`${t.url}/tasks/${taskId}:subscribe`, {
    method,
    headers: { Accept: 'text/event-stream', ...headers },
  });
}

async function framesBy(method: (typeof METHODS)[number], taskId: string, headers: HeaderMap = {}) {
  const response = await subscribe(method, taskId, headers);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return dataFrames(framesOf(await settle(t, response.text())));
}

async function endedTask(): Promise<string> {
  const sent = await t.drive(postJson(t, '/message:send', v1Send(REPORT_TEXT)));
  expect(sent.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  return sent.body.task.id;
}

describe('subscribe by GET and by POST', () => {
  it('replays the same events after the Last-Event-ID cursor', async () => {
    const taskId = await endedTask();
    const byGet = await framesBy('GET', taskId, cursorHeader(2));
    const byPost = await framesBy('POST', taskId, cursorHeader(2));
    expect(byGet.length).toBeGreaterThan(1);
    expect(byGet[0]!.id).toBe('3');
    expect(byPost.map((f) => [f.id, f.data])).toEqual(byGet.map((f) => [f.id, f.data]));
  });

  it('follows a running task from its snapshot to its end, the same on both', async () => {
    const sent = await postJson(t, '/message:send', v1Send(REPORT_TEXT, {}, RETURN_IMMEDIATELY));
    const taskId: string = sent.body.task.id;
    const [getResponse, postResponse] = await Promise.all(METHODS.map((m) => subscribe(m, taskId)));
    const [byGet, byPost] = await settle(
      t,
      Promise.all([getResponse!, postResponse!].map(async (r) => dataFrames(framesOf(await r.text())))),
    );
    expect(byGet![0]!.json.task.id).toBe(taskId);
    expect(byGet!.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(byPost!.map((f) => f.id)).toEqual(byGet!.map((f) => f.id));
    expect(byPost!.slice(1).map((f) => f.data)).toEqual(byGet!.slice(1).map((f) => f.data));
  });

  it('applies X-Sim-Chaos to both, and logs the faults of each', async () => {
    const taskId = await endedTask();
    for (const method of METHODS) {
      const before = (await faultsOf(t, { kind: 'duplicate' })).length;
      const frames = await framesBy(method, taskId, {
        ...cursorHeader(0),
        ...chaosHeader('duplicate-probability=1'),
      });
      const originals = frames.filter((_, i) => i % 2 === 0);
      expect(frames.length).toBe(originals.length * 2);
      originals.forEach((frame, i) => expect(frames[2 * i + 1]!.data).toBe(frame.data));
      expect((await faultsOf(t, { kind: 'duplicate' })).length - before).toBe(originals.length);
    }
  });

  it('refuses a cursor that is not a sequence number the same way on both', async () => {
    const taskId = await endedTask();
    const answers = await Promise.all(METHODS.map((m) => subscribe(m, taskId, { 'Last-Event-ID': 'soon' })));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as any[];
    expect(answers.map((r) => r.status)).toEqual([400, 400]);
    expect(bodies[1].error.details[0].reason).toBe(bodies[0].error.details[0].reason);
  });
});
