/**
 * Keeps `npm run bench` working: runs `bench/run.ts --quick --soak --soak-hostile` on a workload of
 * each kind and shape (the others differ from one of these by their numbers only: more streams,
 * more connections) and both soaks (a virtual hour, then four hostile virtual minutes: a few
 * seconds each), and checks that its JSON has each workload with real numbers. It measures
 * nothing: the figures of a quick run beside the other test files say nothing about performance.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'a2a-sim-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Obj = Record<string, unknown>;
const positive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

function runQuickBench(
  jsonFile: string,
  ...flags: string[]
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--quick', ...flags, '--json', jsonFile],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // Its figures say nothing here, and its servers and load take both cores: the test files
    // beside it whose clients' timing is judged (the exams, the client zoo) go first. Not last by
    // far: at niceness 10 beside three other files it got so little that it ran 160-240 s and
    // ended the suite alone.
    if (child.pid !== undefined) setPriority(child.pid, 5);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/**
 * A workload of each family and shape: a REST send and a JSON-RPC one (the v0.3 dialect's body),
 * each SSE scenario of the stream families, the replicas, the heap a send leaves and the machine's
 * round trips. The others differ from one of these by their numbers (connections, streams) or a
 * request body only.
 */
const WORKLOADS = [
  'startup',
  'rest-send-distinct-c64',
  'jsonrpc-v03-send-c64',
  'round-trip',
  'sse-100',
  'sse-chunks-1000',
  'sse-append',
  'replicas-send-c64',
  'send-retained',
];

interface Report {
  workloads: Record<string, Obj>;
  targets: Obj[];
}

// One run for the workloads and both soaks: a run of its own would start tsx and its simulators again.
let report: Report;
beforeAll(async () => {
  const file = join(dir, 'bench.json');
  const { code, output } = await runQuickBench(
    file,
    '--only',
    WORKLOADS.join(','),
    '--soak',
    '--soak-hostile',
  );
  expect(code, output).toBe(0);
  report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  expect(Object.keys(report.workloads).sort()).toEqual([...WORKLOADS, 'soak', 'soak-hostile'].sort());
}, 240_000);

