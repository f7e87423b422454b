/** A port another process holds, named by the option that asked for it. */

/** The options that choose a port to listen on. */
export type PortOption = 'port' | 'grpcPort';

/**
 * Listening failed because the port is taken (EADDRINUSE): by another simulator, often.
 * @example try { await createSimulator({ port: 41241 }) } catch (e) { if (e instanceof PortInUseError) … }
 */
export class PortInUseError extends Error {
  readonly reason = 'PORT_IN_USE';

  constructor(
    readonly option: PortOption,
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Failed to listen on ${host}:${port}: the port is in use. Choose another ${option}, or ${option} 0 for any free port.`,
      options,
    );
    this.name = 'PortInUseError';
  }
}

/**
 * `error` as a {@link PortInUseError} when it says the port is taken, else as it is. Node's errors
 * carry the code; grpc-js puts it only in its message.
 */
export function portError(error: unknown, option: PortOption, host: string, port: number): unknown {
  const inUse =
    (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE' ||
    (error instanceof Error && /\bEADDRINUSE\b/.test(error.message));
  return inUse ? new PortInUseError(option, host, port, { cause: error }) : error;
}
