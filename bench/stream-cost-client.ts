/**
 * The client of the stream-cost workloads (sse-append, sse-status): opens N concurrent
 * `POST /message:stream` streams on bench-append (each event appends one artifact chunk) or its
 * status-only twin bench-status (each event is a status update whose message joins the history),
 * and marks, as they happen, the two windows in which the server's CPU is read:
 *
 * - early: from the moment every stream has had event 1 to the moment the first stream has event
 *   `early[1]` (200): every event received in between is one of events 2–200 of its stream;
 * - late: from every stream having had event `late[0]` (800) to the first having event `late[1]`
 *   (1000): events 801–1000.
 *
 * Taking the windows from what every stream has reached, rather than from the clock, makes "early"
 * and "late" mean the event's position in its task, not the time. The streams do not start at one
 * instant (the server opens them one after the other), so a window lasts its span of events minus
 * that spread: 200 events (2 s at 10 ms) leave room for a spread of a second. This client reads the
 * server's CPU time at each mark, as it happens (the orchestrator may read two marks' lines at once
 * on a busy machine), and the orchestrator divides by the events counted in the window: server CPU
 * per event around event 100 against around event 900.
 *
 * Both scenarios begin with `leadEvents` status updates without a number, which keep the server
 * busy while the streams open; numbering starts after them. Also per event: lag = receive time −
 * scheduled time (numbered event k is scheduled (`leadEvents` + k) × `intervalMs` after the task was
 * created, the first event's `status.timestamp`), per window.
 *
 * Runs as a child process pinned to the load core; the job comes as JSON in argv[2]. Prints
 * `{"phase":"mark","mark":…,"cpuMs":…}` lines as the windows open and close, then
 * `{"phase":"done","result":…}`.
 */
import { setMaxListeners } from 'node:events';
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { EventSourceMessage } from 'eventsource-parser';
import { preciseCpuMs } from './lib/procs.js';
import { readStream, StreamFailures } from './lib/sse-stream.js';
import { summarize, type Summary } from './lib/stats.js';

export type StreamCostScenario = 'bench-append' | 'bench-status';
export type StreamCostMark = 'early-start' | 'early-end' | 'late-start' | 'late-end';

export interface StreamCostJob {
  url: string;
  streams: number;
  scenario: StreamCostScenario;
  /** Events per stream (chunks or ticks) before the task completes. */
  events: number;
  /** Unnumbered status updates before event 1. */
  leadEvents: number;
  /** Scheduled time between two events of a stream, after the server's --speed. */
  intervalMs: number;
  /** Event numbers (1-based) that bound the windows: [first, last]. */
  early: [number, number];
  late: [number, number];
  /** Give up on streams that have not completed by then. */
  timeoutMs: number;
  runId: string;
  /** The server, whose CPU time each mark reads. */
  serverPid: number;
}

export interface StreamCostWindow {
  /** Events received between the window's marks (all of them numbered inside its bounds). */
  events: number;
  /** Client time between the marks, ms; null when the window never opened or closed. */
  ms: number | null;
  lagMs: Summary;
}

