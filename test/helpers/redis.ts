/**
 * A real `redis-server` for the replica tests, the documentation's examples and the bench: on a
 * free port, persistence off, in its own process; it can be stopped and started again on the same
 * port, as a Redis restart mid-run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './ports.js';

export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (nothing was persisted). */
  start(): Promise<void>;
  /** The value of a key, as a client reads it. */
  get(key: string): Promise<string | null>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    start: async () => {
      child = await launch(port);
    },
    get: async (key) => {
      const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
      try {
        await client.connect();
        return await client.get(key);
      } finally {
        client.disconnect();
      }
    },
    stop: async () => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await server.start();
  return server;
}

/** Starts redis-server and resolves once it says it accepts connections (its own log line). */
function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        resolve(child);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}
