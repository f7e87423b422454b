/**
 * The request log as a running simulator writes it: JSON lines on stderr (a pipe here), queued and
 * written in batches while the server works, and all of them out, in the order they were logged, by
 * the time the process has exited.
 */
import { describe, expect, it } from 'vitest';
import { serve } from '../helpers/cli.js';

const CLIENTS = 16;
const SENDS_EACH = 50;

describe('the log on stderr', () => {
  it('has one whole JSON line per request, in order, the last ones written before the process exits', async () => {
    const server = serve(['--port', '0', '--speed', '0', '--log-format', 'json']);
    const url = await server.url;
    const send = async (client: number, i: number) => {
      const answer = await fetch(`${url}/message:send`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/a2a+json' },
        body: JSON.stringify({
          message: { role: 'ROLE_USER', parts: [{ text: 'hi' }], messageId: `m-${client}-${i}` },
        }),
      });
      expect(answer.status).toBe(200);
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < SENDS_EACH; i++) await send(client, i);
      }),
    );
    // A path no binding serves: its line has no binding, and is the last one logged.
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
    // Stopped at once: the lines of the last requests are still queued, or being written.
    expect(await server.stop()).toBe(0);

    const records = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { request?: number; status?: number; time: number });
    const requests = records.filter((r) => r.request !== undefined);
    const total = CLIENTS * SENDS_EACH + 1;
    expect(requests.map((r) => r.request).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    );
    expect(requests.at(-1)).toMatchObject({ request: total, status: 404 });
    // Written in the order logged: a batch that overtook one still being written would go back in time.
    const times = records.map((r) => r.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
