/**
 * The simulator's log, on stderr: a line per request and per stream's end, push deliveries, chaos
 * faults and its own diagnostics, each with its time (epoch milliseconds in JSON). pino writes it: as JSON lines (`json`, for CI
 * and log shippers) or as readable lines (`pretty`, the default on a terminal). Never protocol
 * output: stdout carries only what a command prints.
 */
import { pino, type DestinationStream } from 'pino';
import { deadline, wallDelay, wallNow } from './clock.js';

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['silent', 'error', 'warn', 'info', 'debug'];

export type LogFormat = 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/** Structured details of a record: JSON members in `json`, `key=value` pairs in `pretty`. */
export type LogFields = Readonly<Record<string, string | number | boolean | readonly number[] | undefined>>;

export interface Logger {
  error(message: string, error?: unknown): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Whether a record at `level` is written: a caller skips building what nobody reads. */
  isEnabled?(level: Exclude<LogLevel, 'silent'>): boolean;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Default: `pretty` when stderr is a terminal, `json` otherwise. */
  format?: LogFormat;
  /** Where each line goes (without its newline); default: stderr. */
  write?: (line: string) => void;
}

/** The default format for this process: readable on a terminal, JSON lines in a pipe or a file. */
export function defaultLogFormat(): LogFormat {
  return process.stderr.isTTY ? 'pretty' : 'json';
}

/** A reader that stops reading stderr costs lines past this much queued output, never memory. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/**
 * Lines are written together once this much is queued, or {@link FLUSH_AFTER_MS} after the first
 * line queued since the last flush (a line a request, one write each, cost a busy simulator a tenth
 * of its sends). A write hands the bytes to libuv's thread pool, whose thread takes the server's
 * core for the write: at 4 KB a busy simulator paid that handover every 17 lines.
 */
const BYTES_BEFORE_A_WRITE = 32 * 1024;
/** Bytes one write takes at most: a pipe's whole buffer. */
const MOST_BYTES_A_WRITE = 64 * 1024;
const FLUSH_AFTER_MS = 100;

/**
 * stderr through pino's asynchronous destination: a write never blocks the event loop (Node
 * writes to a pipe or a file synchronously), lines that come while one write is out go together in
 * the next, and a reader that stops reading loses lines past {@link MAX_QUEUED_BYTES}.
 *
 * Each line is handed over as bytes: queued as text, the destination appends it to the text
 * queued before and measures that text's UTF-8 length again, a copy of up to 16 KB for every line.
 */
function asyncStderr(): DestinationStream {
  if (stderrDestination) return stderrDestination;
  const destination = (stderrQueue = pino.destination({
    fd: 2,
    sync: false,
    contentMode: 'buffer',
    maxLength: MAX_QUEUED_BYTES,
    minLength: BYTES_BEFORE_A_WRITE,
    maxWrite: MOST_BYTES_A_WRITE,
  }));
  // What has not been written by then is written before the process ends. A write still out at
  // that point may land after it: a command that exits waits for {@link flushLog} first.
  process.once('exit', () => destination.flushSync());
  // In buffer mode the destination takes Buffers, though its types still name only strings.
  const writeBytes = destination.write.bind(destination) as unknown as (bytes: Buffer) => boolean;
  // A flush armed by a line rather than the destination's periodic one: that one writes an empty
  // buffer through the thread pool ten times a second when there is nothing to write, so an idle
  // simulator never slept.
  let flushArmed = false;
  const flush = () => {
    flushArmed = false;
    destination.flush();
  };
  return (stderrDestination = {
    write: (line: string) => {
      if (!flushArmed) {
        flushArmed = true;
        deadline(FLUSH_AFTER_MS, flush);
      }
      return writeBytes(Buffer.from(line));
    },
  });
}

/** One per process, shared by every simulator in it: a test run starts hundreds. */
let stderrDestination: DestinationStream | undefined;
let stderrQueue: ReturnType<typeof pino.destination> | undefined;