describe('npm run bench -- --quick', () => {
  it('runs a workload of each kind and reports numbers for each', () => {
    const w = Object.fromEntries(
      Object.entries(report.workloads).filter(([name]) => !name.startsWith('soak')),
    );

    const kinds = ['simulator', 'sdk', 'express', 'node'];
    const startup = w.startup!.servers as Record<string, Obj>;
    for (const kind of kinds) {
      expect(positive(startup[kind]!.startupMs), `startup ${kind}`).toBe(true);
      expect(positive(startup[kind]!.idleRssMB), `idle RSS ${kind}`).toBe(true);
    }

    for (const [name, workload] of Object.entries(w)) {
      if (workload.kind === 'http') {
        const servers = workload.servers as Record<string, Obj>;
        for (const kind of kinds) {
          const s = servers[kind]!;
          expect(positive(s.rps), `${name} ${kind} req/s`).toBe(true);
          expect(positive(s.p50Ms) && positive(s.p99Ms), `${name} ${kind} latency`).toBe(true);
          expect(s.non2xx, `${name} ${kind}: failed requests`).toBe(0);
        }
        const ratios = workload.ratios as Obj;
        expect(positive(ratios.rpsSimOverSdk), `${name} ratio`).toBe(true);
        expect(positive(ratios.rpsSimOverNode), `${name} ratio to node`).toBe(true);
      } else if (workload.kind === 'sse') {
        // --quick plays these on the simulator only.
        const sim = (workload.servers as Record<string, Obj>).simulator!;
        expect(sim.failedStreams, `${name}: failed streams`).toBe(0);
        // How many open within the ramp's time is what the bench measures: beside the rest of the
        // suite on two cores, not all of them always do (976 of 1,000 once, in 8 s). A stream that
        // failed is counted above; here, that the count is one.
        expect(Number.isInteger(sim.openedStreams), `${name}: opened streams`).toBe(true);
        expect(sim.openedStreams as number, `${name}: opened streams`).toBeGreaterThan(0);
        expect(sim.openedStreams as number, `${name}: opened streams`).toBeLessThanOrEqual(
          workload.streams as number,
        );
        expect(positive(sim.ticksReceived), `${name}: ticks`).toBe(true);
        expect(positive(sim.lagP50Ms) && positive(sim.lagP99Ms), `${name}: lag`).toBe(true);
        expect(positive(sim.firstEventP50Ms), `${name}: time to first event`).toBe(true);
        expect(Number.isFinite(sim.lagP99Ms), `${name}: lag p99`).toBe(true);
        // RSS growth over a one-second window can be anything after a collection; it must be a number.
        expect(Number.isFinite(sim.rssPerStreamKB), `${name}: RSS per stream`).toBe(true);
        if (workload.scenario === 'bench-chunks') {
          // Artifact updates carry no timestamp: no wire lag or timer fidelity, and no figure made up.
          expect(sim.fidelityP99Ms, `${name}: timing fidelity`).toBeNull();
          expect(sim.fidelityMaxMs, `${name}: timing fidelity, max`).toBeNull();
          expect(sim.wireLagP99Ms, `${name}: wire lag`).toBeNull();
          expect(workload.scenarioTicks, `${name}: chunks in the scenario`).toBe(100);
        } else {
          expect(Number.isFinite(sim.fidelityP99Ms), `${name}: timing fidelity`).toBe(true);
        }
      } else if (workload.kind === 'replicas') {
        // The memory store, then one and two replicas over a real redis-server.
        for (const [setup, s] of Object.entries(workload.setups as Record<string, Obj>)) {
          expect(s.failed, `${name} ${setup}: failed requests or streams`).toBe(0);
          if (name.includes('send')) expect(positive(s.rps), `${name} ${setup} req/s`).toBe(true);
          else expect(positive(s.received), `${name} ${setup}: chunks received`).toBe(true);
        }
      } else if (workload.kind === 'retained') {
        expect(positive(workload.bytesPerSend), `${name}: heap per send`).toBe(true);
        expect((workload.byKind as Obj[]).length, `${name}: kinds of object`).toBeGreaterThan(0);
      } else if (workload.kind === 'round-trip') {
        // The machine's round trips, the server spinning 0, 100 and 200 µs: each at least its spin.
        const points = workload.points as Obj[];
        expect(points.map((p) => p.spinUs)).toEqual([0, 100, 200]);
        for (const point of points) {
          expect(positive(point.roundTrips), `${name}: round trips`).toBe(true);
          expect(point.roundTripUs as number, `${name}: round trip`).toBeGreaterThan(point.spinUs as number);
        }
      } else if (workload.kind === 'stream-cost') {
        // --quick plays these on the simulator only.
        const sim = (workload.servers as Record<string, Obj>).simulator!;
        expect(sim.incompleteStreams, `${name}: streams that did not complete`).toBe(0);
        expect(positive(sim.earlyUsPerEvent) && positive(sim.lateUsPerEvent), `${name}: CPU per event`).toBe(
          true,
        );
        expect(positive(sim.lateOverEarly), `${name}: late ÷ early`).toBe(true);
      }
    }

    // Every target is evaluated (met or not: a quick run says nothing about that). Those against
    // express of sse-chunks-1000 are left out: --quick plays the SSE workloads on the simulator only.
    // The diagnostics (the distinct texts, the heap a send leaves, the round trips) and the replicas
    // have none.
    expect(new Set(report.targets.map((t) => t.workload))).toEqual(
      new Set(['startup', 'jsonrpc-v03-send-c64', 'sse-chunks-1000', 'sse-append']),
    );
    expect(
      report.targets.filter((t) => t.stretch).length,
      'stretch targets of the send workloads',
    ).toBeGreaterThan(0);
    for (const target of report.targets) expect(typeof target.pass, String(target.name)).toBe('boolean');
  });
});

describe('npm run bench -- --soak --soak-hostile --quick', () => {
  it('soaks a virtual hour through both retention limits', () => {
    const soak = report.workloads.soak!;
    expect(soak.errors, JSON.stringify(soak.errorSamples)).toBe(0);
    expect(positive(soak.tasksCreated)).toBe(true);
    const evictions = soak.evictions as Obj;
    expect(positive(evictions.ttl) && positive(evictions.cap), JSON.stringify(evictions)).toBe(true);
    const slope = soak.slope as Obj;
    for (const key of ['rssMBPerHour', 'rssMBPer10kTasks', 'heapMBPerHour', 'heapMBPer10kTasks'])
      expect(Number.isFinite(slope[key]), key).toBe(true);
  });

  it('soaks hostile traffic against small budgets, the ordinary traffic beside it answered', () => {
    const soak = report.workloads['soak-hostile']!;
    const ordinary = soak.ordinary as Obj;
    const hostile = soak.hostile as Obj;
    expect(ordinary.errors, JSON.stringify(ordinary.errorSamples)).toBe(0);
    expect(hostile.errorCount, JSON.stringify(hostile.errors)).toBe(0);
    for (const [name, count] of Object.entries(hostile.actions as Record<string, Obj>))
      expect(positive(count.started), `${name} started`).toBe(true);
    for (const figures of [soak.rssMB, soak.heapUsedMB] as Obj[])
      for (const key of ['start', 'afterWarmup', 'max', 'end'])
        expect(positive(figures[key]), key).toBe(true);
    const slope = soak.slope as Obj;
    for (const key of ['rssMBPerHour', 'rssError', 'heapMBPerHour', 'heapError'])
      expect(Number.isFinite(slope[key]), key).toBe(true);
    const max = (soak.memory as Obj).max as Obj;
    for (const key of ['storeBytes', 'journalBytes', 'verdictBytes', 'eventsKept', 'rssMB'])
      expect(positive(max[key]), key).toBe(true);
    expect(positive((soak.bound as Obj).rssMB)).toBe(true);
  });
});
