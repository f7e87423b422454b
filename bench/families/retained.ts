/**
 * send-retained: the heap a REST `message:send` leaves behind in the simulator, per send, after
 * `gc()`, in all and by kind of object (bench/retained-process.ts does the work). A diagnostic,
 * with no target: what each send leaves is what a busy simulator promotes out of the young
 * generation and marks, so it moves a send's CPU cost (BENCHMARKS.md, run K). The simulator alone:
 * the comparators keep one small object per task.
 */
import type { RetainedResult } from '../retained-process.js';
import type { Bench, Workload, WorkloadFamily } from '../lib/family.js';
import { grouped } from '../lib/format.js';
import { byKind, resultOf, SERVER_CORE, spawnJob, stopChild } from '../lib/procs.js';

export interface RetainedWorkload extends Workload {
  kind: 'retained';
  name: 'send-retained';
}

const SEND_RETAINED: RetainedWorkload = {
  kind: 'retained',
  name: 'send-retained',
  description: 'heap left per REST message:send (weather), after gc(), by kind of object',
};

/** The kinds shown in the table, beside the total. */
const TABLE_KINDS = 6;

async function retainedRun(bench: Bench): Promise<RetainedResult> {
  const job = bench.settings.quick ? { warmup: 50, sends: 100 } : { warmup: 2_000, sends: 2_000 };
  const child = spawnJob('bench/retained-process.ts', job, {
    core: SERVER_CORE,
    pin: bench.pin,
    nodeFlags: ['--expose-gc'],
  });
  try {
    const result = await resultOf<RetainedResult>(child, 'retained process');
    bench.log(`  send-retained simulator: ${grouped(result.bytesPerSend)} B per send`);
    return result;
  } finally {
    await stopChild(child);
  }
}

export const retainedFamily: WorkloadFamily<RetainedWorkload, RetainedResult, RetainedResult & Workload> = {
  workloads: () => [SEND_RETAINED],
  run: (_workload, bench) => retainedRun(bench),
  summarise: (workload, result) => ({ ...workload, ...result }),
  judge: () => [],
  rows: (_workload, result) => [
    {
      label: 'send-retained: heap per send',
      target: '(diagnostic)',
      servers: byKind((kind) => (kind === 'simulator' ? `${grouped(result.bytesPerSend)} B` : '—')),
    },
    ...result.byKind.slice(0, TABLE_KINDS).map((k) => ({
      label: `  ${k.kind}`,
      target: '',
      servers: byKind((kind) =>
        kind === 'simulator' ? `${grouped(k.bytesPerSend)} B (${grouped(k.countPerSend, 2)})` : '—',
      ),
    })),
  ],
};
