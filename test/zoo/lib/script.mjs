// What the zoo's clients share: a step that may throw without ending the script, and a fixture
// script run as its own process (it names itself with CLIENT_ID, as the exam tests run it).
import { spawn } from 'node:child_process';

/** Runs `work`; a throw is what the client met, printed, and the script goes on. */
export async function step(name, work) {
  try {
    return await work();
  } catch (error) {
    process.stderr.write(`  ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}

/**
 * Runs a node script against the simulator at `url` with `env`, its addresses in the environment
 * as `a2a-sim exam` gives them; resolves with its exit code.
 */
export function runScript(file, url, env) {
  return new Promise((resolve, reject) => {
    const addresses = { A2A_URL: url, A2A_CARD_URL: `${url}/.well-known/agent-card.json` };
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, ...addresses, ...env },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}
