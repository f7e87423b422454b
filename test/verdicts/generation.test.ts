/**
 * The `skip-generation` quirk and the get-after-generation-gap rule over the wire, with
 * `--preview generation`: a stream holds one update back, the next shows the gap, and two small
 * clients either read the task with GetTask after it or do not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadCurricula } from '../../src/verdicts/curriculum.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { chaosHeader, getJson, V1_HEADERS, v1Send } from '../helpers/wire.js';
import { dataFrames, faultsOf, framesOf, REPORT_TEXT, settle } from '../chaos/helpers.js';

let t: TestSim;
let running = false;
afterEach(async () => {
  if (running) await t.close();
  running = false;
});

async function start(options: Parameters<typeof startSim>[0]) {
  t = await startSim(options);
  running = true;
}

const SKIP = chaosHeader('quirks=skip-generation');
const as = (client: string) => ({ ...V1_HEADERS, 'X-Sim-Client': client });

/** Streams a report with the quirk; the generations it carried and the task it made. */
async function streamed(client: string) {
  const response = await fetch(`${t.url}/message:stream`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...SKIP, ...as(client) },
    body: JSON.stringify(v1Send(REPORT_TEXT)),
  });
  const frames = dataFrames(framesOf(await settle(t, response.text())));
  const generations = frames.map(
    (f) => f.json.task?.generation ?? f.json.statusUpdate?.generation ?? f.json.artifactUpdate?.generation,
  );
  return { taskId: frames[0]!.json.task.id as string, generations, ids: frames.map((f) => f.id) };
}

function verdictOf(name: string) {
  const [verdicts] = t.sim.verdicts(name);
  return verdicts?.verdicts.find((v) => v.rule === 'get-after-generation-gap');
}

describe('skip-generation', () => {
  it('holds back the first update that is not the last: the next one shows the gap', async () => {
    await start({ preview: ['generation'], keepAlive: 0 });
    const { taskId, generations, ids } = await streamed('watcher');
    expect(generations.slice(0, 2)).toEqual([1, 3]);
    expect(generations.slice(1)).toEqual(generations.slice(1).map((_, i) => 3 + i));
    expect(ids.slice(0, 2)).toEqual(['1', '3']);
    const [fault] = await faultsOf(t, { taskId, kind: 'quirk' });
    expect(fault).toMatchObject({ detail: { quirk: 'skip-generation', generation: 2 }, seq: 2 });
    // Only the connection missed it: the task has every generation.
    const got = await getJson(t, `/tasks/${taskId}`);
    expect(got.body.generation).toBe(generations.at(-1));
  });

  it('is the same on every run with the same seed', async () => {
    await start({ preview: ['generation'], keepAlive: 0, seed: 'fixed' });
    const first = await streamed('a');
    const second = await streamed('b');
    expect(second.generations).toEqual(first.generations);
  });

  it('holds nothing back without --preview generation', async () => {
    await start({ keepAlive: 0 });
    const { taskId, ids } = await streamed('plain');
    expect(ids).toEqual(ids.map((_, i) => String(i + 1)));
    expect(await faultsOf(t, { taskId, kind: 'quirk' })).toEqual([]);
  });
});

describe('get-after-generation-gap', () => {
  it('passes a client that reads the task after the gap, and fails (SHOULD) one that does not', async () => {
    await start({ preview: ['generation'], keepAlive: 0 });
    const careful = await streamed('careful');
    await getJson(t, `/tasks/${careful.taskId}`, as('careful'));
    await streamed('trusting');

    expect(verdictOf('careful')).toMatchObject({ outcome: 'pass', exercised: 1, evidence: [] });
    const trusting = verdictOf('trusting')!;
    expect(trusting).toMatchObject({ level: 'SHOULD', outcome: 'fail', exercised: 1 });
    expect(trusting.source).toMatch(/§3\.2\.7/);
    expect(trusting.evidence[0]!.detail).toMatch(/saw generation 3 right after 1/);
  });

  it('is not exercised on a stream without a gap', async () => {
    await start({ preview: ['generation'], keepAlive: 0 });
    const response = await fetch(`${t.url}/message:stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...as('calm') },
      body: JSON.stringify(v1Send(REPORT_TEXT)),
    });
    await settle(t, response.text());
    expect(verdictOf('calm')).toMatchObject({ outcome: 'not exercised', exercised: 0 });
  });

  it('has a curriculum of its own, outside `all`, that plays the preview', async () => {
    const [curriculum] = await loadCurricula(['generation']);
    expect(curriculum).toMatchObject({
      chaos: 'quirks=skip-generation',
      preview: ['generation'],
      partOfAll: false,
      rules: ['get-after-generation-gap'],
    });
    expect((await loadCurricula(['all'])).map((c) => c.name)).not.toContain('generation');
  });
});
