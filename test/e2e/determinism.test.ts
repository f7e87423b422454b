/**
 * Same seed, same requests → byte-identical transcripts (virtual clock): ids, content, timings and
 * timestamps. A different seed changes them; an unrelated task running meanwhile does not.
 */
import { expect, it } from 'vitest';
import { startSim, type TestSim } from '../helpers/sim.js';
import { callJson, getJson, postForStream, postJson, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';

const body = (text: string, extra: Record<string, unknown> = {}) =>
  v1Send(text, { messageId: `m-${text.length}`, ...extra });

/**
 * The raw bytes of one turn. A stream's headers come with its first event, before any time passes,
 * so the request reaches the server at the current virtual time; only then is the clock driven.
 */
async function streamed(t: TestSim, path: string, payload: unknown): Promise<string> {
  const response = await postForStream(t, path, payload);
  return t.drive(response.text());
}

async function answered(t: TestSim, path: string, payload: unknown): Promise<string> {
  return (await t.drive(postJson(t, path, payload))).text;
}

async function transcript(seed: string, prelude?: (t: TestSim) => Promise<void>): Promise<string[]> {
  const t = await startSim({ seed });
  try {
    await prelude?.(t);
    const out: string[] = [];
    out.push(await streamed(t, '/message:stream', body('What is the weather today?')));

    const flight = await streamed(t, '/message:stream', body('Book me a flight'));
    out.push(flight);
    const taskId = /"task":\{"id":"([^"]+)"/.exec(flight)![1]!;
    out.push(await streamed(t, '/message:stream', body('From Lisbon to Oslo', { taskId })));

    // A blocking send, and a Message reply whose headers wait for it: both need time to pass in flight.
    out.push(await answered(t, '/message:send', body('Please fail this task')));
    out.push(await answered(t, '/message:stream', body('Hello')));

    // A cancel 5 s into the long report: the cancel delay is seeded too.
    const response = await postForStream(t, '/message:stream', body('Write a long report on climate change'));
    const text = response.text();
    t.clock.advance(5_000);
    const reportId = (await t.drive(getJson(t, '/tasks?pageSize=1'))).body.tasks[0].id as string;
    out.push((await callJson(t, 'POST', `/tasks/${reportId}:cancel`)).text);
    out.push(await t.drive(text));
    return out;
  } finally {
    await t.close();
  }
}

it('gives byte-identical transcripts for the same seed and requests', async () => {
  const [a, b] = [await transcript('seed-one'), await transcript('seed-one')];
  expect(a.length).toBe(7);
  expect(a.join('').length).toBeGreaterThan(3000);
  expect(b).toEqual(a);
});

it('gives different ids and content for a different seed', async () => {
  const [a, c] = [await transcript('seed-one'), await transcript('seed-two')];
  expect(c[0]).not.toEqual(a[0]);
  const idsOf = (s: string) =>
    new Set(s.match(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g));
  const shared = [...idsOf(a.join(''))].filter((id) => idsOf(c.join('')).has(id));
  expect(shared).toEqual([]);
});

it("keeps a task's ids and content independent of other tasks running meanwhile", async () => {
  const alone = await transcript('seed-one');
  const busy = await transcript('seed-one', async (t) => {
    // Another client's long task, started first and still running throughout.
    await postJson(
      t,
      '/message:send',
      v1Send('Another long report on climate, please', { messageId: 'other' }, RETURN_IMMEDIATELY),
    );
  });
  expect(busy[0]).toEqual(alone[0]);
  expect(busy[1]).toEqual(alone[1]);
});

it('gives a tenant the same task for the same request whether or not another tenant asked first', async () => {
  // Everything but the status time, which is when the clock got there.
  const taskOf = async (t: TestSim, tenant: string) =>
    JSON.parse(
      await answered(t, `/${tenant}/message:send`, body('What is the weather today?')),
      (key, value) => (key === 'timestamp' ? undefined : value),
    ).task;
  const alone = await startSim({ seed: 'tenants' });
  const after = await startSim({ seed: 'tenants' });
  try {
    await taskOf(after, 'acme');
    const [first, second] = [await taskOf(alone, 'globex'), await taskOf(after, 'globex')];
    expect(second).toEqual(first);
  } finally {
    await Promise.all([alone.close(), after.close()]);
  }
});
