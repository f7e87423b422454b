/**
 * The bench's SSE client: opens N concurrent `POST /message:stream` streams on one bench scenario
 * (bench/scenarios), parses them with eventsource-parser and measures, per event:
 *
 * - lag: receive time minus the event's scheduled time. Both scenarios schedule their k-th event
 *   (tick k of bench-ticks, chunk k of bench-chunks, numbered in the event's text) k × 100 ms after
 *   the task was created, and the first event (the Task) carries that instant as its
 *   `status.timestamp`, so scheduled = created + 100·k, whatever the server's timers did;
 * - wire lag: receive time minus the event's own `status.timestamp` (when the server applied it),
 *   the part of the lag spent after the server's timer fired;
 * - fidelity: the event's `status.timestamp` minus its scheduled time, how late the server's timer
 *   fired (lag = fidelity + wire lag). The issue's "scenario delays land within 5 ms (p99) of their
 *   scheduled time" is about this part;
 * - time to first event: from the request being sent to its first event.
 *
 * bench-chunks' events are artifact updates, which carry no timestamp: its streams give lag and
 * time to first event only, and wire lag and fidelity come out empty (n = 0, NaN). "Ticks" below are
 * a scenario's numbered events, status updates or chunks.
 *
 * Phases: all N requests go out at once (the ramp); once every stream has had its first event (or
 * the ramp timeout passed) the client waits `settleMs`, then counts the ticks *scheduled* in the next
 * `windowMs` — steady state, not the catch-up from opening N streams, which `firstEventMs` shows —
 * and waits `graceMs` more for the late ones. A tick scheduled in the window and not received by
 * then counts as missing.
 *
 * Uses node:http rather than fetch: undici's web streams cost this client about three times the CPU
 * per event, and a client that falls behind adds its own delay to every lag it reports.
 * Runs as a child process (pinned to the load core by bench/run.ts); the job comes as JSON in argv[2].
 * Prints `{"phase":"steady"}` when the window starts and `{"phase":"done","result":…}` at the end.
 */
import { setMaxListeners } from 'node:events';
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { EventSourceMessage } from 'eventsource-parser';
import { readStream, StreamFailures } from './lib/sse-stream.js';
import { summarize, type Summary } from './lib/stats.js';

export interface SseJob {
  url: string;
  streams: number;
  windowMs: number;
  settleMs: number;
  graceMs: number;
  rampTimeoutMs: number;
  runId: string;
  /** The scenario every stream plays. */
  scenario: SseScenario;
  /** How many ticks (status updates or chunks) the scenario has. */
  ticks: number;
}

export type SseScenario = 'bench-ticks' | 'bench-chunks';

export interface SseResult {
  streams: number;
  opened: number;
  failed: number;
  /** From the first request to the moment every stream had its first event (or the ramp timeout), ms. */
  rampMs: number;
  windowMs: number;
  /** Ticks scheduled in the window: received (by the end of the grace period) and expected. */
  ticksReceived: number;
  ticksScheduled: number;
  /** Ticks that skipped a number (a lost event), over the whole run. */
  gaps: number;
  lagMs: Summary;
  /** Empty for bench-chunks: artifact updates carry no timestamp. */
  wireLagMs: Summary;
  /** Empty for bench-chunks: artifact updates carry no timestamp. */
  fidelityMs: Summary;
  firstEventMs: Summary;
  /** CPU time of this client from the window's start to the end, as a share of one core. */
  clientCpu: number;
  errors: string[];
}

/** Tick k of a stream is scheduled k × TICK_MS after its task's creation, in either scenario. */
const TICK_MS = 100;

const job = JSON.parse(process.argv[2] ?? '{}') as SseJob;
const now = () => performance.timeOrigin + performance.now();
const abort = new AbortController();
setMaxListeners(0, abort.signal); // one listener per stream
/** No pooling limit: every stream is its own connection. */
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

interface StreamState {
  createdAt?: number;
  lastTick: number;
}

const states: StreamState[] = [];
const lags: number[] = [];
const wireLags: number[] = [];
const fidelities: number[] = [];
const firstEvents: number[] = [];
const failures = new StreamFailures();
let gaps = 0;
let opened = 0;
let steadyAt = Number.POSITIVE_INFINITY;
let windowStart = Number.POSITIVE_INFINITY;
let windowEnd = Number.POSITIVE_INFINITY;
let windowCpu: NodeJS.CpuUsage | undefined;

interface Frame {
  task?: { status?: { timestamp?: string } };
  statusUpdate?: { status?: { timestamp?: string; message?: { parts?: { text?: string }[] } } };
  artifactUpdate?: { artifact?: { parts?: { text?: string }[] } };
}