export interface StreamCostResult {
  streams: number;
  opened: number;
  failed: number;
  /** Streams that received every event and the final completed status. */
  completed: number;
  /** Events that skipped a number (a lost event), over all streams. */
  gaps: number;
  firstEventMs: Summary;
  early: StreamCostWindow;
  late: StreamCostWindow;
  /** CPU time of this client over the whole run, as a share of one core. */
  clientCpu: number;
  errors: string[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as StreamCostJob;
const now = () => performance.timeOrigin + performance.now();
const abort = new AbortController();
setMaxListeners(0, abort.signal);
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

interface StreamState {
  createdAt?: number;
  last: number;
}

const windows = {
  early: { bounds: job.early, lags: [] as number[], events: 0, start: NaN, end: NaN },
  late: { bounds: job.late, lags: [] as number[], events: 0, start: NaN, end: NaN },
};
/** Per window: how many streams have reached its first event. */
const reached = { early: 0, late: 0 };
const firstEvents: number[] = [];
const failures = new StreamFailures();
let opened = 0;
let completed = 0;
let gaps = 0;

/** What a mark line says: which mark, and the server's CPU time then (ms; null if unreadable). */
export interface StreamCostMarkLine {
  phase: 'mark';
  mark: StreamCostMark;
  cpuMs: number | null;
}

function mark(name: StreamCostMark): void {
  const line: StreamCostMarkLine = { phase: 'mark', mark: name, cpuMs: preciseCpuMs(job.serverPid) ?? null };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** The event's number: `chunk k: …` (bench-append) or `tick k` (bench-status). */
function eventNumber(data: {
  artifactUpdate?: { artifact?: { parts?: { text?: string }[] } };
  statusUpdate?: { status?: { message?: { parts?: { text?: string }[] } } };
}): number | undefined {
  const text =
    data.artifactUpdate?.artifact?.parts?.[0]?.text ?? data.statusUpdate?.status?.message?.parts?.[0]?.text;
  const match = /^(?:chunk|tick) (\d+)\b/.exec(text ?? '');
  return match ? Number(match[1]) : undefined;
}

function onEvent(state: StreamState, sentAt: number, event: EventSourceMessage): void {
  const at = now();
  const data = JSON.parse(event.data) as {
    task?: { status?: { timestamp?: string } };
    statusUpdate?: { status?: { state?: string; message?: { parts?: { text?: string }[] } } };
  };
  if (state.createdAt === undefined) {
    firstEvents.push(at - sentAt);
    state.createdAt = Date.parse(data.task?.status?.timestamp ?? '');
    opened++;
    return;
  }
  if (data.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED') {
    if (state.last === job.events) completed++;
    return;
  }
  const k = eventNumber(data);
  if (k === undefined) return;
  if (k !== state.last + 1) gaps++;
  state.last = k;
  for (const name of ['early', 'late'] as const) {
    const w = windows[name];
    // Counted when it arrives inside the window: the server spent its CPU on it before then.
    if (at > w.start && Number.isNaN(w.end)) {
      w.events++;
      w.lags.push(at - (state.createdAt + (job.leadEvents + k) * job.intervalMs));
    }
    if (k === w.bounds[0] && ++reached[name] === job.streams) {
      w.start = at;
      mark(`${name}-start`);
    }
    if (k === w.bounds[1] && Number.isNaN(w.end)) {
      w.end = at;
      mark(`${name}-end`);
    }
  }
}

function openStream(index: number): Promise<void> {
  const state: StreamState = { last: 0 };
  const body = JSON.stringify({
    message: {
      role: 'ROLE_USER',
      parts: [{ text: `${job.scenario} stream ${job.runId}-${index}` }],
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

function windowResult(w: (typeof windows)['early']): StreamCostWindow {
  const closed = w.end > w.start;
  return {
    events: closed ? w.events : 0,
    ms: closed ? w.end - w.start : null,
    lagMs: summarize(w.lags),
  };
}

function finish(): void {
  const cpu = process.cpuUsage(cpuStart);
  const result: StreamCostResult = {
    streams: job.streams,
    opened,
    failed: failures.count,
    completed,
    gaps,
    firstEventMs: summarize(firstEvents),
    early: windowResult(windows.early),
    late: windowResult(windows.late),
    clientCpu: (cpu.user + cpu.system) / ((now() - started) * 1000),
    errors: failures.reasons,
  };
  abort.abort();
  process.stdout.write(`${JSON.stringify({ phase: 'done', result })}\n`, () => process.exit(0));
}

const cpuStart = process.cpuUsage();
const started = now();
const timeout = setTimeout(finish, job.timeoutMs);
void Promise.all(Array.from({ length: job.streams }, (_, i) => openStream(i))).then(() => {
  clearTimeout(timeout);
  finish();
});
