/**
 * The bench's load generator: a long-lived child process (pinned to its own core by bench/run.ts)
 * that runs autocannon jobs. One JSON job per stdin line, one JSON result per stdout line.
 *
 * Latency percentiles are computed here from every response's own time (autocannon measures each
 * with process.hrtime), not from autocannon's histogram, which keeps whole milliseconds only: at one
 * connection every answer takes well under a millisecond.
 */
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { withId } from './lib/requests.js';
import { summarize, type Summary } from './lib/stats.js';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  /** A number of requests to send instead of a duration (--quick: see Settings.requestsPerRun). */
  requests?: number;
  /** A warm-up job: run it, answer only `{ok: true}`. */
  discard?: boolean;
}

export interface LoadResult {
  /** 2xx answers per second over the measured run. */
  rps: number;
  total2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSec: number;
  /** Milliseconds, from each response's hrtime. */
  latencyMs: Summary;
  /** CPU time this process used during the measured run, as a share of one core (1 = 100%). */
  loadgenCpu: number;
}

/** Unique per request across every job of this process: `[<id>]` in a body becomes one of these. */
const idPrefix = `${process.pid.toString(36)}${Date.now().toString(36)}-`;
let idCounter = 0;

async function runOnce(job: LoadJob, durationSec: number, times?: number[]) {
  const { body } = job;
  const instance = autocannon({
    url: job.url,
    method: job.method,
    headers: job.headers,
    // autocannon's own `idReplacement` sends a wrong Content-Length (it assumes 33-character ids,
    // hyperid makes 24-26: mcollina/autocannon#539, in 8.0.0 and 9.0.0), so the server waits for
    // bytes that never come. Rebuilding each request's body here gets the length right.
    ...(body !== undefined && {
      body,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            body: withId(body, `${idPrefix}${idCounter++}`),
          }),
        },
      ],
    }),
    connections: job.connections,
    ...(job.requests === undefined ? { duration: durationSec } : { amount: job.requests }),
    timeout: 10,
  });
  if (times) {
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
    });
  }
  return await instance;
}

async function run(job: LoadJob): Promise<LoadResult | undefined> {
  if (job.discard) {
    await runOnce(job, job.durationSec);
    return undefined;
  }
  const times: number[] = [];
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await runOnce(job, job.durationSec, times);
  const wallUs = Number(process.hrtime.bigint() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    rps: result['2xx'] / result.duration,
    total2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSec: result.duration,
    latencyMs: summarize(times),
    loadgenCpu: (used.user + used.system) / wallUs,
  };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  try {
    const result = await run(JSON.parse(line) as LoadJob);
    process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: String(error) })}\n`);
  }
}
