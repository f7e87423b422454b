/**
 * What the simulator reads of a hostile agent is bounded: a body past 8 MiB, an SSE event or line
 * past 1 MiB, JSON nested deeper than the simulator accepts from its own clients, or more artifacts
 * than a task may hold is InvalidAgentResponseError (HTTP 502), the connection to the agent is let
 * go, and no task is left stranded. The simulators here run on real time: nothing they do is timed.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { MAX_JSON_DEPTH } from '../../src/bindings/shared/http.js';
import {
  MAX_AGENT_BODY_BYTES,
  MAX_AGENT_EVENT_BYTES,
  MAX_AGENT_LIST_LENGTH,
} from '../../src/upstream/limits.js';
import { callJson } from '../helpers/wire.js';
import {
  frame,
  openSse,
  sendJson,
  startHostileAgent,
  userSend,
  v1Card,
  wireStatus,
  wireTask,
  write,
  type Answer,
  type HostileAgent,
} from './hostile-agent.js';

const MiB = 1024 * 1024;

let agent: HostileAgent | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  await agent?.close();
  sim = agent = undefined;
});

async function inFrontOf(answer: Answer, streaming: boolean) {
  agent = await startHostileAgent({ answer, card: (url) => v1Card(url, { streaming }) });
  sim = await createSimulator({ port: 0, logLevel: 'silent', proxy: { url: agent.url, all: true } });
  return { agent, sim };
}

function expectAgentFault(answer: { status: number; body: any }, why: RegExp) {
  expect(answer.status).toBe(502);
  expect(answer.body.error.details[0].reason).toBe('INVALID_AGENT_RESPONSE');
  expect(answer.body.error.message).toMatch(why);
}

const proxiedStates = (s: Simulator) =>
  [...s.store.all()].filter((r) => r.scenarioId === '(proxied)').map((r) => r.status.state);

describe('an SSE event that never ends (F5a)', () => {
  it('is refused past 1 MiB on one line, and the stream is let go', async () => {
    const t = await inFrontOf(async (_req, res) => {
      openSse(res);
      await write(res, 'data: ');
      // Two MiB and no end of line, then silence: the simulator must not wait for the rest.
      for (let i = 0; i < 32; i++) if (!(await write(res, 'x'.repeat(64 * 1024)))) return;
    }, true);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`line longer than ${MAX_AGENT_EVENT_BYTES} bytes`));
    await t.agent.calls()[0]!.closed;
    expect(t.agent.calls()[0]!.answered()).toBe(false);
  }, 15_000);

  it('is refused past 1 MiB of data lines without the blank line that ends an event', async () => {
    const t = await inFrontOf(async (_req, res) => {
      openSse(res);
      for (let i = 0; i < 40; i++) if (!(await write(res, `data: ${'y'.repeat(64 * 1024)}\n`))) return;
    }, true);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`event larger than ${MAX_AGENT_EVENT_BYTES} bytes`));
    await t.agent.calls()[0]!.closed;
  }, 15_000);
});

describe('a body past the limit (F5b)', () => {
  const hugeTask = () => ({
    task: wireTask('big', 'TASK_STATE_COMPLETED', {
      artifacts: [{ artifactId: 'a', parts: [{ text: 'x'.repeat(MAX_AGENT_BODY_BYTES + MiB) }] }],
    }),
  });

  it('is refused when its Content-Length says so, before it is read', async () => {
    const t = await inFrontOf((_req, res) => sendJson(res, 200, hugeTask()), false);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`body larger than ${MAX_AGENT_BODY_BYTES} bytes`));
    expect(proxiedStates(t.sim)).toEqual([]);
  }, 15_000);

  it('is refused as it arrives when no length is declared, and the agent is let go', async () => {
    const t = await inFrontOf(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const opening = JSON.stringify(hugeTask()).split('xxxx')[0]!;
      if (!(await write(res, opening))) return;
      // Far more than any socket buffer holds: the agent can only finish if all of it is read.
      for (let i = 0; i < 256; i++) if (!(await write(res, 'x'.repeat(256 * 1024)))) return;
      res.end('"}]}]}}');
    }, false);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`body larger than ${MAX_AGENT_BODY_BYTES} bytes`));
    await t.agent.calls()[0]!.closed;
    expect(t.agent.calls()[0]!.answered()).toBe(false);
  }, 15_000);
});

describe('an answer nested 100k levels deep (F9a)', () => {
  const DEPTH = 100_000;
  const deepTask = (id: string) =>
    `{"task":{"id":"${id}","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"metadata":` +
    `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}}`;

  it('is a 502 InvalidAgentResponse naming the depth limit, and makes no task', async () => {
    const t = await inFrontOf((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(deepTask('deep'));
    }, false);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    expect(proxiedStates(t.sim)).toEqual([]);
  });

  it('mid-stream, fails the task rather than leaving it submitted', async () => {
    const t = await inFrontOf(async (req, res) => {
      if (req.method === 'GET') return sendJson(res, 200, wireTask('deep-2', 'TASK_STATE_SUBMITTED'));
      openSse(res);
      await write(res, frame({ task: wireTask('deep-2', 'TASK_STATE_SUBMITTED') }));
      await write(res, `data: ${deepTask('deep-2').replace('"task"', '"statusUpdate"')}\n\n`);
    }, true);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    expect(proxiedStates(t.sim)).toEqual(['failed']);
    const task = (await callJson(t.sim, 'GET', '/tasks/deep-2')).body;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(JSON.stringify(task.status.message)).toMatch(/nested deeper/);
  });
});

describe('an answer with 50k artifacts (F9b)', () => {
  it('is refused past the list limit without stalling the event loop', async () => {
    const artifacts = Array.from({ length: 50_000 }, (_, i) => ({
      artifactId: `a-${i}`,
      parts: [{ text: 'x' }],
    }));
    const t = await inFrontOf(
      (_req, res) => sendJson(res, 200, { task: wireTask('many', 'TASK_STATE_COMPLETED', { artifacts }) }),
      false,
    );
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    delay.disable();
    expectAgentFault(answer, new RegExp(`more than ${MAX_AGENT_LIST_LENGTH} items`));
    // The whole answer (parse, depth check, refusal) is one short turn; the quadratic merge took seconds.
    expect(delay.max / 1e6).toBeLessThan(1000);
  });

  it('streamed one by one, stops the relay at the cap and fails the task', async () => {
    const t = await inFrontOf(async (_req, res) => {
      openSse(res);
      await write(res, frame({ task: wireTask('drip', 'TASK_STATE_WORKING') }));
      for (let i = 0; i < MAX_AGENT_LIST_LENGTH + 50; i++) {
        const update = {
          artifactUpdate: {
            taskId: 'drip',
            contextId: 'ctx-drip',
            artifact: { artifactId: `a-${i}`, parts: [{ text: 'x' }] },
          },
        };
        if (!(await write(res, frame(update)))) return;
      }
      await write(res, frame(wireStatus('drip', 'TASK_STATE_COMPLETED')));
      res.end();
    }, true);
    const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('hi') });
    expectAgentFault(answer, new RegExp(`more than ${MAX_AGENT_LIST_LENGTH} artifacts`));
    const record = t.sim.store.find('drip')!;
    expect(record.status.state).toBe('failed');
    expect(record.task.artifacts.length).toBeLessThanOrEqual(MAX_AGENT_LIST_LENGTH);
  });
});
