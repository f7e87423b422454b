/**
 * The request log as a running simulator writes it: JSON lines on stderr (a pipe here), queued and
 * written in batches, and all of them out by the time the process has exited.
 */
import { describe, expect, it } from 'vitest';
import { serve } from '../helpers/cli.js';

const SENDS = 200;

describe('the log on stderr', () => {
  it('has one whole JSON line per request, the last ones written before the process exits', async () => {
    const server = serve(['--port', '0', '--speed', '0', '--log-format', 'json']);
    const url = await server.url;
    for (let i = 0; i < SENDS; i++) {
      const answer = await fetch(`${url}/message:send`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/a2a+json' },
        body: JSON.stringify({
          message: { role: 'ROLE_USER', parts: [{ text: 'hi' }], messageId: `m-${i}` },
        }),
      });
      expect(answer.status).toBe(200);
    }
    // A path no binding serves: its line has no binding, and is still the last one out.
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
    expect(await server.stop()).toBe(0);

    const records = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { request?: number; status?: number; operation?: string });
    const requests = records.filter((r) => r.request !== undefined);
    expect(requests.map((r) => r.request)).toEqual(Array.from({ length: SENDS + 1 }, (_, i) => i + 1));
    expect(requests.slice(0, SENDS).every((r) => r.status === 200)).toBe(true);
    expect(requests.at(-1)).toMatchObject({ status: 404 });
  });
});