/** The tick a frame is, and the instant the server applied it (NaN when it does not say). */
type Tick = { k: number; appliedAt: number } | undefined;

function statusTick(data: Frame): Tick {
  const status = data.statusUpdate?.status;
  const tick = /^tick (\d+)$/.exec(status?.message?.parts?.[0]?.text ?? '');
  return status && tick ? { k: Number(tick[1]), appliedAt: Date.parse(status.timestamp ?? '') } : undefined;
}

function chunkTick(data: Frame): Tick {
  const chunk = /^chunk (\d+): /.exec(data.artifactUpdate?.artifact?.parts?.[0]?.text ?? '');
  return chunk ? { k: Number(chunk[1]), appliedAt: Number.NaN } : undefined;
}

const tickOf = job.scenario === 'bench-chunks' ? chunkTick : statusTick;

function onEvent(state: StreamState, sentAt: number, event: EventSourceMessage): void {
  const at = now();
  const data = JSON.parse(event.data) as Frame;
  if (state.createdAt === undefined) {
    firstEvents.push(at - sentAt);
    state.createdAt = Date.parse(data.task?.status?.timestamp ?? '');
    if (++opened === job.streams) steady();
    return;
  }
  const tick = tickOf(data);
  if (!tick) return;
  const { k, appliedAt } = tick;
  if (k !== state.lastTick + 1) gaps++;
  state.lastTick = k;
  const scheduled = state.createdAt + k * TICK_MS;
  if (scheduled < windowStart || scheduled > windowEnd) return;
  lags.push(at - scheduled);
  if (Number.isNaN(appliedAt)) return;
  wireLags.push(at - appliedAt);
  fidelities.push(appliedAt - scheduled);
}

function openStream(index: number): Promise<void> {
  const state: StreamState = { lastTick: 0 };
  states.push(state);
  const body = JSON.stringify({
    message: {
      role: 'ROLE_USER',
      // A distinct text per stream: the simulator derives a task's seed from its parts (not its
      // messageId), and before 7eeea49 it probed one seed per earlier identical request, so N
      // identical messages cost O(N²) to open (BENCHMARKS.md, "What changed"). Streams are about lag and
      // memory: each one is a first occurrence either way.
      parts: [{ text: `${job.scenario === 'bench-ticks' ? 'tick' : 'chunk'} stream ${job.runId}-${index}` }],
      messageId: `${job.scenario}-${job.runId}-${index}`,
      metadata: { scenario: job.scenario },
    },
  });
  const sentAt = now();
  return readStream({
    url: job.url,
    body,
    agent,
    signal: abort.signal,
    onEvent: (event) => onEvent(state, sentAt, event),
    failures,
  });
}

const started = now();
const rampTimer = setTimeout(steady, job.rampTimeoutMs);

function steady(): void {
  if (steadyAt !== Number.POSITIVE_INFINITY) return;
  clearTimeout(rampTimer);
  steadyAt = now();
  windowStart = steadyAt + job.settleMs;
  windowEnd = windowStart + job.windowMs;
  setTimeout(() => {
    windowCpu = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ phase: 'steady', opened })}\n`);
  }, job.settleMs);
  setTimeout(finish, job.settleMs + job.windowMs + job.graceMs);
}

function finish(): void {
  const cpu = process.cpuUsage(windowCpu);
  let scheduled = 0;
  for (const state of states) {
    if (state.createdAt === undefined) continue;
    const first = Math.max(1, Math.ceil((windowStart - state.createdAt) / TICK_MS));
    const last = Math.min(job.ticks, Math.floor((windowEnd - state.createdAt) / TICK_MS));
    scheduled += Math.max(0, last - first + 1);
  }
  const result: SseResult = {
    streams: job.streams,
    opened,
    failed: failures.count,
    rampMs: steadyAt - started,
    windowMs: job.windowMs,
    ticksReceived: lags.length,
    ticksScheduled: scheduled,
    gaps,
    lagMs: summarize(lags),
    wireLagMs: summarize(wireLags),
    fidelityMs: summarize(fidelities),
    firstEventMs: summarize(firstEvents),
    clientCpu: (cpu.user + cpu.system) / ((job.windowMs + job.graceMs) * 1000),
    errors: failures.reasons,
  };
  abort.abort();
  process.stdout.write(`${JSON.stringify({ phase: 'done', result })}\n`, () => process.exit(0));
}

for (let i = 0; i < job.streams; i++) void openStream(i);
