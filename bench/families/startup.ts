/**
 * startup: every server spawned afresh, timed from spawn to its first answered message:send, then
 * its RSS after a moment idle. Targets: the simulator answers within 400 ms and idles under 75 MB.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { playRounds, type Bench, type Workload, type WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import { byKind, PLAY_ORDER, rssBytes, startServer, type ServerKind } from '../lib/procs.js';
import { createTask } from '../lib/requests.js';
import { medianOf, round } from '../lib/stats.js';
import { limitTarget } from '../lib/targets.js';

export interface StartupWorkload extends Workload {
  kind: 'startup';
  name: 'startup';
}

const STARTUP: StartupWorkload = {
  kind: 'startup',
  name: 'startup',
  description: 'spawn to first answered message:send; RSS after 1 s idle',
};

const LIMITS = { startupMs: 400, idleRssMB: 75 };

interface StartupRun {
  bannerMs: number;
  startupMs: number;
  idleRssBytes: number | null;
}

async function startupRun(kind: ServerKind, bench: Bench): Promise<StartupRun> {
  const server = await startServer(kind, { pin: bench.pin, nodeFlags: bench.simulatorFlags });
  try {
    // The first answered request: retried, though a server that printed its URL already listens.
    let answeredAt = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        await createTask(server.url);
        answeredAt = performance.now();
        break;
      } catch (error) {
        if (attempt > 200) throw error;
        await sleep(5);
      }
    }
    await sleep(bench.settings.idleSettleMs);
    return {
      bannerMs: server.bannerMs,
      startupMs: answeredAt - server.spawnedAt,
      idleRssBytes: rssBytes(server.pid) ?? null,
    };
  } finally {
    await server.stop();
  }
}

const idleRssMB = (run: StartupRun) => (run.idleRssBytes ?? Number.NaN) / 2 ** 20;

function summarise(workload: StartupWorkload, runs: Partial<Record<ServerKind, StartupRun[]>>) {
  const servers = byKind((kind) => {
    const mine = runs[kind] ?? [];
    return {
      startupMs: medianOf(mine, (r) => r.startupMs, 1),
      bannerMs: medianOf(mine, (r) => r.bannerMs, 1),
      idleRssMB: medianOf(mine, idleRssMB, 1),
      runs: mine.map((r) => ({ ...r, startupMs: round(r.startupMs, 1), bannerMs: round(r.bannerMs, 1) })),
    };
  });
  return { kind: workload.kind, description: workload.description, servers };
}

export const startupFamily: WorkloadFamily<
  StartupWorkload,
  Partial<Record<ServerKind, StartupRun[]>>,
  ReturnType<typeof summarise>
> = {
  workloads: () => [STARTUP],
  run: (workload, bench) =>
    playRounds(
      bench,
      workload.name,
      PLAY_ORDER,
      bench.settings.startupRepeats,
      (kind) => startupRun(kind, bench),
      (run) => `${fixed(run.startupMs)} ms, idle RSS ${fixed(idleRssMB(run), 1)} MB`,
    ),
  summarise,
  judge: (workload, { servers: { simulator } }) => [
    limitTarget(workload.name, 'simulator startup to first answer (ms)', simulator.startupMs, {
      atMost: LIMITS.startupMs,
    }),
    limitTarget(workload.name, 'simulator idle RSS (MB)', simulator.idleRssMB, { atMost: LIMITS.idleRssMB }),
  ],
  rows: (_workload, { servers }, met) => [
    {
      label: 'startup, idle RSS',
      target: `≤${LIMITS.startupMs} ms, ≤${LIMITS.idleRssMB} MB`,
      servers: byKind(
        (kind) => `${grouped(servers[kind].startupMs)} ms, ${grouped(servers[kind].idleRssMB, 1)} MB`,
      ),
      met,
    },
  ],
};