/** How long an exiting command waits for its log lines to be written: a reader may have stopped. */
const FLUSH_WAIT_MS = 1_000;

/**
 * Resolves once the lines queued for stderr are written (or after {@link FLUSH_WAIT_MS}): a command
 * calls it before `process.exit`, so that the last lines neither overtake a write still out nor go
 * missing with it.
 */
export function flushLog(): Promise<void> {
  const queue = stderrQueue;
  if (!queue) return Promise.resolve();
  // The callback's error is fsync's on a pipe or a terminal: the lines were written all the same.
  const written = new Promise<void>((resolve) => queue.flush(() => resolve()));
  return Promise.race([written, wallDelay(FLUSH_WAIT_MS)]);
}

export function createLogger({ level, format = defaultLogFormat(), write }: LoggerOptions): Logger {
  const lines = write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const destination: DestinationStream =
    format === 'pretty'
      ? { write: (json: string) => lines(prettyLine(json)) }
      : write
        ? { write: (json: string) => write(json.endsWith('\n') ? json.slice(0, -1) : json) }
        : asyncStderr();
  const log = pino(
    {
      level,
      base: undefined,
      // Epoch milliseconds, pino's own: formatting an ISO date for every request line costs more
      // than the rest of the line.
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const record = (wanted: 'warn' | 'info' | 'debug') => (message: string, fields?: LogFields) => {
    if (log.isLevelEnabled(wanted)) destination.write(jsonLine(wanted, message, fields));
  };
  return {
    error: (message, error) =>
      error instanceof Error ? log.error({ err: error }, message) : log.error(message),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    isEnabled: (wanted) => log.isLevelEnabled(wanted),
  };
}

/**
 * The line pino writes for a record with flat fields, byte for byte (level, time, the fields that
 * are set in their order, msg), built directly: a line per request went through pino's generic
 * serializer for a tenth of a send's CPU. Errors, whose fields nest, still go through pino.
 */
function jsonLine(level: string, message: string, fields: LogFields | undefined): string {
  let line = `{"level":"${level}","time":${wallNow()}`;
  if (fields) {
    for (const key in fields) {
      const value = fields[key];
      if (value === undefined) continue;
      // A finite number is written as JSON writes it; anything else goes through JSON.stringify.
      const json =
        typeof value === 'number' && Number.isFinite(value) ? String(value) : JSON.stringify(value);
      line += memberPrefix(key) + json;
    }
  }
  return `${line},"msg":${JSON.stringify(message)}}\n`;
}

/** `,"key":` for each field name: the names are the code's own, a few dozen, quoted once each. */
const MEMBER_PREFIXES = new Map<string, string>();

function memberPrefix(key: string): string {
  let prefix = MEMBER_PREFIXES.get(key);
  if (prefix === undefined) {
    prefix = `,${JSON.stringify(key)}:`;
    if (MEMBER_PREFIXES.size < 256) MEMBER_PREFIXES.set(key, prefix);
  }
  return prefix;
}

const LEVEL_TAGS: Readonly<Record<string, string>> = {
  error: 'ERROR',
  warn: 'WARN ',
  info: 'INFO ',
  debug: 'DEBUG',
};

/**
 * One pino JSON line as `12:00:01.234 INFO  message key=value …`, and an error's stack under it.
 * Only terminals get this format, so parsing the line again costs nothing that matters.
 */
export function prettyLine(json: string): string {
  const { time, level, msg, err, ...fields } = JSON.parse(json) as Record<string, unknown> & {
    err?: { stack?: string; message?: string };
  };
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const details = Object.entries(fields)
    .map(
      ([key, value]) =>
        `${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`,
    )
    .join(' ');
  const head = `${clock} ${LEVEL_TAGS[String(level)] ?? String(level)} ${String(msg ?? '')}`;
  const line = details ? `${head}  ${details}` : head;
  return err ? `${line}\n${err.stack ?? err.message ?? ''}` : line;
}
