/**
 * The SSRF filter (`push.blockPrivate`): IPv4 inside IPv6 judged as the IPv4 it reaches, every
 * special-purpose range refused, a name resolved once and the connection made to the address that
 * was checked (no DNS rebinding), and a lookup that fails refused rather than taken as public.
 */
import dc from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_RANGES, blockedRange, normalizeAddress } from '../../src/push/ssrf.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postJson, v1Send } from '../helpers/wire.js';
import { scriptedLookup, startDispatcher, untilIo } from './dispatcher-driver.js';
import { startReceiver, until, type Receiver } from './helpers.js';

const MAPPED_LOOPBACK = [
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '0000:0000:0000:0000:0000:FFFF:7F00:0001',
  '::127.0.0.1',
  '::7f00:1',
];

describe('normalisation', () => {
  it.each(MAPPED_LOOPBACK)('reads %s as 127.0.0.1', (address) => {
    expect(normalizeAddress(address)).toBe('127.0.0.1');
    expect(normalizeAddress(`[${address}]`)).toBe('127.0.0.1');
    expect(blockedRange(address)).toBe('127.0.0.0/8 (loopback)');
  });

  it.each([
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['::ffff:a00:1', '10.0.0.1'],
    ['::1', '::1'],
    ['::', '::'],
    ['2001:DB8::1', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['hooks.example.com', 'hooks.example.com'],
  ])('reads %s as %s', (address, normal) => {
    expect(normalizeAddress(address)).toBe(normal);
  });
});

describe('the blocked ranges', () => {
  it.each(BLOCKED_RANGES.map((r) => [`${r.prefix}/${r.bits}`, r.prefix, r.name]))(
    'refuses %s (%s, %s)',
    (cidr, prefix, name) => {
      // ::ffff:0:0 is read as 0.0.0.0 first; the limited broadcast, inside 240/4, is named as itself.
      const expected = prefix === '::ffff:0:0' ? '0.0.0.0/8 ("this network")' : `${cidr} (${name})`;
      expect(blockedRange(prefix)).toBe(expected);
    },
  );

  it.each([
    ['0.255.255.255', '0.0.0.0/8'],
    ['100.127.255.255', '100.64.0.0/10'],
    ['172.31.0.1', '172.16.0.0/12'],
    ['198.19.255.255', '198.18.0.0/15'],
    ['239.255.255.250', '224.0.0.0/4'],
    ['250.1.2.3', '240.0.0.0/4'],
    ['64:ff9b::7f00:1', '64:ff9b::/96'],
    ['64:ff9b:1:ffff::1', '64:ff9b:1::/48'],
    ['2001:1ff:ffff::1', '2001::/23'],
    ['2002:7f00:1::1', '2002::/16'],
    ['fd12:3456::1', 'fc00::/7'],
    ['febf::1', 'fe80::/10'],
    ['ff02::1', 'ff00::/8'],
  ])('refuses %s, inside %s', (address, cidr) => {
    expect(blockedRange(address)).toMatch(new RegExp(`^${cidr.replace(/[.]/g, '\\.')} `));
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '::ffff:8.8.8.8',
    '2606:4700:4700::1111',
    '2001:200::1',
    '64:ff9b:2::1',
  ])('lets %s through', (address) => {
    expect(blockedRange(address)).toBeUndefined();
  });
});

describe('at create, with blockPrivate', () => {
  let t: TestSim;
  let taskId: string;
  beforeAll(async () => {
    t = await startSim({ seed: 'push-ssrf-create', speed: 0, push: { blockPrivate: true } });
    const sent = await postJson(
      t,
      '/message:send',
      v1Send('What is the weather today?', { messageId: 'ssrf-c' }),
    );
    taskId = sent.body.task.id;
  });
  afterAll(() => t.close());

  it.each([
    ...MAPPED_LOOPBACK.map((address) => `http://[${address}]:8080/hook`),
    'http://localhost./hook',
    'http://api.localhost/hook',
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://198.18.0.1/hook',
    'http://224.0.0.251/hook',
    'http://240.0.0.1/hook',
    'http://255.255.255.255/hook',
    'http://[64:ff9b::a00:1]/hook',
    'http://[2001:db8::1]/hook',
  ])('refuses %s', async (url) => {
    const res = await postJson(t, `/tasks/${taskId}/pushNotificationConfigs`, { url });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/SSRF/);
  });

  it('accepts a public address, IPv4-mapped or not', async () => {
    for (const url of ['http://[::ffff:8.8.8.8]/hook', 'https://hooks.example.com/a2a']) {
      expect((await postJson(t, `/tasks/${taskId}/pushNotificationConfigs`, { url })).status).toBe(201);
    }
  });
});

