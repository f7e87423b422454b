/** The log's two formats and its levels, written to a collecting sink. */
import { describe, expect, it } from 'vitest';
import { createLogger, prettyLine, type LogFormat } from '../../src/lib/log.js';

function collect(format: LogFormat, level: 'info' | 'warn' | 'debug' = 'info') {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level, format, write: (line) => lines.push(line) }) };
}

describe('json format', () => {
  it('writes one JSON object per record: epoch time, level by name, message, fields', () => {
    const { lines, logger } = collect('json');
    logger.info('POST /message:send 200 in 3 ms', {
      binding: 'REST',
      status: 200,
      faults: [1, 2],
      taskId: undefined,
    });
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(record).toMatchObject({
      level: 'info',
      msg: 'POST /message:send 200 in 3 ms',
      binding: 'REST',
      status: 200,
      faults: [1, 2],
    });
    expect(record['time']).toBeTypeOf('number');
    expect(record).not.toHaveProperty('taskId');
    expect(record).not.toHaveProperty('pid');
  });

  it('carries an error with its stack', () => {
    const { lines, logger } = collect('json');
    logger.error('unexpected error', new Error('boom'));
    const record = JSON.parse(lines[0]!) as { level: string; err: { message: string; stack: string } };
    expect(record.level).toBe('error');
    expect(record.err.message).toBe('boom');
    expect(record.err.stack).toContain('boom');
  });
});

describe('pretty format', () => {
  it('writes time, level, message and key=value pairs on one line', () => {
    const { lines, logger } = collect('pretty');
    logger.info('GET /tasks/t-1 200 in 1 ms', {
      binding: 'REST',
      scenario: 'weather',
      operation: 'GET /tasks/{id}',
    });
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO  GET \/tasks\/t-1 200 in 1 ms {2}binding=REST scenario=weather operation="GET \/tasks\/\{id\}"$/,
    );
  });

  it('puts an error stack under its line', () => {
    expect(
      prettyLine(
        JSON.stringify({
          level: 'error',
          time: Date.parse('2026-12-01T10:00:00.000Z'),
          msg: 'failed',
          err: { stack: 'Error: x\n    at y' },
        }),
      ),
    ).toBe('10:00:00.000 ERROR failed\nError: x\n    at y');
  });
});

describe('levels', () => {
  it('writes what the level lets through and says so', () => {
    const { lines, logger } = collect('json', 'warn');
    logger.info('not written');
    logger.debug('not written');
    logger.warn('written');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['written']);
    expect(logger.isEnabled?.('info')).toBe(false);
    expect(logger.isEnabled?.('warn')).toBe(true);
  });
});
