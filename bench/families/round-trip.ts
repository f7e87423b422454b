/**
 * round-trip: what one request at a time costs this machine beyond the server's work. A bare
 * node:net server on the server core spins S µs before each answer; the bench, on the load core,
 * sends the next request as soon as the answer is in, and times the round trips for each S.
 *
 * A diagnostic, with no target. On a virtual machine a core that waits for an answer may be
 * descheduled by its host, and waking it then costs more the longer it waited: a round trip is S
 * plus an overhead that grows in steps with S. `rest-send-c1` lives on that staircase, so a
 * server's requests per second at one connection are not proportional to its work per request
 * (BENCHMARKS.md, "What bounds the misses").
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Bench, Workload, WorkloadFamily } from '../lib/family.js';
import { fixed, grouped } from '../lib/format.js';
import { byKind, resultOf, SERVER_CORE, spawnJob, stopChild } from '../lib/procs.js';

export interface RoundTripWorkload extends Workload {
  kind: 'round-trip';
  name: 'round-trip';
}

const ROUND_TRIP: RoundTripWorkload = {
  kind: 'round-trip',
  name: 'round-trip',
  description:
    'diagnostic: one request at a time over loopback TCP, the server spinning S µs before each answer',
};

export interface RoundTripPoint {
  /** How long the server spun before each answer. */
  spinUs: number;
  roundTrips: number;
  /** The mean round trip. */
  roundTripUs: number;
  /** The round trip beyond the spin: the wire, both processes' wake-ups, the client's own work. */
  overheadUs: number;
}

export interface RoundTripResult extends RoundTripWorkload {
  points: RoundTripPoint[];
}

const SPINS_US = [0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 240, 280];
const QUICK_SPINS_US = [0, 100, 200];

/** Round trips one after another on `socket` for `ms`, the server spinning `spinUs` before each. */
function playPoint(socket: Socket, spinUs: number, ms: number): Promise<RoundTripPoint> {
  return new Promise((resolve, reject) => {
    const request = `${spinUs}\n`;
    let roundTrips = 0;
    const startedAt = performance.now();
    const onData = (chunk: Buffer) => {
      // Answers are one byte each; a chunk may hold more than one only if the loop fell behind.
      roundTrips += chunk.length;
      const elapsed = performance.now() - startedAt;
      if (elapsed < ms) {
        socket.write(request);
        return;
      }
      socket.off('data', onData);
      socket.off('error', reject);
      const roundTripUs = (elapsed * 1000) / roundTrips;
      resolve({ spinUs, roundTrips, roundTripUs, overheadUs: roundTripUs - spinUs });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(request);
  });
}

async function roundTripRun(bench: Bench): Promise<RoundTripPoint[]> {
  const server = spawnJob('bench/round-trip-server.ts', {}, { core: SERVER_CORE, pin: bench.pin });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      resultOf<never, { phase: string; port?: number }>(server, 'round-trip server', (message) => {
        if (message.phase === 'listening') resolve(message.port!);
      }).catch(reject);
    });
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const { quick } = bench.settings;
    const points: RoundTripPoint[] = [];
    try {
      for (const spinUs of quick ? QUICK_SPINS_US : SPINS_US) {
        await playPoint(socket, spinUs, quick ? 50 : 200);
        const point = await playPoint(socket, spinUs, quick ? 200 : 1000);
        bench.log(
          `  round-trip, server spinning ${spinUs} µs: ${fixed(point.roundTripUs, 1)} µs a round trip (+${fixed(point.overheadUs, 1)}), ${grouped(point.roundTrips)} round trips`,
        );
        points.push(point);
      }
    } finally {
      socket.destroy();
    }
    return points;
  } finally {
    await stopChild(server);
  }
}

const onlyNode = (cell: string) => byKind((kind) => (kind === 'node' ? cell : '—'));

export const roundTripFamily: WorkloadFamily<RoundTripWorkload, RoundTripPoint[], RoundTripResult> = {
  workloads: () => [ROUND_TRIP],
  run: (_workload, bench) => roundTripRun(bench),
  summarise: (workload, points) => ({ ...workload, points }),
  judge: () => [],
  rows: (_workload, result) => [
    {
      label: 'round-trip: µs a round trip',
      target: '(diagnostic: this machine, node:net)',
      servers: onlyNode('round trip (beyond the spin)'),
    },
    ...result.points.map((point) => ({
      label: `  server spinning ${point.spinUs} µs`,
      target: '',
      servers: onlyNode(`${fixed(point.roundTripUs, 1)} (+${fixed(point.overheadUs, 1)})`),
    })),
  ],
};
