/**
 * How `a2a-sim exam` stops the client's command, end to end with the built CLI and a small client
 * (test/verdicts/fixtures/stop-client.mjs): past --timeout, on SIGTERM to the exam, and when it
 * leaves processes behind, the command's whole process group is stopped (SIGKILL after the grace
 * when SIGTERM is ignored), and the exam fails. A command that never called the simulator fails it
 * too.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KILL_GRACE_MS } from '../../src/cli/client-command.js';
import { CLI, run, type Exit } from '../helpers/cli.js';

const STOP_CLIENT = fileURLToPath(new URL('./fixtures/stop-client.mjs', import.meta.url));
const EXAM = ['exam', '--curriculum', 'quirks'];

/** The pids the client printed ("pid client N", "pid grandchild N"). */
const pidsOf = (stdout: string) => [...stdout.matchAll(/^pid \w+ (\d+)$/gm)].map((m) => Number(m[1]));

/**
 * Whether the process is gone: no such process, or one that died and that nothing reaped yet (an
 * orphan's zombie, where the container's first process does not reap orphans).
 */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return /^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Resolves once every pid is gone; fails after `withinMs`. */
async function allGone(pids: number[], withinMs = 1_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!pids.every(gone)) {
    if (performance.now() > deadline) {
      throw new Error(`still running: ${pids.filter((pid) => !gone(pid)).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Long enough for the client to start and call the simulator on a busy machine (three test files at
 * once took a client past 1 s): these tests stop a client that called it, then hung.
 */
const TIMEOUT_S = 4;

describe('a2a-sim exam stops the command', () => {
  it('past --timeout: it and its children, with SIGKILL when they ignore SIGTERM, and the exam fails', async () => {
    const started = performance.now();
    const exit = await run([
      ...EXAM,
      '--timeout',
      `${TIMEOUT_S}s`,
      '--',
      process.execPath,
      STOP_CLIENT,
      '--ignore-sigterm',
      '--grandchild',
      '--hang',
    ]);
    const took = performance.now() - started;
    const pids = pidsOf(exit.stdout);
    expect(pids, exit.stdout).toHaveLength(2);
    await allGone(pids);
    // The timeout, then the grace, and the CLI's own start and stop: not the client's hour.
    expect(took).toBeLessThan(TIMEOUT_S * 1000 + KILL_GRACE_MS + 8_000);
    expect(exit.stderr).toContain(
      `ran past its timeout (${TIMEOUT_S}s): SIGTERM to its processes, SIGKILL after 2s`,
    );
    expect(exit.stdout).toContain(
      `exam failed: the command ran past --timeout ${TIMEOUT_S}s and was stopped\n`,
    );
    expect(exit.code).toBe(1);
  });

  it('past --timeout, and the exam fails though the command then exits 0', async () => {
    const exit = await run([
      ...EXAM,
      '--timeout',
      `${TIMEOUT_S}s`,
      '--',
      process.execPath,
      STOP_CLIENT,
      '--sigterm-exits-0',
      '--hang',
    ]);
    await allGone(pidsOf(exit.stdout));
    expect(exit.stdout).toContain(
      `exam failed: the command ran past --timeout ${TIMEOUT_S}s and was stopped\n`,
    );
    expect(exit.code).toBe(1);
  });

  it('when it ends leaving a process behind: that process goes with it, and the exam is judged', async () => {
    const exit = await run([...EXAM, '--', process.execPath, STOP_CLIENT, '--grandchild']);
    const pids = pidsOf(exit.stdout);
    expect(pids, exit.stdout).toHaveLength(2);
    await allGone(pids);
    expect(exit.stderr).toContain('ended and left processes running: SIGTERM to its processes');
    expect(exit.stdout).toContain('exam passed');
    expect(exit.code).toBe(0);
  });

  it('on SIGTERM to the exam: passes it on to the whole group, and exits non-zero once they are gone', async () => {
    const exam = spawn(process.execPath, [
      CLI,
      ...EXAM,
      '--',
      process.execPath,
      STOP_CLIENT,
      '--grandchild',
      '--hang',
    ]);
    const exit: Exit = { code: null, stdout: '', stderr: '' };
    exam.stderr.on('data', (chunk) => (exit.stderr += chunk));
    const closed = new Promise<void>((resolve) =>
      exam.on('close', (code) => resolve(void (exit.code = code))),
    );
    // Once both have said where they are, they run.
    await new Promise<void>((resolve, reject) => {
      exam.stdout.on('data', (chunk) => {
        exit.stdout += chunk;
        if (pidsOf(exit.stdout).length === 2) resolve();
      });
      void closed.then(() => reject(new Error(`exam ended first: ${exit.stdout}${exit.stderr}`)));
    });
    exam.kill('SIGTERM');
    await closed;
    await allGone(pidsOf(exit.stdout));
    expect(exit.stderr).toContain('SIGTERM: stopping');
    expect(exit.stdout).toContain('exam failed: the exam was interrupted (SIGTERM) and the command stopped');
    expect(exit.code).toBe(143);
  });
});

describe('a2a-sim exam', () => {
  it('fails when no client called the simulator, though the command succeeded', async () => {
    const exit = await run([...EXAM, '--', process.execPath, '-e', '']);
    expect(exit.stdout).toMatch(
      /^exam failed: no client called the simulator at http:\/\/127\.0\.0\.1:\d+$/m,
    );
    expect(exit.code).toBe(1);
  });

  it('runs with A2A_SIM_ADMIN_TOKEN set, says it does not read it, and leaves the control plane open to the client', async () => {
    const exit = await run([...EXAM, '--', process.execPath, STOP_CLIENT], { A2A_SIM_ADMIN_TOKEN: 's3cret' });
    expect(exit.stderr).toContain('A2A_SIM_ADMIN_TOKEN is not read: the simulator listens on 127.0.0.1 only');
    expect(exit.stdout).toContain('card 200, control plane 200');
    expect(exit.stdout).toContain('exam passed');
    expect(exit.code).toBe(0);
  });
});
