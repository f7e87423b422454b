/**
 * What the control plane keeps beside the journal is counted in bytes, not only in entries: the
 * live feed's history (a request's headers are the client's, up to 16 KiB each) and the fault log
 * (a tenant's name is the client's, up to a URL's length). Both stay within their budgets, shown
 * in /_sim/health, however large what clients send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { v1Send } from '../helpers/wire.js';

let t: TestSim;
beforeAll(async () => (t = await startSim({ speed: 0 })));
afterAll(() => t.close());

interface Budget {
  bytes: number;
  maxBytes: number;
}
const memory = async () =>
  (
    (await (await fetch(`${t.url}/_sim/health`)).json()) as {
      memory: { events: Budget & { kept: number }; faults: Budget & { records: number } };
    }
  ).memory;

describe("the feed's history", () => {
  it('keeps what requests with large headers sent within its byte budget', async () => {
    const pad = 'p'.repeat(12 * 1024);
    for (let i = 0; i < 900; i++) {
      const answer = await fetch(`${t.url}/.well-known/agent-card.json`, { headers: { 'x-pad': pad } });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    const { events } = await memory();
    expect(events.bytes).toBeLessThanOrEqual(events.maxBytes);
    // Full, not emptied: the newest requests are kept, fewer of them than its 1,000 events.
    expect(events.bytes).toBeGreaterThan(events.maxBytes - 2 * pad.length);
    expect(events.kept).toBeLessThan(900);
    expect(events.kept).toBeGreaterThan(events.maxBytes / (2 * pad.length));
  });
});

describe('the fault log', () => {
  it("counts a tenant's name in each fault it keeps, within its byte budget", async () => {
    const tenant = 't'.repeat(8 * 1024);
    for (let i = 0; i < 600; i++) {
      const answer = await fetch(`${t.url}/${tenant}/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sim-chaos': 'errors-rate=1' },
        body: JSON.stringify(v1Send('hello', { messageId: `m-${i}` })),
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      await answer.arrayBuffer();
    }
    const { faults } = await memory();
    expect(faults.bytes).toBeLessThanOrEqual(faults.maxBytes);
    expect(faults.bytes).toBeGreaterThan(faults.maxBytes / 2);
    expect(faults.records).toBeLessThan(600);
    const kept = (await (await fetch(`${t.url}/_sim/faults`)).json()) as { faults: { n: number }[] };
    expect(kept.faults.length).toBe(faults.records);
    expect(kept.faults.at(-1)!.n).toBe(600);
  });
});
