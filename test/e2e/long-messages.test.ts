/**
 * A message written to make a scenario's regular expressions backtrack ("Book me a flight" then
 * "from " tens of thousands of times, up to the 4 MiB body limit) once held the event loop for
 * seconds to minutes, and every other client with it. Now it is answered like any other message,
 * and other requests are served while its task runs. Nothing here measures time: the test timeout
 * is only a guard against a regression that would hang.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postJson, V1_HEADERS, v1Send } from '../helpers/wire.js';

/** A blocking v1.0 REST send; the task it answered. */
async function send(sim: TestSim, messageId: string, text: string, taskId?: string): Promise<any> {
  const request = v1Send(text, { messageId, ...(taskId && { taskId }) });
  const answer = await postJson(sim, '/message:send', request, V1_HEADERS);
  expect(answer.status).toBe(200);
  return answer.body.task;
}

const textOf = (message: any): string => message.parts.map((p: any) => p.text ?? '').join('');

describe('a message built to make a regular expression backtrack', () => {
  let sim: TestSim;
  beforeEach(async () => {
    sim = await startSim();
  });
  afterEach(() => sim.close());

  it.each([
    ['40,000 × "from "', 40_000],
    // Just under the 4 MiB body limit, envelope included.
    ['4 MiB of "from "', 838_000],
  ])(
    'books a flight for %s, and answers a weather question meanwhile',
    async (_, repeats) => {
      const hostile = `Book me a flight ${'from '.repeat(repeats)}`;
      const booking = send(sim, 'long-1', hostile);
      const weather = send(sim, 'short-1', 'What is the weather today?');
      const [asked, forecast] = await sim.drive(Promise.all([booking, weather]));

      expect(forecast.status.state).toBe('TASK_STATE_COMPLETED');
      expect(forecast.artifacts[0].name).toBe('Weather Report');
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

      // The follow-up is the hostile text again: the route capture finds no "to" and keeps its defaults.
      const booked = await sim.drive(send(sim, 'long-2', hostile, asked.id));
      expect(booked.status.state).toBe('TASK_STATE_COMPLETED');
      const searching = booked.history.find((m: any) => textOf(m).startsWith('Searching flights'));
      expect(textOf(searching)).toBe('Searching flights from San Francisco to New York...');
      expect(booked.artifacts[0].parts[1].data).toMatchObject({ from: 'San Francisco', to: 'New York' });
    },
    60_000,
  );
});
