/**
 * Verdicts on real requests: a simulator on a virtual clock, called over the wire as a client
 * calls it, and the judge's verdicts read back. What the witness records of each call (its
 * binding, its stream, a refusal) is what the rules judge here, not a hand-made record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RuleVerdict } from '../../src/index.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { v1Send, V1_HEADERS } from '../helpers/wire.js';

let t: TestSim | undefined;
afterEach(() => t?.close());

/** One client's verdict on one rule. */
function verdict(sim: TestSim, client: string, rule: string): RuleVerdict {
  const [verdicts] = sim.sim.verdicts(client);
  const found = verdicts?.verdicts.find((v) => v.rule === rule);
  if (!found) throw new Error(`no verdict on ${rule} for ${client}`);
  return found;
}

const as = (client: string) => ({ ...V1_HEADERS, 'X-Sim-Client': client });

describe('input-required-continuation over message:stream', () => {
  it('passes a client that answers on the task over a stream, then starts a new conversation', async () => {
    t = await startSim();
    const sim = t;
    const stream = (body: unknown) =>
      sim.drive(postSse(`${sim.url}/message:stream`, body, as('streamer')).then((s) => s.rest()));
    const asked = await stream(v1Send('Book me a flight'));
    const taskId: string = asked[0]!.json.task.id;
    expect(asked.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const answered = await stream(v1Send('From Oslo to Rome', { taskId }));
    expect(answered.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    await stream(v1Send('What is the weather today?'));
    const v = verdict(t, 'streamer', 'input-required-continuation');
    expect(v.evidence).toEqual([]);
    expect(v.outcome).toBe('pass');
  });
});

describe("the dashboard's talk panel", () => {
  it('names its calls as the dashboard, which the judge leaves out of the verdicts', async () => {
    t = await startSim();
    const sim = t;
    // The page's own module, run as the page runs it: beside /_sim/, with the browser's fetch.
    const agentJs = '../../src/admin/dashboard/agent.js';
    const { sendToAgent } = (await import(agentJs)) as {
      sendToAgent(choice: object, onAnswer: (summary: { state?: string }) => void): Promise<void>;
    };
    const location = { href: `${sim.url}/_sim/` };
    Object.assign(globalThis, { location });
    try {
      const states: (string | undefined)[] = [];
      const choice = { agent: '', binding: 'rest', stream: false, text: 'What is the weather today?' };
      await sim.drive(sendToAgent(choice, (summary) => states.push(summary.state)));
      expect(states).toEqual(['completed']);
      await sim.drive(sendToAgent({ ...choice, binding: 'jsonrpc' }, () => {}));
    } finally {
      Reflect.deleteProperty(globalThis, 'location');
    }
    const sent = sim.sim.journal.list().filter((e) => e.method === 'POST');
    expect(sent.map((e) => e.headers['x-sim-client'])).toEqual(['a2a-sim-dashboard', 'a2a-sim-dashboard']);
    expect(sim.sim.verdicts()).toEqual([]);
  });
});
