/**
 * Every wait on the agent ends (F6): `timeout` bounds an answer's headers and its body, a call the
 * client abandoned is abandoned upstream too, and a relay or a poll that brings nothing new stops
 * after the relay's idle deadline, failing the task with a message that says why and answering the
 * client's blocking send. The simulators run on a virtual clock: deadlines are reached by moving it.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_IDLE_MS } from '../../src/runtime/proxy-limits.js';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { callJson } from '../helpers/wire.js';
import {
  frame,
  openSse,
  sendJson,
  startHostileAgent,
  userSend,
  v1Card,
  wireTask,
  write,
  type Answer,
  type HostileAgent,
} from '../upstream/hostile-agent.js';

let agent: HostileAgent | undefined;
let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  await agent?.close();
  t = agent = undefined;
});

async function inFrontOf(answer: Answer, streaming: boolean, timeout = '2s') {
  agent = await startHostileAgent({ answer, card: (url) => v1Card(url, { streaming }) });
  t = await startSim({ proxy: { url: agent.url, all: true, timeout } });
  return { agent, t };
}

/** Resolves once `ready` holds, looking after each turn of the event loop (no clock moves). */
function until(ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = () => (ready() ? resolve() : setImmediate(look));
    look();
  });
}

/**
 * Moves the clock only once the agent's first answer has reached the simulator: a virtual clock
 * jumps to the next timer whenever the loop is idle, and real I/O in flight would look idle.
 */
async function driveAfterFirstAnswer<T>(
  s: { agent: HostileAgent; t: TestSim },
  work: Promise<T>,
  sent?: Promise<void>,
) {
  await until(() => s.agent.calls()[0]?.answered() === true || sent !== undefined);
  await sent;
  await flushIo(50);
  return s.t.drive(work);
}

it('timeout bounds the body, not only the headers (F6a)', async () => {
  let started!: () => void;
  const bodyStarted = new Promise<void>((resolve) => (started = resolve));
  const s = await inFrontOf(async (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    await write(res, '{"task": {"id": "slow",');
    started();
    // ...and the rest never comes.
  }, false);
  const call = callJson(s.t, 'POST', '/message:send', { body: userSend('hi') });
  await bodyStarted;
  await flushIo(50);
  const answer = await s.t.drive(call);
  expect(answer.status).toBe(502);
  expect(answer.body.error.message).toMatch(/did not finish its answer within 2000 ms/);
  await s.agent.calls()[0]!.closed;
});

describe('a client that leaves (F6b)', () => {
  it.each([false, true])(
    'abandons the upstream call it was waiting on (streaming %s)',
    async (streaming) => {
      // The agent never answers; nothing moves the clock, so no timeout can end the call either.
      const s = await inFrontOf(() => {}, streaming, '30s');
      const body = JSON.stringify(userSend('hi'));
      const req = request(`${s.t.url}/message:send`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      req.on('error', () => {});
      req.end(body);
      await until(() => s.agent.calls().length > 0);
      req.destroy();
      await s.agent.calls()[0]!.closed;
      expect(s.agent.calls()[0]!.answered()).toBe(false);
      expect((await callJson(s.t, 'GET', '/_sim/health')).status).toBe(200);
    },
    10_000,
  );
});

describe('a task stuck in working', () => {
  it('polled (agent without streaming): polling stops at the idle deadline, the task fails, the send answers (F6d)', async () => {
    const s = await inFrontOf(
      (req, res) => {
        sendJson(res, 200, req.method === 'POST' ? { task: wireTask('stuck') } : wireTask('stuck'));
      },
      false,
      '1h',
    );
    const startedAt = s.t.clock.now();
    const send = callJson(s.t, 'POST', '/message:send', { body: userSend('hi') });
    const answer = await driveAfterFirstAnswer(s, send);
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toMatch(/nothing new from the agent for 5m/);
    expect(s.t.clock.now() - startedAt).toBeGreaterThanOrEqual(RELAY_IDLE_MS);
    const record = s.t.sim.store.find('stuck')!;
    expect(record.status.state).toBe('failed');
    expect(JSON.stringify(record.status.message)).toMatch(/nothing new from the agent/);
    // No poll after the stop, however long the clock runs.
    const polls = s.agent.calls().length;
    s.t.clock.advance(60 * 60_000);
    await flushIo(50);
    expect(s.agent.calls().length).toBe(polls);
  });

  it('streamed, then silent: the relay stops at the idle deadline and lets the stream go', async () => {
    let wrote!: () => void;
    const opened = new Promise<void>((resolve) => (wrote = resolve));
    const s = await inFrontOf(
      async (_req, res) => {
        openSse(res);
        await write(res, frame({ task: wireTask('quiet') }));
        wrote();
      },
      true,
      '1h',
    );
    const send = callJson(s.t, 'POST', '/message:send', { body: userSend('hi') });
    const answer = await driveAfterFirstAnswer(s, send, opened);
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toMatch(/nothing new from the agent for 5m/);
    expect(s.t.sim.store.find('quiet')!.status.state).toBe('failed');
    await s.agent.calls()[0]!.closed;
    expect(s.agent.calls()[0]!.answered()).toBe(false);
  });
});
