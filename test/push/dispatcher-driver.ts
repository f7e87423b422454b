/**
 * A dispatcher on its own, for what a simulator cannot be asked to do from outside: resolve names
 * with a scripted lookup, share a small set of slots, or deliver a URL that no create would accept.
 * Events are appended to a task's log by hand; time is a VirtualClock.
 */
import dc from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { ROOT_SCOPE } from '../../src/domain/scope.js';
import type { PushConfig, Task } from '../../src/domain/types.js';
import { VirtualClock } from '../../src/lib/clock.js';
import { DeliveryLog } from '../../src/push/delivery-log.js';
import { PushDispatcher, type DispatcherOptions } from '../../src/push/dispatcher.js';
import { EventLog } from '../../src/store/event-log.js';
import { TaskRecord } from '../../src/store/task-store.js';
import { flushIo } from '../helpers/sim.js';

export const TIMEOUT = 10_000;

export function startDispatcher(options: Partial<DispatcherOptions> = {}) {
  const clock = new VirtualClock();
  const log = new DeliveryLog();
  const dispatcher = new PushDispatcher({
    clock,
    seed: 'push-dispatcher',
    log,
    encode: (_dialect, event) => ({ seq: event.seq }),
    timeout: TIMEOUT,
    maxAttempts: 1,
    backoff: 500,
    maxQueue: 1000,
    blockPrivate: true,
    ...options,
  });
  let tasks = 0;
  const configs: PushConfig[] = [];

  /** A task whose every event goes to `urls`, one config each; `emit` logs its next event. */
  function task(...urls: string[]) {
    const id = `task-${++tasks}`;
    const status = { state: 'working' as const, timestamp: new Date(clock.now()).toISOString() };
    const snapshot: Task = { id, contextId: `ctx-${id}`, status, artifacts: [], history: [] };
    const record = new TaskRecord(ROOT_SCOPE, 'scripted', snapshot, new EventLog(1000), 0);
    for (const [i, url] of urls.entries()) {
      const config: PushConfig = { id: `${id}-config-${i + 1}`, taskId: id, url, dialect: '1.0' };
      configs.push(config);
      dispatcher.start(record, config, 0, { scope: ROOT_SCOPE });
    }
    return {
      id,
      emit: () =>
        record.log.append({
          taskId: id,
          contextId: snapshot.contextId,
          atMs: clock.now(),
          event: { kind: 'status', status },
        }),
    };
  }

  return {
    clock,
    log,
    dispatcher,
    task,
    /** Stops every config, as deleting them would. */
    stopAll: () => configs.forEach((config) => dispatcher.stop(config)),
  };
}

/** A lookup that answers `answer(name, n)` on its n-th call for that name; no address is ENOTFOUND. */
export function scriptedLookup(answer: (hostname: string, call: number) => string[]) {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const addresses = answer(hostname, calls.filter((h) => h === hostname).length);
    if (!addresses.length)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
}

/** A receiver that accepts connections and never answers: it counts what is open, and each `Host`. */
export interface BlackHole {
  port: number;
  /** Connections open now. */
  open(): number;
  /** The `Host` header each open connection sent, once it arrived. */
  openHosts(): string[];
  /** Connections closed by the other end so far. */
  closed(): number;
  close(): Promise<void>;
}

export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Map<Socket, string>();
  let closed = 0;
  const server: Server = createServer((socket) => {
    sockets.set(socket, '');
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      head += chunk;
      const host = /\r\nhost: *([^\r\n]*)/i.exec(head);
      if (host && sockets.has(socket)) sockets.set(socket, host[1]!);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (sockets.delete(socket)) closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    open: () => sockets.size,
    openHosts: () => [...sockets.values()],
    closed: () => closed,
    close: () => {
      for (const socket of sockets.keys()) socket.destroy();
      sockets.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Counts this process's client sockets connected to `port`: the simulator's file descriptors, as
 * opposed to what the receiver sees, which learns of a close a little after the sender.
 */
export function watchSockets(port: number) {
  let open = 0;
  let peak = 0;
  const onSocket = ({ socket }: { socket: Socket }) =>
    socket.once('connect', () => {
      if (socket.remotePort !== port) return;
      peak = Math.max(peak, ++open);
      socket.once('close', () => open--);
    });
  const listener = onSocket as (message: unknown) => void;
  dc.subscribe('net.client.socket', listener);
  return {
    open: () => open,
    peak: () => peak,
    unwatch: () => dc.unsubscribe('net.client.socket', listener),
  };
}

/** Lets I/O run, without moving the clock, until `condition` holds (or fails the test, naming `what`). */
export async function untilIo(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 2000) throw new Error(`untilIo: ${what} still not reached`);
    await flushIo(5);
  }
}
