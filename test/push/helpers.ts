/**
 * Webhook receivers for push tests: real HTTP servers on 127.0.0.1:0 that record every request and
 * answer as each test scripts them, and a clock driver that never moves virtual time while a
 * delivery is on the wire (else a delivery's timeout, a virtual timer, would fire while the real
 * request is still in flight).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_SLOTS } from '../../src/push/slots.js';
import { flushIo, settledYet, type TestSim } from '../helpers/sim.js';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** `X-A2A-Sim-Seq`, as a number. */
  seq: number;
}

/** How to answer a request: an HTTP status, or `hold` to never answer it. */
export type Answer = number | 'hold';

export interface Receiver {
  url: string;
  requests: Received[];
  /** The seqs received, in arrival order. */
  seqs(): number[];
  close(): Promise<void>;
}

let held = 0;

/**
 * Deliveries are counted by the slots they hold on the wire (src/push/slots.ts), so there is
 * nothing to set up; kept for the suites that call it in `beforeAll`.
 */
export function watchDeliveries(): () => void {
  return () => undefined;
}

/** Deliveries on the wire that no receiver is holding on purpose. */
const inFlight = () => DELIVERY_SLOTS.active - held;

export async function startReceiver(answer: (request: Received, n: number) => Answer = () => 200) {
  const requests: Received[] = [];
  const server = createServer((req, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const received: Received = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
        seq: Number(req.headers['x-a2a-sim-seq']),
      };
      requests.push(received);
      const status = answer(received, requests.length);
      if (status === 'hold') {
        held++;
        res.once('close', () => held--);
        return;
      }
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver: Receiver = {
    url: `${origin}/hook`,
    requests,
    seqs: () => requests.map((r) => r.seq),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/**
 * Runs virtual time until `condition` holds: lets I/O run, and moves the clock to its next timer
 * only when no delivery is in flight.
 */
export async function until(t: TestSim, condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let step = 0; !condition(); step++) {
    if (step > 20_000) throw new Error(`until: ${what} still not reached after ${step} steps`);
    await flushIo(5);
    if (condition() || inFlight() > 0) continue;
    const next = t.clock.nextAt();
    if (next !== undefined) t.clock.advance(Math.max(0, next - t.clock.now()));
  }
}

/** Awaits `work` (e.g. a blocking send), running virtual time as {@link until} does meanwhile. */
export async function settle<T>(t: TestSim, work: Promise<T>, what = 'the request'): Promise<T> {
  await until(t, settledYet(work), what);
  return work;
}

/** Until the receiver has `n` requests; then lets any further ones that are due arrive too. */
export async function untilReceived(t: TestSim, receiver: Receiver, n: number): Promise<Received[]> {
  await until(t, () => receiver.requests.length >= n, `${n} requests at ${receiver.url}`);
  await settleDeliveries();
  return receiver.requests;
}

/** Lets the deliveries on the wire finish, without moving the clock. */
export async function settleDeliveries(): Promise<void> {
  for (let i = 0; i < 200 && inFlight() > 0; i++) await flushIo(1);
  await flushIo();
}

/** The state a webhook body reports, if it is a Task or a status update (v1.0 or v0.3 shapes). */
export function stateOf(body: any): string | undefined {
  const status =
    body.task?.status ?? body.statusUpdate?.status ?? (body.kind !== undefined ? body.status : undefined);
  return status?.state;
}
