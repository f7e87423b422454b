/**
 * The built-in curricula exercise their rules with the clients that exist: the simulator started
 * as `a2a-sim exam` starts it for a curriculum (its chaos, event retention and thresholds, the
 * built-in scenarios only), on a virtual clock, and a client written here as real ones behave.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RuleVerdict, SimulatorOptions } from '../../src/index.js';
import { combine, loadCurricula } from '../../src/verdicts/curriculum.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { getJson, postJson, RETURN_IMMEDIATELY, V1_HEADERS, v1Send } from '../helpers/wire.js';

let t: TestSim | undefined;
afterEach(() => t?.close());

/** A simulator as the exam starts one for `names`. */
async function examSim(...names: string[]): Promise<TestSim> {
  const { chaos, eventTtl, thresholds } = combine(await loadCurricula(names));
  const options: SimulatorOptions = {
    ...(chaos && { chaos }),
    ...(eventTtl && { retention: { eventTtl } }),
    verdicts: thresholds,
  };
  return startSim(options);
}

function verdict(sim: TestSim, client: string, rule: string): RuleVerdict {
  return sim.sim.verdicts(client)[0]!.verdicts.find((v) => v.rule === rule)!;
}

describe('polling', () => {
  it('exercises poll-deadline with a built-in scenario whose task never ends while polled', async () => {
    t = await examSim('polling');
    const headers = { ...V1_HEADERS, 'X-Sim-Client': 'poller' };
    const sent = await postJson(
      t,
      '/message:send',
      v1Send('Keep working on this forever', {}, RETURN_IMMEDIATELY),
      headers,
    );
    const taskId: string = sent.body.task.id;
    // A client with a deadline: five polls a second apart, then it gives up.
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1_000);
      expect((await getJson(t, `/tasks/${taskId}`, headers)).body.status.state).toBe('TASK_STATE_WORKING');
    }
    const v = verdict(t, 'poller', 'poll-deadline');
    expect([v.outcome, v.exercised]).toEqual(['pass', 1]);
  });
});

describe('expired-resume', () => {
  it('refuses a late resume without a cursor too, so get-after-failed-resume is exercised', async () => {
    t = await examSim('expired-resume');
    const sim = t;
    const headers = { ...V1_HEADERS, 'X-Sim-Client': 'sdk-like' };
    const cut = await sim.drive(
      postSse(`${sim.url}/message:stream`, v1Send('Write a long report on climate change'), headers).then(
        (s) => s.rest(),
      ),
    );
    const taskId: string = cut[0]!.json.task.id;
    sim.clock.advance(150);
    // A v1.0 client resumes as SubscribeToTask allows: no cursor.
    const refused = await fetch(`${sim.url}/tasks/${taskId}:subscribe`, {
      headers: { ...headers, Accept: 'text/event-stream' },
    });
    expect(refused.status).toBe(400);
    await refused.body?.cancel();
    expect((await getJson(sim, `/tasks/${taskId}`, headers)).status).toBe(200);
    const v = verdict(sim, 'sdk-like', 'get-after-failed-resume');
    expect([v.outcome, v.exercised]).toEqual(['pass', 1]);
  });
});
