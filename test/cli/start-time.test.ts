/**
 * `--start-time`: two simulators started at different moments, with the same seed and start time,
 * answer the same conversation with identical content, dates from templates and faker included;
 * only the events' timestamps follow the clock.
 */
import { describe, expect, it } from 'vitest';
import { run, serve } from '../helpers/cli.js';
import { postJson, v1Send, V1_HEADERS } from '../helpers/wire.js';

/** The flight booking, both turns, as the texts and data a client would show. */
async function conversation(startTime: string): Promise<unknown> {
  const server = serve([
    'serve',
    '--port',
    '0',
    '--speed',
    '0',
    '--seed',
    'snapshots',
    '--start-time',
    startTime,
  ]);
  try {
    const url = await server.url;
    const first = await postJson(url, '/message:send', v1Send('Book me a flight'), V1_HEADERS);
    const { id, contextId } = first.body.task;
    const second = await postJson(
      url,
      '/message:send',
      v1Send('From Oslo to Rome on Friday', { taskId: id, contextId, messageId: 'follow-up' }),
      V1_HEADERS,
    );
    const { artifacts, history } = second.body.task;
    return { artifacts, history: history.map((m: { parts: unknown }) => m.parts) };
  } finally {
    await server.stop();
  }
}

describe('--start-time', () => {
  it('gives identical content in two runs started apart, faker dates included', async () => {
    const a = await conversation('2030-01-01T09:00:00Z');
    const b = await conversation('2030-01-01T09:00:00Z');
    expect(b).toEqual(a);
    expect(JSON.stringify(a)).toMatch(/2030-01-(0[1-9]|1[0-5])T/);
  });

  it('moves the dates with the start time', async () => {
    expect(JSON.stringify(await conversation('2031-06-01T09:00:00Z'))).toMatch(/2031-06-(0[1-9]|1[0-5])T/);
  });

  it('refuses a value that is not a date and time', async () => {
    const result = await run(['serve', '--port', '0', '--start-time', 'tomorrow']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--start-time must be a date and time like "2030-01-01T09:00:00Z", got "tomorrow"',
    );
  });
});