describe('at delivery, with blockPrivate', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const port = () => new URL(receiver.url).port;

  it.each(MAPPED_LOOPBACK)('refuses [%s] and sends nothing to 127.0.0.1', async (address) => {
    const d = startDispatcher();
    d.task(`http://[${address}]:${port()}/hook`).emit();
    await untilIo(() => d.log.list().length > 0, 'the attempt');
    expect(d.log.list()).toMatchObject([
      { outcome: 'blocked', error: expect.stringMatching(/127\.0\.0\.0\/8/) },
    ]);
    expect(receiver.requests).toEqual([]);
  });

  it('refuses a name that resolves to a private address, having asked once', async () => {
    const { lookup, calls } = scriptedLookup((name) =>
      name === 'internal.test' ? ['93.184.215.14', '10.1.2.3'] : [],
    );
    const d = startDispatcher({ lookup });
    d.task(`http://internal.test:${port()}/hook`).emit();
    await untilIo(() => d.log.list().length > 0, 'the attempt');
    expect(d.log.list()).toMatchObject([
      {
        outcome: 'blocked',
        error: 'internal.test resolves to 10.1.2.3, in 10.0.0.0/8 (private-use), refused by the SSRF filter',
      },
    ]);
    expect(calls).toEqual(['internal.test']);
    expect(receiver.requests).toEqual([]);
  });

  it('connects to the address it checked, not to what the name resolves to next (DNS rebinding)', async () => {
    const PUBLIC = '93.184.215.14';
    const { lookup, calls } = scriptedLookup((_name, call) => (call === 1 ? [PUBLIC] : ['127.0.0.1']));
    // Each delivery socket's connection is stopped as soon as it has its address, before it connects.
    const connectedTo: string[] = [];
    const onSocket = ({ socket }: { socket: Socket }) =>
      socket.once('lookup', (_error: Error | null, address: string, _family: number, host: string) => {
        if (host !== 'rebind.test') return;
        connectedTo.push(address);
        socket.destroy();
      });
    dc.subscribe('net.client.socket', onSocket as (message: unknown) => void);
    try {
      const d = startDispatcher({ lookup });
      d.task(`http://rebind.test:${port()}/hook`).emit();
      await untilIo(() => d.log.list().length > 0, 'the attempt');
      expect(calls).toEqual(['rebind.test']);
      expect(connectedTo).toEqual([PUBLIC]);
      expect(d.log.list().map((r) => r.outcome)).toEqual(['network-error', 'gave-up']);
      expect(receiver.requests).toEqual([]);
    } finally {
      dc.unsubscribe('net.client.socket', onSocket as (message: unknown) => void);
    }
  });

  it('delivers to a name that resolves to a public address through the address it resolved to', async () => {
    // With the filter off, the same pinned connection: the name is resolved once, to the receiver.
    const { lookup, calls } = scriptedLookup((_name, call) => (call === 1 ? ['127.0.0.1'] : ['127.0.0.2']));
    const d = startDispatcher({ lookup, blockPrivate: false });
    d.task(`http://receiver.test:${port()}/hook`).emit();
    await untilIo(() => d.log.list().length > 0, 'the attempt');
    expect(d.log.list()).toMatchObject([{ outcome: 'delivered', status: 200 }]);
    expect(calls).toEqual(['receiver.test']);
    expect(receiver.requests.at(-1)!.headers.host).toBe(`receiver.test:${port()}`);
  });
});

describe('a lookup that fails, with blockPrivate', () => {
  let t: TestSim;
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0)) await close();
  });

  it('refuses the delivery and says why in the delivery log, without retrying', async () => {
    t = await startSim({ seed: 'push-ssrf-dns', speed: 0, push: { blockPrivate: true } });
    cleanup.push(() => t.close());
    const sent = await postJson(
      t,
      '/message:send',
      v1Send(
        'What is the weather today?',
        { messageId: 'ssrf-dns' },
        {
          configuration: {
            returnImmediately: true,
            taskPushNotificationConfig: { url: 'http://hook.invalid/a2a' },
          },
        },
      ),
    );
    expect(sent.status).toBe(200);
    const taskId = sent.body.task.id;
    await until(t, () => t.sim.deliveries.list({ taskId }).length >= 4, 'an attempt per event');
    const records = t.sim.deliveries.list({ taskId });
    expect(records.map((d) => [d.seq, d.attempt, d.outcome])).toEqual([
      [1, 1, 'blocked'],
      [2, 1, 'blocked'],
      [3, 1, 'blocked'],
      [4, 1, 'blocked'],
    ]);
    expect(records[0]!.error).toMatch(
      /^Failed to resolve hook\.invalid: E[A-Z_]+; the SSRF filter refuses an address it cannot check$/,
    );
  });
});
