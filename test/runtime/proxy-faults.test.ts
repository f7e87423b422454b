/**
 * An agent that cannot be reached or misbehaves: each failure is a protocol error to the client
 * (InvalidAgentResponse, HTTP 502 on REST, -32006 on JSON-RPC), written in the journal, and the
 * simulator carries on. The agent's answers are real I/O, so these simulators run on real time,
 * except against the agent that never answers: there a virtual clock reaches the timeout at once.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { startSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import {
  startMisbehavingAgent,
  startUpstreamAgent,
  unusedPort,
  type Misbehaviour,
} from '../helpers/upstream-agent.js';
import { callJson, rpcEnvelope } from '../helpers/wire.js';

const message = (text: string) => ({
  message: { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text }] },
});

function expectAgentFault(answer: { status: number; body: any }, why: RegExp) {
  expect(answer.status).toBe(502);
  expect(answer.body.error.details[0].reason).toBe('INVALID_AGENT_RESPONSE');
  expect(answer.body.error.message).toMatch(why);
}

const MODES: [Misbehaviour, RegExp][] = [
  ['invalid-json', /malformed JSON/],
  ['wrong-media-type', /text\/html, not (JSON|an event stream)/],
  ['error-500', /HTTP 500/],
  ['hang', /did not answer within 2000 ms/],
];

/** A simulator in front of `url`: on a virtual clock (driven) for the agent that hangs, else on real time. */
async function inFrontOf(url: string, mode: Misbehaviour | 'gone') {
  if (mode === 'hang') return startSim({ proxy: { url, all: true, timeout: '2s' } });
  const sim = await createSimulator({ port: 0, logLevel: 'silent', proxy: { url, all: true } });
  return { sim, url: sim.url, drive: <T>(work: Promise<T>) => work, close: () => sim.close() };
}

describe.each(MODES)('an agent that answers with %s', (mode, why) => {
  it('is InvalidAgentResponse on REST (502) and JSON-RPC (-32006), journaled; the simulator carries on', async () => {
    const agent = await startMisbehavingAgent(mode);
    const t = await inFrontOf(agent.url, mode);
    try {
      const rest = await t.drive(callJson(t, 'POST', '/message:send', { body: message('hi') }));
      expectAgentFault(rest, why);
      const rpc = await t.drive(
        callJson(t, 'POST', '/', {
          body: rpcEnvelope('SendMessage', message('hi')),
          headers: { 'A2A-Version': '1.0' },
        }),
      );
      expect(rpc.body.error.code).toBe(-32006);
      expect(rpc.body.error.message).toMatch(why);
      const journal = t.sim.journal.list();
      expect(journal.some((entry) => entry.status === 502)).toBe(true);
      expect((await callJson(t, 'GET', '/_sim/health')).status).toBe(200);
    } finally {
      await t.close();
      await agent.close();
    }
  });
});

describe('an agent that cuts its stream mid-event', () => {
  it('ends the client stream with the error after the events that arrived whole', async () => {
    const agent = await startMisbehavingAgent('cut-stream');
    const t = await inFrontOf(agent.url, 'cut-stream');
    try {
      const events = await t.drive(postSse(`${t.url}/message:stream`, message('hi')).then((s) => s.rest()));
      expect(events[0]!.json.task.status.state).toBe('TASK_STATE_SUBMITTED');
      const last = events.at(-1)!.json;
      expect(last.error.details[0].reason).toBe('INVALID_AGENT_RESPONSE');
      expect(last.error.message).toMatch(/could not be followed/);
    } finally {
      await t.close();
      await agent.close();
    }
  });
});

describe('an agent that is gone', () => {
  it('refuses to start when its card cannot be read, naming the URL', async () => {
    const port = await unusedPort();
    await expect(
      createSimulator({ port: 0, logLevel: 'silent', proxy: { url: `http://127.0.0.1:${port}` } }),
    ).rejects.toThrow(
      `Failed to read the agent card at http://127.0.0.1:${port}/.well-known/agent-card.json`,
    );
  });

  it('is InvalidAgentResponse once it stops answering, and the simulator carries on', async () => {
    const agent = await startUpstreamAgent({ stepMs: 0 });
    const t = await inFrontOf(agent.url, 'gone');
    try {
      await agent.close();
      const answer = await callJson(t, 'POST', '/message:send', { body: message('hi') });
      expectAgentFault(answer, /could not reach/);
    } finally {
      await t.close();
    }
  });
});
