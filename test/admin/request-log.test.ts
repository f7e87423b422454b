/**
 * A log line per request, written when the response is done: a send, a stream (at its end), a
 * request chaos cut, a request for another agent; in the JSON format a log shipper reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { chaosHeader, getJson, postJson, rpcStream, v1Send, V1_HEADERS } from '../helpers/wire.js';

interface Line {
  level: string;
  time: number;
  msg: string;
  request: number;
  binding?: string;
  operation?: string;
  agent?: string;
  taskId?: string;
  scenario?: string;
  status: number;
  durationMs: number;
  streamed?: boolean;
  faults?: number[];
}

const lines: string[] = [];
let t: TestSim;
beforeAll(async () => {
  t = await startSim({
    logger: createLogger({ level: 'info', format: 'json', write: (line) => lines.push(line) }),
  });
});
afterAll(() => t.close());

/** The request lines logged since `from`, parsed. */
const requestLines = (from: number) =>
  lines
    .slice(from)
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.request !== undefined);

/** Waits (a loop turn at a time, no wall clock) until `count` request lines are logged since `from`. */
async function logged(from: number, count: number): Promise<Line[]> {
  for (let turn = 0; turn < 1000 && requestLines(from).length < count; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return requestLines(from);
}

describe('the request log', () => {
  it('logs a send once its answer is out: binding, operation, task, scenario, status, duration', async () => {
    const from = lines.length;
    const answer = await t.drive(
      postJson(t, '/message:send', v1Send('What is the weather today?'), V1_HEADERS),
    );
    expect(answer.status).toBe(200);
    const [line] = await logged(from, 1);
    expect(line).toMatchObject({
      level: 'info',
      msg: expect.stringMatching(/^POST \/message:send 200 in \d+ ms$/),
      binding: 'REST',
      operation: 'POST /message:send',
      taskId: answer.body.task.id,
      scenario: 'weather',
      status: 200,
    });
    expect(line!.durationMs).toBeGreaterThanOrEqual(0);
    expect(line!.time).toBeTypeOf('number');
  });

  it('logs a stream when it ends, as a stream', async () => {
    const from = lines.length;
    const stream = await t.drive(
      rpcStream(t, 'SendStreamingMessage', v1Send('What is the weather today?'), { headers: V1_HEADERS }),
    );
    const events = await t.drive(stream.rest());
    const [line] = await logged(from, 1);
    expect(line).toMatchObject({
      msg: expect.stringMatching(/^POST \/ 200, stream ended after \d+ ms$/),
      binding: 'JSON-RPC 1.0',
      operation: 'SendStreamingMessage',
      streamed: true,
      scenario: 'weather',
      taskId: (events[0]!.json as { result: { task: { id: string } } }).result.task.id,
    });
  });

  it('names the faults chaos applied to a request, and the status it answered with', async () => {
    const from = lines.length;
    const answer = await t.drive(
      postJson(t, '/message:send', v1Send('Hi'), { ...V1_HEADERS, ...chaosHeader('errors-rate=1') }),
    );
    expect(answer.status).toBe(503);
    const [line] = await logged(from, 1);
    expect(line).toMatchObject({
      status: 503,
      msg: expect.stringMatching(/^POST \/message:send 503 in \d+ ms$/),
    });
    expect(line!.faults).toEqual([t.sim.faults.list().at(-1)!.n]);
  });

  it('logs a request chaos closed without an answer as such', async () => {
    const from = lines.length;
    const headers = { ...V1_HEADERS, ...chaosHeader('errors-rate=1,errors-kind=reset') };
    await expect(t.drive(postJson(t, '/message:send', v1Send('Hi'), headers))).rejects.toThrow();
    const [line] = await logged(from, 1);
    expect(line).toMatchObject({
      status: 0,
      msg: expect.stringMatching(/^POST \/message:send closed without an answer after \d+ ms$/),
    });
    expect(line!.faults).toHaveLength(1);
  });

  it('logs a request for another agent, and one no binding could read', async () => {
    const from = lines.length;
    await t.drive(getJson(t, '/agents/nobody/.well-known/agent-card.json'));
    const [line] = await logged(from, 1);
    expect(line).toMatchObject({
      status: 404,
      msg: 'GET /agents/nobody/.well-known/agent-card.json 404 in 0 ms',
    });
    expect(line).not.toHaveProperty('taskId');

    const before = lines.length;
    const garbled = await t.drive(postJson(t, '/message:send', '{"message": ', V1_HEADERS));
    expect(garbled.status).toBe(400);
    const [unread] = await logged(before, 1);
    expect(unread).toMatchObject({ status: 400, msg: 'POST /message:send 400 in 0 ms' });
    expect(unread).not.toHaveProperty('taskId');
    expect(unread).not.toHaveProperty('scenario');
  });
});
