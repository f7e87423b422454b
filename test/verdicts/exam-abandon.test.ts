/**
 * A client that takes a cut stream for the end of its task and leaves at once, while the task
 * still runs, fails `no-lost-events`: the exam judges the task once it has ended, not when the
 * client's command exits.
 */
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/cli.js';
import { CLIENT, EXAM, failed } from './fixtures/exam.js';

describe('a client that abandons its task after a cut', () => {
  it('fails no-lost-events under the reconnect curriculum, and the exam with it', async () => {
    const exit = await run([...EXAM, '--curriculum', 'reconnect', '--', process.execPath, CLIENT], {
      BREAK: 'abandon',
      BINDING: 'jsonrpc',
    });
    expect(failed(exit.stdout), exit.stdout).toEqual(['no-lost-events']);
    expect(exit.stdout).toMatch(/never delivered \d+ event\(s\) of the task/);
    expect(exit.code).toBe(1);
  });
});
