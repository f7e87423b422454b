/** A minimal leveled logger on stderr: the simulator's own diagnostics, never protocol output. */

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

const RANK: Readonly<Record<LogLevel, number>> = Object.freeze({
  silent: 0,
  error: 1,
  warn: 2,
  info: 3,
  debug: 4,
});

export interface Logger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const at = (wanted: LogLevel, line: string) => {
    if (RANK[wanted] <= RANK[level]) write(line);
  };
  return {
    error: (message, error) =>
      at(
        'error',
        error instanceof Error && error.stack ? `error: ${message}\n${error.stack}` : `error: ${message}`,
      ),
    warn: (message) => at('warn', `warn: ${message}`),
    info: (message) => at('info', message),
    debug: (message) => at('debug', `debug: ${message}`),
  };
}
