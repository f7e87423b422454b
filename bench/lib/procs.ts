/**
 * Child processes of the bench: the servers under test and the load generators, each pinned to its
 * own core with `taskset` where it exists; RSS and CPU time read from /proc.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

/** The simulator and its comparators: the @a2a-js/sdk server, bare express, bare node:http. */
export type ServerKind = 'simulator' | 'sdk' | 'express' | 'node';
export const SERVER_KINDS: readonly ServerKind[] = ['simulator', 'sdk', 'express', 'node'];
/**
 * The order the servers play a workload's round in: the simulator and express, whose ratio is the
 * tightest target, one right after the other, so that this machine's slow spells (tens of seconds,
 * a third of its speed) fall on both alike more often than on one.
 */
export const PLAY_ORDER: readonly ServerKind[] = ['simulator', 'express', 'sdk', 'node'];

/** One value per server kind, in SERVER_KINDS order. */
export function byKind<T>(make: (kind: ServerKind) => T): Record<ServerKind, T> {
  return { simulator: make('simulator'), sdk: make('sdk'), express: make('express'), node: make('node') };
}

/** Every child still running, so an interrupted bench leaves nothing behind. */
const children = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** True where `taskset` can pin to two distinct cores. */
export function canPin(): boolean {
  if (process.platform !== 'linux' || availableParallelism() < 2) return false;
  return [SERVER_CORE, LOAD_CORE].every(
    (core) => spawnSync('taskset', ['-c', String(core), 'true'], { stdio: 'ignore' }).status === 0,
  );
}

/** Pins every thread of this process to `core`; false if that failed. */
export function pinSelf(core: number): boolean {
  return (
    spawnSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' })
      .status === 0
  );
}

/** `node [nodeFlags] --import tsx script [args]`: how the bench runs its TypeScript children. */
export function tsxArgv(script: string, args: string[] = [], nodeFlags: string[] = []): string[] {
  return [process.execPath, ...nodeFlags, '--import', 'tsx', script, ...args];
}

/** Spawns `argv`, under `taskset -c core` when `pin`. taskset execs, so the child's pid is the program's. */
export function spawnPinned(argv: string[], core: number, pin: boolean): ChildProcess {
  const [command, ...args] = pin ? ['taskset', '-c', String(core), ...argv] : argv;
  const child = spawn(command!, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts one of the bench's job scripts (the stream clients, the soak process): the job as JSON in argv[2]. */
export function spawnJob(
  script: string,
  job: unknown,
  { core, pin, nodeFlags = [] }: { core: number; pin: boolean; nodeFlags?: string[] },
): ChildProcess {
  return spawnPinned(tsxArgv(script, [JSON.stringify(job)], nodeFlags), core, pin);
}

/** Resident set size of `pid` in bytes, from /proc; undefined where there is no /proc. */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The kernel's count of connections dropped because a listen queue was full (all sockets). */
export function listenOverflows(): number | undefined {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const header = lines.find((l) => l.startsWith('TcpExt:'))?.split(/\s+/);
    const values = lines.filter((l) => l.startsWith('TcpExt:'))[1]?.split(/\s+/);
    const index = header?.indexOf('ListenOverflows') ?? -1;
    return index > 0 && values ? Number(values[index]) : undefined;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(out.stdout?.trim()) || 100;
})();

/** User + system CPU time of `pid` in milliseconds, from /proc; undefined where there is no /proc. */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of `pid` in milliseconds to the nanosecond: the sum of its threads' run time from
 * /proc/<pid>/task/<tid>/schedstat, where /proc/<pid>/stat counts in 10 ms clock ticks, too coarse
 * for a window of a second at a fraction of a core. Falls back to {@link cpuMs}.
 */
export function preciseCpuMs(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
    return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : cpuMs(pid);
  } catch {
    return cpuMs(pid);
  }
}

export interface ServerHandle {
  kind: ServerKind;
  url: string;
  pid: number;
  /** From spawn to the `listening on` line, ms. */
  bannerMs: number;
  spawnedAt: number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  pin: boolean;
  /** `--speed`: the simulator's (default 0), or the comparators' for their bench streams (default 1). */
  speed?: number;
  /** Simulator only: an extra scenario directory. */
  scenarioDir?: string;
  /** Simulator only: `--max-store-bytes`, for runs that hold more events than the default budget. */
  maxStoreBytes?: string;
  /** Simulator only: `--log-level`; by default it logs as it does for every user (a line per request). */
  logLevel?: 'silent';
  /** Simulator only: flags for node itself, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
  /** Simulator only: more `serve` flags, e.g. `--store redis://…`. */
  serveFlags?: string[];
  /** The core it is pinned to (with `pin`); the server core by default. */
  core?: number;
  /** Every kind: `node --trace-gc`, whose lines come to `onLine`. */
  traceGc?: boolean;
  /**
   * Comparators only: how many ticks their bench-ticks streams play, and chunks their bench-chunks
   * streams (the simulator reads its scenarios).
   */
  ticks?: number;
  chunks?: number;
  /** Every line the server prints after its URL. */
  onLine?: (line: string) => void;
}

