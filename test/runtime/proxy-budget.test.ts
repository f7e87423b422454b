/**
 * What an agent streams counts against the store's byte budget (`maxStoreBytes`) exactly as a
 * scripted task's events do (F5c): a relay that would go past it stops, the connection to the agent
 * is let go, the task is marked failed (so it ends and can make room), and the client waiting on
 * the turn gets the store's 429 ResourceExhausted. Other clients are served again at once (F6c).
 * Real time: nothing here is timed.
 */
import { afterEach, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/index.js';
import { callJson } from '../helpers/wire.js';
import {
  frame,
  openSse,
  startHostileAgent,
  userSend,
  wireStatus,
  wireTask,
  write,
  type HostileAgent,
} from '../upstream/hostile-agent.js';

const KiB = 1024;
const BUDGET = 512 * KiB;
/** The failed status that ends a stopped relay is let in past the budget; it is small. */
const ALLOWANCE = 2 * KiB;
const CHUNK = 'z'.repeat(64 * KiB);

let agent: HostileAgent | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  await agent?.close();
  sim = agent = undefined;
});

/** An agent that streams 64 KiB chunks of one artifact, `chunks` of them (or until let go), then completes. */
async function chunkingAgent(chunks: number) {
  const sent = { chunks: 0 };
  agent = await startHostileAgent({
    answer: async (_req, res) => {
      openSse(res);
      await write(res, frame({ task: wireTask('flood', 'TASK_STATE_WORKING') }));
      for (; sent.chunks < chunks; sent.chunks++) {
        const update = {
          artifactUpdate: {
            taskId: 'flood',
            contextId: 'ctx-flood',
            artifact: { artifactId: 'report', parts: [{ text: CHUNK }] },
            append: sent.chunks > 0,
          },
        };
        if (!(await write(res, frame(update)))) return;
      }
      await write(res, frame(wireStatus('flood', 'TASK_STATE_COMPLETED')));
      res.end();
    },
  });
  sim = await createSimulator({
    port: 0,
    logLevel: 'silent',
    speed: 0,
    retention: { maxStoreBytes: BUDGET },
    proxy: { url: agent.url },
  });
  return { agent, sim, sent };
}

it('relayed events count against the store budget: the relay stops at it (F5c)', async () => {
  const t = await chunkingAgent(64);
  const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('Write it all down') });
  expect(answer.status).toBe(429);
  expect(answer.body.error.details[0].reason).toBe('STORE_FULL');
  expect(answer.body.error.message).toMatch(/Failed to relay task flood/);
  expect(t.sim.store.bytes).toBeLessThanOrEqual(BUDGET + ALLOWANCE);
  const record = t.sim.store.find('flood')!;
  expect(record.status.state).toBe('failed');
  expect(JSON.stringify(record.status.message)).toMatch(/max-store-bytes/);
  await t.agent.calls()[0]!.closed;
  expect(t.sent.chunks).toBeLessThan(64);
});

it('a relay that never ends is stopped, and the next client is served, not refused (F6c)', async () => {
  const t = await chunkingAgent(Number.MAX_SAFE_INTEGER);
  const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend('Never stop') });
  expect(answer.status).toBe(429);
  await t.agent.calls()[0]!.closed;
  expect(t.agent.calls()[0]!.answered()).toBe(false);
  // The stopped task has ended: it makes room for the next message instead of refusing it.
  const next = await callJson(t.sim, 'POST', '/message:send', {
    body: userSend('What is the weather today?'),
  });
  expect(next.status).toBe(200);
  expect(next.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(t.sim.store.bytes).toBeLessThanOrEqual(BUDGET + ALLOWANCE);
});

it('a client over the budget is refused before its message reaches the agent', async () => {
  const t = await chunkingAgent(0);
  const big = 'q'.repeat(BUDGET + KiB);
  const answer = await callJson(t.sim, 'POST', '/message:send', { body: userSend(big) });
  expect(answer.status).toBe(429);
  expect(t.agent.calls()).toEqual([]);
});
