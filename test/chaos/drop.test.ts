/**
 * Cut streams on the wire, provoked with `X-Sim-Chaos` against a real server: a clean close, a TCP
 * reset, silence on an open socket, a cut after some time; each checked as a client sees it and
 * against `GET /_sim/faults`.
 */
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushIo, startSim, type TestSim } from '../helpers/sim.js';
import { getSse } from '../helpers/sse.js';
import { chaosHeader as chaos } from '../helpers/wire.js';
import {
  faultsOf,
  ids,
  onlyTaskId,
  rawRequest,
  reportTaskId,
  runUntil,
  seqsTo,
  settle,
  startStream,
  REST_STREAM as REST,
  RPC_STREAM as RPC,
  STREAMS,
  TimedReader,
  waitUntil,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startSim({ keepAlive: 0 });
});
afterEach(() => t.close());

/** Every event of a finished task, read cleanly from seq 0. */
const cleanReplay = async (taskId: string) =>
  (await getSse(`${t.url}/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '0', ...chaos('off') })).rest();

describe('drop', () => {
  it.each(STREAMS)(
    '$name, drop-mode=fin: the stream ends cleanly after exactly N events, none terminal',
    async (b) => {
      const reader = await startStream(t, b, 'fin-1', 'drop-after-events=4, drop-mode=fin');
      const events = await settle(t, reader.rest()); // rest() throws if the read failed
      expect(reader.closed).toBe(true);
      expect(events.map((e) => e.id)).toEqual(seqsTo(4));
      expect(events.map((e) => b.payload(e.json)).filter(b.isTerminal)).toEqual([]);

      const taskId = reportTaskId(b, events[0]!.json);
      expect(await faultsOf(t, { taskId })).toMatchObject([
        {
          kind: 'drop',
          seq: 4,
          detail: { mode: 'fin', reason: 'after-events' },
          request: { binding: b.name, operation: b.operation },
        },
      ]);
      // The task went on without the client: a clean replay has more, up to its terminal status.
      const all = await settle(t, cleanReplay(taskId));
      expect(all.length).toBeGreaterThan(4);
    },
  );

  it('drop-mode=reset: the fetch body read rejects with a connection reset, after a prefix of the events', async () => {
    const reader = await startStream(t, REST, 'rf-1', 'drop-after-events=3, drop-mode=reset');
    const read: string[] = [];
    const failure = await settle(
      t,
      (async () => {
        for (let e = await reader.next(); e; e = await reader.next()) read.push(e.id!);
      })().then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    expect(read).toEqual(seqsTo(read.length));
    expect(read.length).toBeLessThanOrEqual(3);
  });

  it.each([REST, RPC])(
    '$name, drop-mode=reset: N events arrive, then the read fails with ECONNRESET',
    async (b) => {
      const x = rawRequest(
        t,
        'POST',
        b.path,
        { ...b.headers, ...chaos('drop-after-events=3, drop-mode=reset') },
        b.body('r-1'),
      );
      await runUntil(t, () => x.closed, 'the connection to close');
      expect(x.status).toBe(200);
      expect(x.error).toBe('ECONNRESET');
      expect([x.fin, x.complete]).toEqual([false, false]);
      const [drop] = await faultsOf(t, { kind: 'drop' });
      expect(drop).toMatchObject({ seq: 3, detail: { mode: 'reset', reason: 'after-events' } });
      // What the record says was delivered is what the client got before the reset.
      expect(ids(x.frames())).toEqual(seqsTo(3));
    },
  );

  it('drop-after-events=0, drop-mode=reset: the connection is reset before any event, not closed cleanly', async () => {
    const x = rawRequest(
      t,
      'POST',
      REST.path,
      chaos('drop-after-events=0, drop-mode=reset'),
      REST.body('r-0'),
    );
    await runUntil(t, () => x.closed, 'the connection to close');
    expect(ids(x.frames())).toEqual([]);
    expect({ error: x.error, fin: x.fin }).toEqual({ error: 'ECONNRESET', fin: false });
  });

  it('drop-mode=hang: after N events nothing more comes, keep-alives included, on a socket left open until the client aborts', async () => {
    await t.close();
    t = await startSim({ keepAlive: 1_000 });
    const serverSockets: Socket[] = [];
    t.sim.server.on('connection', (socket: Socket) => serverSockets.push(socket));
    const x = rawRequest(
      t,
      'POST',
      REST.path,
      chaos('drop-after-events=2, drop-mode=hang'),
      REST.body('h-1'),
    );
    await runUntil(t, () => ids(x.frames()).length >= 2, 'two events');
    const silentFrom = { bytes: x.received, at: t.clock.now() };
    const taskId = reportTaskId(REST, x.frames()[0]!.json);

    // Another client's clean stream of the same task: it keeps getting keep-alives and events.
    const clean = await getSse(`${t.url}/tasks/${taskId}:subscribe`, {
      'Last-Event-ID': '0',
      ...chaos('off'),
    });
    const all = await settle(t, clean.rest());
    t.clock.advance(60_000);
    await flushIo(50);
    expect(t.clock.now() - silentFrom.at).toBeGreaterThan(60_000);
    expect(all.length).toBeGreaterThan(2);
    expect(clean.keepAlives).toBeGreaterThan(0);

    expect(ids(x.frames())).toEqual(seqsTo(2));
    expect(x.frames().filter((f) => f.comment !== undefined)).toEqual([]);
    expect(x.received).toBe(silentFrom.bytes);
    expect({ fin: x.fin, error: x.error, closed: x.closed, complete: x.complete }).toEqual({
      fin: false,
      error: undefined,
      closed: false,
      complete: false,
    });
    const serverSide = serverSockets.find((s) => s.remotePort === x.localPort)!;
    expect(serverSide.destroyed).toBe(false);
    expect(await faultsOf(t, { taskId })).toMatchObject([{ kind: 'drop', seq: 2, detail: { mode: 'hang' } }]);

    x.abort();
    await waitUntil(() => serverSide.destroyed, 'the server to see the client go');
  });

  it('drop-after-ms: the stream is cut that long after it opened, after the last event sent before then', async () => {
    const chaotic = new TimedReader(await startStream(t, REST, 'ms-1', 'drop-after-ms=5s'), t);
    const opened = t.clock.now();
    const taskId = await onlyTaskId(t);
    const clean = new TimedReader(
      await getSse(`${t.url}/tasks/${taskId}:subscribe`, { 'Last-Event-ID': '0', ...chaos('off') }),
      t,
    );
    await runUntil(t, () => [chaotic.poll(), clean.poll()].every(Boolean), 'both streams to end');

    const expected = clean.events.filter((e) => e.at < opened + 5_000);
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(clean.events.length);
    expect(chaotic.events.map((e) => e.data)).toEqual(expected.map((e) => e.data));
    expect(await faultsOf(t, { taskId, kind: 'drop' })).toMatchObject([
      {
        seq: Number(expected.at(-1)!.id),
        at: new Date(opened + 5_000).toISOString(),
        detail: { mode: 'fin', reason: 'after-ms' },
      },
    ]);
  });

  it('drop-probability: a seeded draw cuts the stream before an event; the record names the last event delivered', async () => {
    const reader = await startStream(t, REST, 'rate-1', 'drop-probability=0.2');
    const events = await settle(t, reader.rest());
    const taskId = reportTaskId(REST, events[0]!.json);
    const all = await settle(t, cleanReplay(taskId));

    const drops = await faultsOf(t, { taskId, kind: 'drop' });
    expect(drops).toMatchObject([{ detail: { mode: 'fin', reason: 'probability' } }]);
    expect(drops[0]!.seq).toBe(Number(events.at(-1)!.id));
    expect(events.map((e) => e.id)).toEqual(seqsTo(events.length));
    expect(events.length).toBeLessThan(all.length);
    expect(events.map((e) => e.data)).toEqual(all.slice(0, events.length).map((e) => e.data));
  });
});
