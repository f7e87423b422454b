/**
 * A real `redis-server` for the replica tests, the documentation's examples and the bench: on a
 * free port, persistence off, in its own process; it can be stopped and started again on the same
 * port, as a Redis restart mid-run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (nothing was persisted). */
  start(): Promise<void>;
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

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const ready = async () => {
      for (let attempt = 0; attempt < 200; attempt++) {
        if (child.exitCode !== null) return reject(new Error(`redis-server exited: ${output}`));
        if (await answers(port)) return resolve(child);
        await new Promise((r) => setTimeout(r, 25));
      }
      reject(new Error(`redis-server did not answer on port ${port}: ${output}`));
    };
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    void ready();
  });
}

/** Whether something answers PING with PONG on the port. */
async function answers(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
