/**
 * The `send-retained` workload's process (bench/families/retained.ts starts it under
 * `node --expose-gc`): a simulator made with `createSimulator` from the build, with its defaults
 * (journal, verdicts, request log at `silent`), and REST `message:send`s of the weather scenario sent
 * to it one after another over HTTP. After a warm-up, it reads the heap after `gc()` and a heap
 * snapshot, sends `sends` more, and reads both again: what the sends left behind, per send, in all
 * and by kind of object. Every send is kept by something bounded (the store's 10,000 tasks, the
 * journal's 1,000 entries, the verdicts' 5,000 calls a client), so the figure is what one send adds
 * while those fill: what a busy simulator promotes and marks for each.
 *
 * The job comes as JSON in argv[2]; prints `{"phase":"done","result":…}`.
 */
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { REST_SEND_BODY, V1_HEADERS, withId } from './lib/requests.js';

export interface RetainedJob {
  warmup: number;
  sends: number;
}

export interface RetainedResult {
  sends: number;
  bytesPerSend: number;
  /** Kinds of heap object whose bytes grew by at least 4 per send, largest first. */
  byKind: { kind: string; countPerSend: number; bytesPerSend: number }[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as RetainedJob;
const gc = globalThis.gc;
if (!gc) throw new Error('the retained process needs node --expose-gc');

const { createSimulator } = (await import(
  new URL('../dist/index.js', import.meta.url).href
)) as typeof import('../src/index.js');

const sim = await createSimulator({ port: 0, speed: 0, logLevel: 'silent' });
let sent = 0;
// node:http, not fetch: this process's own client must leave nothing behind per request, and
// fetch keeps a little for each (a WeakRef among others).
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const target = new URL(`${sim.url}/message:send`);
function sendOne(body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(target, { method: 'POST', headers: V1_HEADERS, agent }, (response) => {
      response.resume();
      response.once('end', () =>
        response.statusCode === 200
          ? resolve()
          : reject(new Error(`message:send answered ${response.statusCode}`)),
      );
    });
    request.once('error', reject);
    request.end(body);
  });
}
async function send(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await sendOne(withId(REST_SEND_BODY, `retained-${sent++}`));
}

/** After gc(), the heap in use, and a heap snapshot written to a file (read once both are taken). */
function settledHeap(label: string): { used: number; file: string } {
  gc!();
  gc!();
  const used = process.memoryUsage().heapUsed;
  return {
    used,
    file: writeHeapSnapshot(join(tmpdir(), `a2a-sim-retained-${process.pid}-${label}.heapsnapshot`)),
  };
}

/** Bytes and counts by kind (type, and constructor for objects and closures); other kinds by type only. */
function kindsIn(file: string): Map<string, [count: number, bytes: number]> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  rmSync(file);
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const kinds = new Map<string, [number, number]>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const t = types[snapshot.nodes[i + type]!]!;
    const kind =
      t === 'object' || t === 'closure' ? `${t} ${snapshot.strings[snapshot.nodes[i + name]!]}` : t;
    const entry = kinds.get(kind) ?? [0, 0];
    entry[0]++;
    entry[1] += snapshot.nodes[i + size]!;
    kinds.set(kind, entry);
  }
  return kinds;
}

await send(job.warmup);
// Both snapshots are taken before either is read: what reading one makes is in neither.
const before = settledHeap('before');
// The snapshot blocked this process (the server's too) for as long as it took: on a busy machine,
// past the server's 5-s keep-alive timeout, whose timer then closes the idle connection just as
// the next send goes out on it (ECONNRESET). The sends go on a new connection.
agent.destroy();
await send(job.sends);
const after = settledHeap('after');
const kindsBefore = kindsIn(before.file);
const byKind = [...kindsIn(after.file)]
  .map(([kind, [count, bytes]]) => {
    const [countBefore, bytesBefore] = kindsBefore.get(kind) ?? [0, 0];
    return {
      kind,
      countPerSend: Math.round(((count - countBefore) / job.sends) * 100) / 100,
      bytesPerSend: Math.round((bytes - bytesBefore) / job.sends),
    };
  })
  .filter((k) => k.bytesPerSend >= 4)
  .sort((a, b) => b.bytesPerSend - a.bytesPerSend);
const result: RetainedResult = {
  sends: job.sends,
  bytesPerSend: Math.round((after.used - before.used) / job.sends),
  byKind,
};
process.stdout.write(`${JSON.stringify({ phase: 'done', result })}\n`);
await sim.close();
process.exit(0);
