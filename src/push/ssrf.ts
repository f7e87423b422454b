/**
 * The SSRF filter (`push.blockPrivate`): the addresses a webhook may not reach. An address is
 * normalised first, so every spelling of an IPv4 address inside IPv6 (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:1`, `::127.0.0.1`) is judged as the IPv4 address it
 * reaches; then it is refused when it lies in a special-purpose range.
 */
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

interface Range {
  prefix: string;
  bits: number;
  family: 'ipv4' | 'ipv6';
  /** What the range is, as the delivery log says it. */
  name: string;
}

const v4 = (prefix: string, bits: number, name: string): Range => ({ prefix, bits, family: 'ipv4', name });
const v6 = (prefix: string, bits: number, name: string): Range => ({ prefix, bits, family: 'ipv6', name });

/**
 * The IANA IPv4 and IPv6 special-purpose address registries (RFC 6890 and later), with multicast
 * and the reserved blocks: no public receiver lives in any of them.
 * @note The whole of 192.0.0.0/24, 2001::/23 and the NAT64 and 6to4 prefixes are refused: the few
 * globally reachable addresses inside them are anycast services, never webhook receivers, and
 * NAT64, 6to4 and Teredo addresses can carry a private IPv4 address inside.
 */
export const BLOCKED_RANGES: readonly Range[] = Object.freeze([
  v4('0.0.0.0', 8, '"this network"'),
  v4('10.0.0.0', 8, 'private-use'),
  v4('100.64.0.0', 10, 'shared address space'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private-use'),
  v4('192.0.0.0', 24, 'IETF protocol assignments'),
  v4('192.0.2.0', 24, 'documentation (TEST-NET-1)'),
  v4('192.88.99.0', 24, '6to4 relay anycast'),
  v4('192.168.0.0', 16, 'private-use'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation (TEST-NET-2)'),
  v4('203.0.113.0', 24, 'documentation (TEST-NET-3)'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('255.255.255.255', 32, 'limited broadcast'),
  v4('240.0.0.0', 4, 'reserved'),
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  // Normalised to IPv4 before the check; listed so that nothing in it can pass unjudged.
  v6('::ffff:0:0', 96, 'IPv4-mapped'),
  v6('64:ff9b::', 96, 'NAT64'),
  v6('64:ff9b:1::', 48, 'local-use NAT64'),
  v6('100::', 64, 'discard-only'),
  v6('2001::', 23, 'IETF protocol assignments'),
  v6('2001:db8::', 32, 'documentation'),
  v6('2002::', 16, '6to4'),
  v6('3fff::', 20, 'documentation'),
  v6('5f00::', 16, 'segment routing (SRv6) SIDs'),
  v6('fc00::', 7, 'unique-local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'site-local (deprecated)'),
  v6('ff00::', 8, 'multicast'),
]);

/** One BlockList per range, so a refusal can name its range. */
const LISTS = BLOCKED_RANGES.map((range) => {
  const list = new BlockList();
  list.addSubnet(range.prefix, range.bits, range.family);
  return { range, list };
});

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 becomes the last two). */
function groupsOf(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [before, after] = [parse(head), parse(tail)];
  const zeros = tail === undefined ? [] : new Array<number>(8 - before.length - after.length).fill(0);
  return [...before, ...zeros, ...after];
}

/**
 * The address as a connection reaches it: an IPv4-mapped (`::ffff:0:0/96`) or IPv4-compatible
 * (`::/96`, but not `::` or `::1`) IPv6 address becomes its IPv4 address; brackets and a zone are
 * dropped; anything else is returned as given.
 * @example normalizeAddress('[::ffff:7f00:1]') // '127.0.0.1'
 */
export function normalizeAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return bare;
  const groups = groupsOf(bare.toLowerCase());
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  const mapped = zeroUpTo(5) && groups[5] === 0xffff;
  const compatible = zeroUpTo(6) && (groups[6]! > 0 || groups[7]! > 1);
  if (!mapped && !compatible) return bare.toLowerCase();
  const [high, low] = [groups[6]!, groups[7]!];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The blocked range an IP address lies in, as `127.0.0.0/8 (loopback)`, after normalisation;
 * undefined for a public address or for something that is not an IP address.
 * @example blockedRange('::ffff:10.1.2.3') // '10.0.0.0/8 (private-use)'
 */
export function blockedRange(address: string): string | undefined {
  const normal = normalizeAddress(address);
  const family = isIPv4(normal) ? 'ipv4' : isIPv6(normal) ? 'ipv6' : undefined;
  if (!family) return undefined;
  const hit = LISTS.find(({ range, list }) => range.family === family && list.check(normal, family));
  return hit && `${hit.range.prefix}/${hit.range.bits} (${hit.range.name})`;
}

/** `localhost` and names under it, which always mean loopback (RFC 6761 §6.3), trailing dot or not. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Why a URL's host is refused without a lookup: a loopback name, or an IP address in a blocked
 * range; undefined when only resolving the name can tell.
 */
export function hostRefusal(hostname: string): string | undefined {
  if (isLocalhostName(hostname)) return `${hostname} is a loopback name`;
  const bare = normalizeAddress(hostname);
  const range = isIP(bare) ? blockedRange(bare) : undefined;
  return range && `${hostname} is in ${range}`;
}
