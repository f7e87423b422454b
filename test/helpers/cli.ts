/** The built CLI (`dist/cli/main.js`, which `npm test` builds first) in a child process. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs `serve` with arguments it must refuse (`args` as for {@link serve}): resolves once it exits,
 * and kills it if it starts listening instead, so a server that wrongly accepts them fails the test
 * rather than hanging it.
 */
export function serveRefused(args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    const killIfListening = () => {
      if (`${stdout}${stderr}`.includes('listening')) child.kill();
    };
    child.stdout.on('data', (chunk) => ((stdout += chunk), killIfListening()));
    child.stderr.on('data', (chunk) => ((stderr += chunk), killIfListening()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `serve`, resolving with the URL from its banner once it listens; `cli` runs another copy
 * of the built CLI (the Docker image's layout, say); `nodeFlags` go to node itself.
 */
export function serve(args: string[], env: Record<string, string> = {}, cli = CLI, nodeFlags: string[] = []) {
  const child = spawn(process.execPath, [...nodeFlags, cli, ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    banner: () => stdout,
    stderr: () => stderr,
    /** The exit code once the process exited; null while it runs. */
    exitCode: () => child.exitCode,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    /** Kills it with `signal` (SIGKILL: no goodbye, as a crash). */
    kill: (signal: NodeJS.Signals) => {
      child.kill(signal);
      return exited;
    },
  };
}
