/**
 * A port another process holds stops the simulator with what to do about it: which port, the flag
 * that chose it, and `0` for any free one; exit code 2, no stack trace. The HTTP port and the gRPC
 * port alike, from the CLI and from createSimulator().
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, PortInUseError } from '../../src/index.js';
import { serveRefused } from '../helpers/cli.js';

let holder: Server;
let port: number;
beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen({ host: '127.0.0.1', port: 0 }, resolve));
  port = (holder.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

describe.concurrent('a busy port', () => {
  it.each([
    ['--port', ['--port', 'PORT']],
    ['--grpc-port', ['--port', '0', '--grpc-port', 'PORT']],
  ])('stops serve with the port, %s and --port 0, exit code 2', async (flag, args) => {
    const result = await serveRefused([
      'serve',
      '--host',
      '127.0.0.1',
      ...args.map((a) => a.replace('PORT', String(port))),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `a2a-sim: Failed to listen on 127.0.0.1:${port}: the port is in use (${flag}), perhaps by another a2a-sim. Choose another with ${flag} PORT, or ${flag} 0 for any free port.\n`,
    );
  });

  it.each([
    ['port', { port: 'PORT' }],
    ['grpcPort', { port: 0, grpcPort: 'PORT' }],
  ] as const)('rejects createSimulator with a PortInUseError naming %s', async (option, ports) => {
    const given = Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, v === 'PORT' ? port : v]));
    const error: unknown = await createSimulator({ host: '127.0.0.1', logLevel: 'silent', ...given }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PortInUseError);
    expect(error).toMatchObject({ option, port, host: '127.0.0.1', reason: 'PORT_IN_USE' });
    expect((error as Error).message).toBe(
      `Failed to listen on 127.0.0.1:${port}: the port is in use. Choose another ${option}, or ${option} 0 for any free port.`,
    );
  });
});
