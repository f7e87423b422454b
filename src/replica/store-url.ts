/**
 * `--store`: `memory` (the default, this process alone) or `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`,
 * which makes the process one replica of a simulator whose tasks live in that Redis. Query
 * parameters tune the sharing: `prefix` (of every key, so several simulators can share one Redis),
 * `lease` (how long a replica that stops renewing keeps its tasks), `log` and `log-bytes` (writes
 * and bytes the shared log keeps) and `entry-bytes` (the largest entry it takes).
 */
import { formatBytes, parseBytes } from '../lib/bytes.js';
import { readDuration } from '../lib/duration.js';

export interface RedisStoreSettings {
  kind: 'redis';
  /** As given, with any password hidden: what messages and `/_sim/health` show. */
  shown: string;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** Of every key, e.g. `a2a-sim:`. */
  prefix: string;
  /** ms */
  lease: number;
  /** Writes (stream entries of one batch each) the shared log keeps, about. */
  logSize: number;
  /** Bytes the shared log keeps, about. */
  logBytes: number;
  /** The largest entry the shared log takes, in bytes; a larger one is refused. */
  entryBytes: number;
}

export type StoreSettings = { kind: 'memory' } | RedisStoreSettings;

const STORE_DEFAULTS = {
  prefix: 'a2a-sim:',
  lease: 3_000,
  logSize: 200_000,
  logBytes: 256 * 1024 ** 2,
  // Twice the default --max-body-bytes: a turn's entry carries the user's message whole.
  entryBytes: 8 * 1024 ** 2,
} as const;

const MIN_LOG_BYTES = 64 * 1024;

const FORM = 'memory or redis://HOST[:PORT][/DB][?prefix=P&lease=3s&log=200000&log-bytes=256MiB]';

export function readStoreUrl(value: string): StoreSettings {
  const text = value.trim();
  if (text === '' || text === 'memory') return { kind: 'memory' };
  const url = URL.parse(text);
  if (!url || url.protocol !== 'redis:' || !url.hostname) refuse(value, `it must be ${FORM}`);
  const shown = url.password ? text.replace(`:${url.password}@`, ':***@') : text;
  const port = url.port ? Number(url.port) : 6379;
  const path = url.pathname.replace(/^\//, '');
  const db = path === '' ? 0 : Number(path);
  if (!Number.isInteger(db) || db < 0 || !/^\d*$/.test(path))
    refuse(shown, `the database must be a number, got "${path}"`);
  const known = new Set(['prefix', 'lease', 'log', 'log-bytes', 'entry-bytes']);
  for (const key of url.searchParams.keys()) {
    if (!known.has(key)) refuse(shown, `unknown parameter "${key}"; known: ${[...known].join(', ')}`);
  }
  const lease = readDuration(url.searchParams.get('lease') ?? STORE_DEFAULTS.lease);
  if ('error' in lease || lease.ms < 100) refuse(shown, `lease must be a duration of 100ms or more`);
  const logSize = Number(url.searchParams.get('log') ?? STORE_DEFAULTS.logSize);
  if (!Number.isInteger(logSize) || logSize < 100) refuse(shown, 'log must be an integer of 100 or more');
  const logBytes = parseBytes(url.searchParams.get('log-bytes') ?? STORE_DEFAULTS.logBytes);
  if (logBytes === undefined || logBytes < MIN_LOG_BYTES)
    refuse(shown, `log-bytes must be a size of ${formatBytes(MIN_LOG_BYTES)} or more, like 256MiB`);
  const entryBytes = parseBytes(
    url.searchParams.get('entry-bytes') ?? Math.min(STORE_DEFAULTS.entryBytes, Math.floor(logBytes / 4)),
  );
  // A log of a few entries would be trimmed as soon as it is read: an entry is at most a quarter.
  if (entryBytes === undefined || entryBytes < 1024 || entryBytes > logBytes / 4)
    refuse(shown, `entry-bytes must be a size of 1KiB or more, and at most a quarter of log-bytes`);
  return {
    kind: 'redis',
    shown,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    ...(url.username && { username: decodeURIComponent(url.username) }),
    ...(url.password && { password: decodeURIComponent(url.password) }),
    prefix: url.searchParams.get('prefix') ?? STORE_DEFAULTS.prefix,
    lease: lease.ms,
    logSize,
    logBytes,
    entryBytes,
  };
}

function refuse(given: string, why: string): never {
  throw new Error(`Failed to start: --store ${given}: ${why}.`);
}
