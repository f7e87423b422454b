/**
 * Verdicts on real requests: a simulator on a virtual clock, called over the wire as a client
 * calls it, and the judge's verdicts read back. What the witness records of each call (its
 * binding, its stream, a refusal) is what the rules judge here, not a hand-made record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RuleVerdict } from '../../src/index.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { getSse, postSse } from '../helpers/sse.js';
import { callJson, chaosHeader, rpc, rpcEnvelope, v03Send, v1Send, V1_HEADERS } from '../helpers/wire.js';

const REPORT = 'Write a long report on climate change';

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

describe('a resume refused while it is read', () => {
  it("counts a Last-Event-ID the server refuses as the client's resume, and the refusal (REST)", async () => {
    t = await startSim();
    const sim = t;
    const headers = { ...as('bad-cursor'), ...chaosHeader('drop-after-events=2') };
    const cut = await sim.drive(
      postSse(`${sim.url}/message:stream`, v1Send(REPORT), headers).then((s) => s.rest()),
    );
    const taskId: string = cut[0]!.json.task.id;
    for (let i = 0; i < 3; i++) {
      const refused = await callJson(sim, 'GET', `/tasks/${taskId}:subscribe`, {
        headers: { ...as('bad-cursor'), Accept: 'text/event-stream', 'Last-Event-ID': 'undefined' },
      });
      expect(refused.status).toBe(400);
    }
    const resume = verdict(t, 'bad-cursor', 'resume-cursor');
    expect(resume.exercised).toBe(1);
    expect(resume.evidence[0]!.detail).toMatch(/refused/);
    const check = verdict(t, 'bad-cursor', 'get-after-failed-resume');
    expect([check.outcome, check.exercised]).toEqual(['fail', 3]);
  });

  it('counts an afterSeq the gateway refuses while decoding the params', async () => {
    t = await startSim();
    const sim = t;
    const gateway = `${sim.url}/agents/a2a`;
    const headers = { 'X-Sim-Client': 'gw-client', ...chaosHeader('drop-after-events=2') };
    const envelope = (method: string, params: unknown, id: string) =>
      rpcEnvelope(method, params, { id, agent_code: 'explore' });
    const cut = await sim.drive(
      postSse(gateway, envelope('message/stream', v03Send(REPORT), 's-1'), headers).then((s) => s.rest()),
    );
    const taskId: string = cut[0]!.json.result.id;
    const refused = await sim.drive(
      postSse(gateway, envelope('tasks/resubscribe', { taskId, afterSeq: 'two' }, 'r-1'), headers).then((s) =>
        s.rest(),
      ),
    );
    expect(refused.at(-1)!.json.error.code).toBe(-32602);
    await rpc(
      sim,
      'tasks/get',
      { id: taskId },
      { path: '/agents/a2a', headers, envelope: { agent_code: 'explore' } },
    );
    const check = verdict(t, 'gw-client', 'get-after-failed-resume');
    expect([check.outcome, check.exercised]).toEqual(['pass', 1]);
    expect(verdict(t, 'gw-client', 'resume-cursor').exercised).toBe(1);
  });
});

describe('resume-cursor, by binding (PROTOCOL.md §13)', () => {
  /** Streams the report, cut after two events, then subscribes again without a cursor. */
  async function resumeWithoutCursor(sim: TestSim, client: string, version: '1.0' | '0.3') {
    const headers = { 'X-Sim-Client': client, ...chaosHeader('drop-after-events=2') };
    if (version === '1.0') {
      const cut = await sim.drive(
        postSse(`${sim.url}/message:stream`, v1Send(REPORT), { ...V1_HEADERS, ...headers }).then((s) =>
          s.rest(),
        ),
      );
      const taskId: string = cut[0]!.json.task.id;
      const resumed = await sim.drive(
        callJson(sim, 'GET', `/tasks/${taskId}:subscribe`, {
          headers: { ...V1_HEADERS, 'X-Sim-Client': client, Accept: 'text/event-stream' },
        }),
      );
      expect(resumed.status).toBe(200);
    } else {
      const cut = await sim.drive(
        postSse(`${sim.url}/`, rpcEnvelope('message/stream', v03Send(REPORT)), headers).then((s) => s.rest()),
      );
      const taskId: string = cut[0]!.json.result.id;
      const resumed = await sim.drive(
        postSse(`${sim.url}/`, rpcEnvelope('tasks/resubscribe', { id: taskId }), {
          'X-Sim-Client': client,
        }).then((s) => s.rest()),
      );
      expect(resumed.at(-1)!.json.result.final).toBe(true);
    }
  }

  it('is advice on a v1.0 binding: the client rebuilt from the snapshot', async () => {
    t = await startSim();
    await resumeWithoutCursor(t, 'v1-client', '1.0');
    const v = verdict(t, 'v1-client', 'resume-cursor');
    expect([v.outcome, v.level]).toEqual(['advice', 'SHOULD']);
    expect(v.source).toContain('A2A #1986');
    expect(verdict(t, 'v1-client', 'no-lost-events').outcome).toBe('pass');
    expect(t.sim.verdicts('v1-client')[0]!.passed).toBe(true);
  });

  it('is a MUST on the v0.3 dialect: afterSeq (seed 002)', async () => {
    t = await startSim();
    await resumeWithoutCursor(t, 'v03-client', '0.3');
    const v = verdict(t, 'v03-client', 'resume-cursor');
    expect([v.outcome, v.level]).toEqual(['fail', 'MUST']);
    expect(t.sim.verdicts('v03-client')[0]!.passed).toBe(false);
  });

  /** The same over v0.3 HTTP+JSON, whose cursor is `Last-Event-ID`: without one, or with the last id seen. */
  async function resumeOverRestV03(sim: TestSim, client: string, withCursor: boolean) {
    const protoSend = {
      message: { messageId: `${client}-1`, role: 'ROLE_USER', content: [{ text: REPORT }] },
    };
    const cut = await sim.drive(
      postSse(`${sim.url}/v1/message:stream`, protoSend, {
        'X-Sim-Client': client,
        ...chaosHeader('drop-after-events=2'),
      }).then((s) => s.rest()),
    );
    const taskId: string = cut[0]!.json.task.id;
    const resumed = await sim.drive(
      getSse(`${sim.url}/v1/tasks/${taskId}:subscribe`, {
        'X-Sim-Client': client,
        ...(withCursor && { 'Last-Event-ID': cut.at(-1)!.id! }),
      }).then((s) => s.rest()),
    );
    expect(resumed.at(-1)!.json.statusUpdate.final).toBe(true);
  }

  it('is a MUST on v0.3 HTTP+JSON too: Last-Event-ID', async () => {
    t = await startSim();
    await resumeOverRestV03(t, 'rest03-bare', false);
    await resumeOverRestV03(t, 'rest03-cursor', true);
    const bare = verdict(t, 'rest03-bare', 'resume-cursor');
    expect([bare.outcome, bare.level]).toEqual(['fail', 'MUST']);
    expect(verdict(t, 'rest03-cursor', 'resume-cursor').outcome).toBe('pass');
    expect(verdict(t, 'rest03-cursor', 'no-lost-events').outcome).toBe('pass');
  });
});