export function serverArgv(kind: ServerKind, options: ServerOptions): string[] {
  const node = process.execPath;
  const gc = options.traceGc ? ['--trace-gc'] : [];
  const counts = [
    ...(options.ticks !== undefined ? ['--ticks', String(options.ticks)] : []),
    ...(options.chunks !== undefined ? ['--chunks', String(options.chunks)] : []),
  ];
  switch (kind) {
    case 'simulator':
      return [
        node,
        ...(options.nodeFlags ?? []),
        ...gc,
        'dist/cli/main.js',
        'serve',
        '--port',
        '0',
        '--speed',
        String(options.speed ?? 0),
        ...(options.logLevel ? ['--log-level', options.logLevel] : []),
        ...(options.scenarioDir ? ['-s', options.scenarioDir] : []),
        ...(options.maxStoreBytes ? ['--max-store-bytes', options.maxStoreBytes] : []),
        ...(options.serveFlags ?? []),
      ];
    case 'sdk':
    case 'express':
    case 'node':
      return tsxArgv(
        `bench/comparators/${kind}-server.ts`,
        [...(options.speed !== undefined ? ['--speed', String(options.speed)] : []), ...counts],
        gc,
      );
  }
}

/** Starts a server and resolves once it has printed its URL. */
export async function startServer(kind: ServerKind, options: ServerOptions): Promise<ServerHandle> {
  const spawnedAt = performance.now();
  const child = spawnPinned(serverArgv(kind, options), options.core ?? SERVER_CORE, options.pin);
  const stderr = stderrTail(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timeout = setTimeout(() => fail(new Error(`${kind} printed no URL within 30 s`)), 30_000);
    const onData = (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timeout);
        child.off('exit', onExit);
        child.stdout!.off('data', onData);
        // Keep draining whatever else it prints.
        if (options.onLine) createInterface({ input: child.stdout! }).on('line', options.onLine);
        else child.stdout!.resume();
        resolve(match[1]!.replace(/\/+$/, ''));
      }
    };
    const onExit = (code: number | null) =>
      fail(new Error(`${kind} exited (${code}) before listening: ${stderr()}`));
    function fail(error: Error) {
      clearTimeout(timeout);
      child.kill('SIGKILL');
      reject(error);
    }
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
  });
  const bannerMs = performance.now() - spawnedAt;
  return {
    kind,
    url,
    pid: child.pid!,
    bannerMs,
    spawnedAt,
    stop: () => stopChild(child),
  };
}

/** The last few thousand characters `child` wrote to stderr, for the error when it fails. */
export function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4000);
  });
  return () => tail;
}

/**
 * What a child that reports in JSON lines (the stream clients, the soak process) ends with: its
 * `{"phase":"done","result":…}` line. Every line, that one too, goes first to `onMessage`. Rejects
 * when the child exits without it, `what` naming the child.
 */
export function resultOf<R, M extends { phase: string } = { phase: string }>(
  child: ChildProcess,
  what: string,
  onMessage: (message: M) => void = () => {},
): Promise<R> {
  const stderr = stderrTail(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as M & { result?: R };
      onMessage(message);
      if (message.phase === 'done') resolve(message.result!);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) without a result: ${stderr()}`)));
  });
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the child is gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A child that answers one JSON line per JSON line it is sent (bench/load.ts). */
export class LineWorker {
  private readonly pending: ((line: string) => void)[] = [];

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => this.pending.shift()?.(line));
    const stderr = stderrTail(child);
    child.once('exit', (code) => {
      for (const waiter of this.pending.splice(0)) {
        waiter(JSON.stringify({ ok: false, error: `load generator exited (${code}): ${stderr()}` }));
      }
    });
  }

  request<T>(job: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      this.pending.push((line) => {
        const answer = JSON.parse(line) as { ok: boolean; result?: T; error?: string };
        if (answer.ok) resolve(answer.result as T);
        else reject(new Error(answer.error));
      });
      this.child.stdin!.write(`${JSON.stringify(job)}\n`);
    });
  }

  close(): Promise<void> {
    this.child.stdin!.end();
    return stopChild(this.child);
  }
}
