/**
 * Runs a client's command against a simulator, as `record` and `exam` do: with the simulator's
 * addresses in its environment (`A2A_URL`, `A2A_CARD_URL`, `A2A_GATEWAY_URL`) and its output on
 * ours, and says how it ended.
 *
 * The command runs in a process group of its own, so that stopping it stops what it started too
 * (`npm test` runs a shell that runs node that runs the client): on `--timeout`, on SIGINT or
 * SIGTERM to us, and when it ends leaving processes behind, the group gets SIGTERM, then SIGKILL
 * after {@link KILL_GRACE_MS}.
 */
import { spawn } from 'node:child_process';
import type { Simulator } from '../index.js';
import type { Timer } from '../lib/clock.js';
import { formatDuration } from '../lib/duration.js';

/** How long a stopped command's processes have between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;

/** How often, once the command has ended, we look whether what it started is gone. */
const GROUP_POLL_MS = 50;

export interface ClientExit {
  /** Its exit code; 1 when a signal ended it, 127 when it could not be run. */
  code: number;
  /** Whether `timeoutMs` passed and it was stopped. */
  timedOut: boolean;
  /** The signal (SIGINT, SIGTERM) we were sent while it ran, and passed on to it. */
  interrupted?: NodeJS.Signals;
}

const FORWARDED = ['SIGINT', 'SIGTERM'] as const;

export function runClientCommand(
  sim: Simulator,
  [program, ...args]: readonly string[],
  timeoutMs?: number,
): Promise<ClientExit> {
  return new Promise((resolve) => {
    const child = spawn(program!, args, {
      // In a group of its own, the command is not in the terminal's foreground: reading the
      // terminal would stop it (SIGTTIN), so it reads no terminal. A pipe or a file it still reads.
      stdio: [process.stdin.isTTY ? 'ignore' : 'inherit', 'inherit', 'inherit'],
      detached: true,
      env: {
        ...process.env,
        A2A_URL: sim.url,
        A2A_CARD_URL: `${sim.url}/.well-known/agent-card.json`,
        A2A_GATEWAY_URL: `${sim.url}${sim.gatewayPath}`,
      },
    });
    const { clock } = sim;
    let timedOut = false;
    let interrupted: NodeJS.Signals | undefined;
    let exitCode: number | undefined;
    let deadline: Timer | undefined;
    let kill: Timer | undefined;
    let poll: Timer | undefined;
    let killed = false;

    /** Signals the command's group; false when no process of it is left. */
    const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false;
      try {
        process.kill(-child.pid, signal);
        return true;
      } catch {
        return false;
      }
    };
    const finish = () => {
      deadline?.cancel();
      kill?.cancel();
      poll?.cancel();
      for (const signal of FORWARDED) process.off(signal, forward);
      resolve({ code: exitCode ?? 127, timedOut, ...(interrupted && { interrupted }) });
    };
    /** SIGTERM to the command's group now, SIGKILL after the grace; said once, with why. */
    const stop = (why: string) => {
      if (kill) return;
      process.stderr.write(
        `a2a-sim: ${why}: SIGTERM to its processes, SIGKILL after ${formatDuration(KILL_GRACE_MS)}\n`,
      );
      signalGroup('SIGTERM');
      kill = clock.setTimer(KILL_GRACE_MS, () => {
        killGroup();
        if (exitCode !== undefined) finish();
      });
    };
    const killGroup = () => {
      signalGroup('SIGKILL');
      killed = true;
    };
    /**
     * Once the command ended: done when its group is empty, or once SIGKILL went out (what is left
     * then is dying, or a zombie where nothing reaps orphans: not worth waiting for).
     */
    const awaitGroup = () => {
      if (killed || !signalGroup(0)) return finish();
      stop(`${program} ended and left processes running`);
      poll = clock.setTimer(GROUP_POLL_MS, awaitGroup);
    };
    const forward = (signal: NodeJS.Signals) => {
      // A second Ctrl-C does not wait for the grace.
      if (interrupted) killGroup();
      interrupted = signal;
      stop(`${signal}: stopping ${program}`);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    if (timeoutMs !== undefined) {
      deadline = clock.setTimer(timeoutMs, () => {
        timedOut = true;
        stop(`${program} ran past its timeout (${formatDuration(timeoutMs)})`);
      });
    }

    child.once('error', (error) => {
      process.stderr.write(`a2a-sim: could not run ${program}: ${error.message}\n`);
      exitCode = 127;
      finish();
    });
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 1 : 0);
      deadline?.cancel();
      awaitGroup();
    });
  });
}
