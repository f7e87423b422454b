/**
 * `drop-resume-within`: a resume that comes later than the window after chaos cut the stream is
 * refused once as expired (EVENTS_EXPIRED), with a cursor or without, so a client that resumes
 * without a cursor meets the refusal too; the next subscription is served, and one in time is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { callJson, chaosHeader, cursorHeader, V1_HEADERS, v1Send } from '../helpers/wire.js';
import { REPORT_TEXT } from './helpers.js';

const CHAOS = chaosHeader('drop-after-events=2, drop-resume-within=50ms');

let t: TestSim | undefined;
afterEach(() => t?.close());

/** Streams the report, which chaos cuts after two events; the task id and the last seq. */
async function cutStream(sim: TestSim, client: string): Promise<{ taskId: string; last: number }> {
  const headers = { ...V1_HEADERS, ...CHAOS, 'X-Sim-Client': client };
  const events = await sim.drive(
    postSse(`${sim.url}/message:stream`, v1Send(REPORT_TEXT), headers).then((s) => s.rest()),
  );
  return { taskId: events[0]!.json.task.id, last: Number(events.at(-1)!.id) };
}

/** Opens a subscription and reads only its status line (a stream is cancelled unread). */
async function subscribe(sim: TestSim, client: string, taskId: string, afterSeq?: number) {
  const response = await fetch(`${sim.url}/tasks/${taskId}:subscribe`, {
    headers: {
      ...V1_HEADERS,
      ...CHAOS,
      ...cursorHeader(afterSeq),
      'X-Sim-Client': client,
      Accept: 'text/event-stream',
    },
  });
  const body: any =
    response.status === 200 ? (await response.body?.cancel(), undefined) : await response.json();
  return { status: response.status, body };
}

describe('drop-resume-within', () => {
  it.each([
    ['without a cursor', false],
    ['with a cursor', true],
  ])('refuses a late resume %s once, as expired; the next one is served', async (_title, withCursor) => {
    t = await startSim();
    const { taskId, last } = await cutStream(t, 'late');
    t.clock.advance(100);
    const refused = await subscribe(t, 'late', taskId, withCursor ? last : undefined);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0]).toMatchObject({ reason: 'EVENTS_EXPIRED', metadata: { taskId } });
    expect(refused.body.error.message).toContain('simulated by chaos profile');
    // GetTask, then a fresh subscription: served.
    expect((await callJson(t, 'GET', `/tasks/${taskId}`, { headers: V1_HEADERS })).status).toBe(200);
    expect((await subscribe(t, 'late', taskId)).status).toBe(200);
    const faults = t.sim.faults.list({ taskId, kind: 'error' });
    expect(faults.map((f) => f.detail)).toEqual([{ error: 'resume-expired', afterMs: 100 }]);
  });

  it('serves a resume within the window, and leaves other clients alone', async () => {
    t = await startSim();
    const { taskId, last } = await cutStream(t, 'quick');
    t.clock.advance(20);
    expect((await subscribe(t, 'quick', taskId, last)).status).toBe(200);
    t.clock.advance(100);
    // Another client never had its stream cut: nothing to refuse.
    expect((await subscribe(t, 'other', taskId)).status).toBe(200);
  });
});
