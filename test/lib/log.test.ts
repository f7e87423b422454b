/** The log's two formats and its levels, written to a collecting sink. */
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, prettyLine, type LogFields, type LogFormat } from '../../src/lib/log.js';

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

  it('writes each record as pino would, byte for byte, whatever its fields hold', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', format: 'json', write: (line) => lines.push(line) });
    const written: string[] = [];
    const reference = pino(
      { level: 'debug', base: undefined, formatters: { level: (label) => ({ level: label }) } },
      { write: (json: string) => void written.push(json.slice(0, -1)) },
    );
    const records: [message: string, fields?: LogFields][] = [
      ['plain'],
      ['', {}],
      [
        'POST /tasks/a"b\\c\n 200 in 3 ms',
        { request: 7, binding: 'REST', taskId: undefined, streamed: true },
      ],
      ['odd text', { text: 'é ☃ \u0000 \u001f \u2028 \ud800 lone', faults: [1, 2, 3], empty: [] }],
      [
        'numbers',
        { zero: 0, negative: -12, fraction: 0.125, large: 1796584627414, big: 1e21, nan: Number.NaN },
      ],
    ];
    const now = vi.spyOn(Date, 'now').mockReturnValue(1796584627414);
    try {
      for (const [message, fields] of records) {
        logger.info(message, fields);
        logger.warn(message, fields);
        logger.debug(message, fields);
        for (const level of ['info', 'warn', 'debug'] as const) {
          if (fields) reference[level](fields, message);
          else reference[level](message);
        }
      }
    } finally {
      now.mockRestore();
    }
    expect(lines).toHaveLength(records.length * 3);
    expect(lines).toEqual(written);
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
