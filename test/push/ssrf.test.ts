/**
 * The SSRF filter (`push.blockPrivate`): IPv4 inside IPv6 judged as the IPv4 it reaches, and every
 * special-purpose range refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_RANGES, blockedRange, normalizeAddress } from '../../src/push/ssrf.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postJson, v1Send } from '../helpers/wire.js';

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
