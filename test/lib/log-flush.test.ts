/**
 * The log's lines on stderr when a process exits while a write is still out: a child process logs
 * more than a pipe holds while its reader (this test) is not reading, says so on stdout, and exits
 * after flushLog; the test reads stderr only once told. Every line arrives, in order. Exiting
 * without flushLog, the lines queued behind the write still out were written synchronously at exit,
 * ahead of it, or the write was lost with the process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOG = fileURLToPath(new URL('../../src/lib/log.ts', import.meta.url));
const LINES = 5000;

const CHILD = `
const { createLogger, flushLog } = await import(process.env.LOG_MODULE);
const log = createLogger({ level: 'info', format: 'json' });
for (let n = 1; n <= ${LINES}; n++) {
  log.info('line', { n });
  // Turns of the event loop between lines, as between requests: the writes go on until the pipe is full.
  if (n % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write('logged');
await flushLog();
process.exit(0);`;

/**
 * Runs the child, reading its stderr only once it has logged every line (or ended, so that what it
 * said when it failed is seen); answers what it wrote there.
 */
function runChild(): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      env: { ...process.env, LOG_MODULE: LOG },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.pause();
    const read = () => {
      if (child.stderr.listenerCount('data') === 0) child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stderr.resume();
    };
    child.stdout.once('data', read);
    child.once('exit', read);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('flushLog', () => {
  it('lets a process exit with every line written, in order, though its reader read none until then', async () => {
    const { code, stderr } = await runChild();
    expect(code, stderr.slice(0, 2000)).toBe(0);
    const numbers = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
  });
});
