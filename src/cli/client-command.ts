/**
 * Runs a client's command against a simulator, as `record` and `exam` do: with the simulator's
 * addresses in its environment (`A2A_URL`, `A2A_CARD_URL`, `A2A_GATEWAY_URL`) and its output on
 * ours, and says how it ended.
 */
import { spawn } from 'node:child_process';
import type { Simulator } from '../index.js';

export interface ClientExit {
  /** Its exit code; 1 when a signal ended it, 127 when it could not be run. */
  code: number;
  /** Whether `timeoutMs` passed and it was stopped. */
  timedOut: boolean;
}

export function runClientCommand(
  sim: Simulator,
  [program, ...args]: readonly string[],
  timeoutMs?: number,
): Promise<ClientExit> {
  return new Promise((resolve) => {
    const child = spawn(program!, args, {
      stdio: 'inherit',
      env: {
        ...process.env,
        A2A_URL: sim.url,
        A2A_CARD_URL: `${sim.url}/.well-known/agent-card.json`,
        A2A_GATEWAY_URL: `${sim.url}${sim.gatewayPath}`,
      },
    });
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : sim.clock.setTimer(timeoutMs, () => {
            timedOut = true;
            child.kill('SIGTERM');
          });
    child.once('error', (error) => {
      process.stderr.write(`a2a-sim: could not run ${program}: ${error.message}\n`);
      timer?.cancel();
      resolve({ code: 127, timedOut });
    });
    child.once('exit', (code, signal) => {
      timer?.cancel();
      resolve({ code: code ?? (signal ? 1 : 0), timedOut });
    });
  });
}