describe('a client that abandons a task after its stream was cut', () => {
  it('is awaited while the task runs, and fails no-lost-events once it has ended', async () => {
    t = await startSim();
    const sim = t;
    const headers = { ...V1_HEADERS, 'X-Sim-Client': 'quitter', ...chaosHeader('drop-after-events=2') };
    const cut = await sim.drive(
      postSse(`${sim.url}/message:stream`, v1Send(REPORT), headers).then((s) => s.rest()),
    );
    const taskId: string = cut[0]!.json.task.id;
    expect(sim.sim.awaitingVerdicts()).toEqual([{ client: 'quitter', taskId }]);
    expect(verdict(sim, 'quitter', 'no-lost-events').outcome).toBe('not exercised');
    // What `a2a-sim exam` does once the client has exited: wait for the task to end, then judge.
    sim.clock.advance(60_000);
    expect(sim.sim.awaitingVerdicts()).toEqual([]);
    expect(verdict(sim, 'quitter', 'no-lost-events').outcome).toBe('fail');
  });
});

describe('a simulator started with judge: false (--no-judge)', () => {
  it('watches no call: its calls, refused or served, leave no verdicts, where the default judges them', async () => {
    const calls = async (sim: TestSim) => {
      const headers = as('watched');
      const body = v1Send('What is the weather today?');
      await sim.drive(callJson(sim.url, 'POST', '/message:send', { body, headers }));
      await sim.drive(postSse(`${sim.url}/message:stream`, v1Send(REPORT), headers).then((s) => s.rest()));
      const refused = await fetch(`${sim.url}/tasks/no-such-task`, { headers });
      expect(refused.status).toBe(404);
      return sim.sim.verdicts().map((v) => v.client);
    };
    t = await startSim();
    expect(await calls(t)).toEqual(['watched']);
    await t.close();
    t = await startSim({ judge: false });
    expect(await calls(t)).toEqual([]);
  });
});
