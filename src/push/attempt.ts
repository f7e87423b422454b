/**
 * One delivery attempt on the wire: resolve the receiver's name once, check every address it
 * resolves to, then connect to those very addresses (a lookup that answers only them), so a name
 * that resolves somewhere else a moment later (DNS rebinding) cannot move the connection past the
 * SSRF filter. A redirect is an answer, never followed.
 */
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { DeliveryOutcome } from './delivery-log.js';
import { blockedRange, hostRefusal, normalizeAddress } from './ssrf.js';

/** Every address a host name resolves to, as `dns.promises.lookup(name, { all: true })` answers. */
export type Lookup = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true });

export interface AttemptResult {
  outcome: DeliveryOutcome;
  status?: number;
  error?: string;
}

/** Where an attempt may connect: the checked addresses, or why it may not. */
export type Target = { addresses: readonly LookupAddress[] } | { refused: AttemptResult };

/** The URL's host, bare: without the brackets of an IPv6 address. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Resolves the URL's host once and, with `blockPrivate`, refuses it when any address is in a
 * blocked range or when the lookup fails: an address nobody could check is never taken as public.
 */
export async function resolveTarget(url: URL, lookup: Lookup, blockPrivate: boolean): Promise<Target> {
  const host = hostOf(url);
  const blocked = (error: string): Target => ({ refused: { outcome: 'blocked', error } });
  if (blockPrivate) {
    const refusal = hostRefusal(host);
    if (refusal) return blocked(`${refusal}, refused by the SSRF filter`);
  }
  const literal = normalizeAddress(host);
  if (isIP(literal)) return { addresses: [{ address: literal, family: isIP(literal) }] };
  let addresses: readonly LookupAddress[];
  try {
    addresses = await lookup(host);
    if (!addresses.length) throw new Error('no address');
  } catch (error) {
    const reason = `Failed to resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    return blockPrivate
      ? blocked(`${reason}; the SSRF filter refuses an address it cannot check`)
      : { refused: { outcome: 'network-error', error: reason } };
  }
  if (blockPrivate) {
    for (const { address } of addresses) {
      const range = blockedRange(address);
      if (range) return blocked(`${host} resolves to ${address}, in ${range}, refused by the SSRF filter`);
    }
  }
  return {
    addresses: addresses.map(({ address }) => {
      const normal = normalizeAddress(address);
      return { address: normal, family: isIP(normal) };
    }),
  };
}

/** A lookup that answers only `addresses`, whatever it is asked: the connection's, after the check. */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const wanted = addresses.filter((a) => !family || a.family === family);
    const answer = wanted.length ? wanted : addresses;
    if (options.all) callback(null, [...answer]);
    else callback(null, answer[0]!.address, answer[0]!.family);
  };
}

export interface PostOptions {
  url: URL;
  addresses: readonly LookupAddress[];
  headers: Record<string, string>;
  body: string;
  /** Aborting destroys the request and its socket (the timeout, or the config being deleted). */
  signal: AbortSignal;
}

/**
 * POSTs once on its own connection, closed when the answer is read: a delivery never leaves an
 * idle socket behind. Settles with the answer, or rejects when the request fails or is aborted.
 */
export function post({ url, addresses, headers, body, signal }: PostOptions): Promise<AttemptResult> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
    });
    req.once('error', reject);
    req.once('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.once('error', reject);
      res.once('close', () => res.complete || reject(new Error('the answer was cut off')));
      res.once('end', () =>
        resolve({ outcome: status >= 200 && status < 300 ? 'delivered' : 'http-error', status }),
      );
      res.resume();
    });
    req.end(body);
  });
}
