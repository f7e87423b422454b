/**
 * Where chaos comes from: the global setting (`createSimulator({ chaos })`, a name, pairs or a
 * `*.chaos.yaml` path), a scenario's `chaos:`, `metadata.chaos` and the `X-Sim-Chaos` header,
 * overlaid field by field in that order, later levels winning; `off` clears the levels below it.
 */
import { atLine } from '../helpers/issues.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, startSimWith, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { chaosHeader as chaos, getJson, v1Send } from '../helpers/wire.js';
import { faultsOf, REPORT_TEXT, settle } from './helpers.js';

describe('global and scenario chaos settings', () => {
  it('createSimulator refuses an unknown global profile or bad syntax instead of running without chaos', async () => {
    await expect(startSim({ chaos: 'no-such-profile' })).rejects.toThrow(
      /no chaos profile "no-such-profile"/,
    );
    await expect(startSim({ chaos: 'drop-mode=explode' })).rejects.toThrow(/"drop-mode" must be one of/);
  });

  it('skips a scenario whose chaos: cannot be read, naming the file, the line and the problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-sim-chaos-bad-'));
    await writeFile(
      join(dir, 'shaky.yaml'),
      'description: Meets chaos it cannot name.\nmatch: [{ keywords: [shaky] }]\nchaos: drop-mode=explode\nsteps:\n  - status: completed\n',
    );
    const g = await startSim({ scenarioDirs: [dir] });
    try {
      expect(g.sim.issues.map(atLine)).toEqual([
        expect.stringMatching(/shaky\.yaml:3 chaos: "drop-mode" must be one of fin, reset, hang/),
      ]);
      expect(g.sim.scenarios().find((s) => s.id === 'shaky')).toBeUndefined();
    } finally {
      await g.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a *.chaos.yaml path as the global setting applies that file to every call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-sim-chaos-file-'));
    const file = join(dir, 'cut-two.chaos.yaml');
    await writeFile(file, 'drop:\n  afterEvents: 2\n');
    const g = await startSim({ chaos: file, keepAlive: 0 });
    try {
      const reader = await postSse(`${g.url}/message:stream`, v1Send(REPORT_TEXT, { messageId: 'file-1' }));
      expect((await settle(g, reader.rest())).map((e) => e.id)).toEqual(['1', '2']);
      expect(await faultsOf(g)).toMatchObject([{ kind: 'drop', seq: 2, profile: 'global' }]);
    } finally {
      await g.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('precedence: header > metadata.chaos > scenario chaos > global --chaos; off clears the levels below', () => {
  let p: TestSim;
  beforeAll(async () => {
    p = await startSimWith(
      {
        'countdown.yaml': [
          'description: A short countdown that meets chaos of its own.',
          'match:',
          '  - keywords: [countdown]',
          'chaos: drop-after-events=3',
          'steps:',
          '  - status: working',
          '    after: 100ms',
          '  - artifact:',
          '      name: Countdown',
          '      every: 100ms',
          '      chunks: ["5", "4", "3", "2", "1"]',
          '  - status: completed',
          '    after: 100ms',
          '',
        ].join('\n'),
        'echo-twice.chaos.yaml': 'description: Every event twice.\nduplicate:\n  probability: 1\n',
        'too-many.chaos.yaml':
          'description: Rate limited, but only when asked.\nerrors:\n  kind: "429"\n  rate: 0\n  retryAfter: 3s\n',
      },
      { chaos: 'drop-after-events=5', keepAlive: 0 },
    );
  });
  afterAll(() => p.close());

  let sent = 0;
  /** Streams a message; what the client read, how it ended, and the faults of its task. */
  async function run(text: string, headers: Record<string, string>, metadataChaos?: string) {
    const request = v1Send(text, {
      messageId: `m-${++sent}`,
      ...(metadataChaos && { metadata: { chaos: metadataChaos } }),
    });
    const reader = await postSse(`${p.url}/message:stream`, request, headers);
    const events: string[] = [];
    let taskId: string | undefined;
    let failed = false;
    await settle(
      p,
      (async () => {
        for (let e = await reader.next(); e; e = await reader.next()) {
          events.push(e.id!);
          taskId ??= e.json.task.id;
        }
      })().catch(() => (failed = true)),
    );
    return { events, failed, faults: await faultsOf(p, { taskId: taskId! }) };
  }

  const COUNTDOWN = 'Start the countdown';
  const ALL = 8; // submitted, working, five chunks, completed

  it.each([
    { what: 'global alone', text: REPORT_TEXT, headers: {}, meta: undefined, events: 5, profile: 'global' },
    {
      what: 'scenario over global',
      text: COUNTDOWN,
      headers: {},
      meta: undefined,
      events: 3,
      profile: 'global+scenario',
    },
    {
      what: 'metadata over scenario',
      text: COUNTDOWN,
      headers: {},
      meta: 'drop-after-events=2',
      events: 2,
      profile: 'global+scenario+metadata',
    },
    {
      what: 'header over metadata',
      text: COUNTDOWN,
      headers: chaos('drop-after-events=1'),
      meta: 'drop-after-events=2',
      events: 1,
      profile: 'global+scenario+metadata+header',
    },
    {
      what: 'header off clears every level',
      text: COUNTDOWN,
      headers: chaos('off'),
      meta: 'drop-after-events=2',
      events: ALL,
      profile: undefined,
    },
    {
      what: 'metadata off clears scenario and global',
      text: COUNTDOWN,
      headers: {},
      meta: 'off',
      events: ALL,
      profile: undefined,
    },
    {
      what: 'off, then the header’s own settings',
      text: COUNTDOWN,
      headers: chaos('off, drop-after-events=4'),
      meta: undefined,
      events: 4,
      profile: 'header',
    },
  ])('$what: the stream is cut after $events events', async (c) => {
    const { events, failed, faults } = await run(c.text, c.headers, c.meta);
    expect(failed).toBe(false);
    expect(events).toEqual(Array.from({ length: c.events }, (_, i) => String(i + 1)));
    if (c.profile === undefined) expect(faults).toEqual([]);
    else expect(faults).toMatchObject([{ kind: 'drop', seq: c.events, profile: c.profile }]);
  });

  it('levels overlay field by field: the header’s drop-mode with the scenario’s drop-after-events', async () => {
    const { events, failed, faults } = await run(COUNTDOWN, chaos('drop-mode=reset'));
    expect(faults).toMatchObject([
      { kind: 'drop', seq: 3, detail: { mode: 'reset' }, profile: 'global+scenario+header' },
    ]);
    expect(failed).toBe(true);
    expect(events.length).toBeLessThanOrEqual(3);
  });

  it('a profile file beside the scenarios is a named profile, overlaid on the levels below', async () => {
    const { events, faults } = await run(COUNTDOWN, chaos('echo-twice'));
    expect(events).toEqual(['1', '1', '2', '2', '3', '3']);
    expect(faults.map((f) => [f.kind, f.seq, f.profile])).toEqual([
      ['duplicate', 1, 'global+scenario+echo-twice'],
      ['duplicate', 2, 'global+scenario+echo-twice'],
      ['duplicate', 3, 'global+scenario+echo-twice'],
      ['drop', 3, 'global+scenario+echo-twice'],
    ]);
  });

  it('a key after a profile name changes only its own field: `too-many, errors-rate=1` is the profile’s 429', async () => {
    const response = await getJson(p, '/tasks', chaos('too-many, errors-rate=1'));
    expect([response.status, response.headers.get('retry-after')]).toEqual([429, '3']);
  });

  it('`duplicate-storm, duplicate-late-by=1` keeps the profile’s probability and only makes the copies late', async () => {
    const { events, faults } = await run(REPORT_TEXT, chaos('off, duplicate-storm, duplicate-late-by=1'));
    const originals = new Set(events).size;
    const copies = faults.filter((f) => f.kind === 'duplicate');
    expect(copies.every((f) => f.detail.lateBy === 1)).toBe(true);
    expect(copies.length).toBeGreaterThan(0);
    expect(copies.length).toBeLessThan(originals); // probability 0.5, not 1
  });
});
