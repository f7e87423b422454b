/**
 * The caps on deliveries on the wire: a global and a per-host number of slots, so receivers that
 * accept and never answer cannot take the simulator's file descriptors. Deliveries past the caps
 * wait in their configs' queues; each attempt's timeout closes its socket and frees its slot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config.js';
import { DELIVERY_SLOTS, DeliverySlots, MAX_DELIVERIES_PER_HOST } from '../../src/push/slots.js';
import { flushIo, startSim } from '../helpers/sim.js';
import { getJson, postJson, v1Send } from '../helpers/wire.js';
import {
  scriptedLookup,
  startBlackHole,
  startDispatcher,
  TIMEOUT,
  untilIo,
  watchSockets,
} from './dispatcher-driver.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

describe('deliveries to receivers that never answer', () => {
  it('keeps at most the global and per-host caps of sockets open; the timeout closes them and the next go', async () => {
    const hole = await startBlackHole();
    cleanup.push(() => hole.close());
    const sockets = watchSockets(hole.port);
    cleanup.push(() => sockets.unwatch());
    const slots = new DeliverySlots(4, 2);
    // Four host names, all the black hole: the lookup is the dispatcher's, the connection goes where it says.
    const { lookup } = scriptedLookup(() => ['127.0.0.1']);
    const d = startDispatcher({ slots, lookup, blockPrivate: false });
    cleanup.push(() => d.stopAll());
    const hosts = ['a', 'b', 'c', 'd'].map((h) => `${h}.test:${hole.port}`);
    for (let i = 0; i < 3; i++) d.task(...hosts.map((host) => `http://${host}/hook`)).emit();

    await untilIo(() => hole.openHosts().filter(Boolean).length === 4, 'four requests at the black hole');
    await flushIo();
    expect(hole.open()).toBe(4);
    expect(slots.queued).toBe(8);
    const perHost = (open: string[]) => Math.max(...hosts.map((h) => open.filter((o) => o === h).length));
    expect(perHost(hole.openHosts())).toBeLessThanOrEqual(2);

    // The timeout destroys each socket: the black hole sees them close, and four waiting deliveries go.
    d.clock.advance(TIMEOUT);
    await untilIo(
      () => hole.closed() === 4 && hole.openHosts().filter(Boolean).length === 4,
      'the next four',
    );
    expect(d.log.list({ outcome: 'timeout' })).toHaveLength(4);
    expect(hole.open()).toBe(4);
    expect(perHost(hole.openHosts())).toBeLessThanOrEqual(2);
    expect(sockets.peak()).toBe(4);

    // Deleting the configs closes what is on the wire and forgets what waits.
    d.stopAll();
    await untilIo(() => hole.open() === 0, 'every socket closed');
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('holds a simulator with 300 black-hole webhooks to the per-host cap, and it still answers its clients', async () => {
    const hole = await startBlackHole();
    cleanup.push(() => hole.close());
    const sockets = watchSockets(hole.port);
    cleanup.push(() => sockets.unwatch());
    const t = await startSim({ seed: 'push-caps', speed: 0, push: { maxAttempts: 1 } });
    cleanup.push(() => t.close());
    const url = `http://127.0.0.1:${hole.port}/hook`;
    for (let i = 0; i < 300; i++) {
      const sent = await postJson(
        t,
        '/message:send',
        v1Send(
          'What is the weather today?',
          { messageId: `caps-${i}` },
          { configuration: { returnImmediately: true, taskPushNotificationConfig: { url } } },
        ),
      );
      expect(sent.status).toBe(200);
    }
    await untilIo(() => hole.open() === MAX_DELIVERIES_PER_HOST, 'the per-host cap reached');
    await flushIo();
    expect(hole.open()).toBe(MAX_DELIVERIES_PER_HOST);
    expect(DELIVERY_SLOTS.active).toBe(MAX_DELIVERIES_PER_HOST);
    expect(DELIVERY_SLOTS.queued).toBe(300 - MAX_DELIVERIES_PER_HOST);

    const card = await getJson(t, '/.well-known/agent-card.json');
    expect(card.status).toBe(200);

    t.clock.advance(DEFAULTS.push.timeout);
    await untilIo(() => hole.closed() === MAX_DELIVERIES_PER_HOST, 'the first sockets closed');
    await untilIo(() => hole.open() === MAX_DELIVERIES_PER_HOST, 'the next deliveries on the wire');
    expect(sockets.peak()).toBe(MAX_DELIVERIES_PER_HOST);
    expect(t.sim.deliveries.list({ outcome: 'timeout' })).toHaveLength(MAX_DELIVERIES_PER_HOST);
  });
});
