/**
 * The connections a replica holds to Redis, each with the scripts that write the shared log
 * (scripts.ts).
 *
 * Three connections, each for what it is good at: `requests` answers what a client is waiting
 * for and fails at once when Redis is away (the client gets a clear error, not a hang); `writer`
 * carries what this replica logs, in order, and holds it through an outage to send it when Redis
 * is back; `follower` blocks on the shared log.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { SCRIPTS, type ScriptName } from './scripts.js';
import type { RedisStoreSettings } from './store-url.js';

export type ScriptedRedis = Redis & {
  [name in ScriptName]: (keys: number, ...args: (string | number)[]) => Promise<unknown>;
};

export class RedisLink {
  private constructor(
    readonly requests: ScriptedRedis,
    readonly writer: ScriptedRedis,
    readonly follower: Redis,
  ) {}

  /** Connects, or fails with what went wrong and where: a wrong URL stops the start. */
  static async connect(settings: RedisStoreSettings): Promise<RedisLink> {
    // Loaded here, not with the simulator: a process on the memory store never pays for it.
    const { Redis } = await import('ioredis');
    const base: RedisOptions = {
      host: settings.host,
      port: settings.port,
      db: settings.db,
      ...(settings.username && { username: settings.username }),
      ...(settings.password && { password: settings.password }),
      lazyConnect: true,
      connectTimeout: 2_000,
      // Reconnects for as long as the process runs, at most a second apart.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    };
    const requests = scripted(new Redis({ ...base, enableOfflineQueue: false, maxRetriesPerRequest: 0 }));
    const writer = scripted(new Redis({ ...base, maxRetriesPerRequest: null }));
    const follower = new Redis({ ...base, maxRetriesPerRequest: null });
    const link = new RedisLink(requests, writer, follower);
    for (const redis of [requests, writer, follower]) redis.on('error', () => {});
    try {
      await Promise.all([connectOnce(requests), connectOnce(writer), connectOnce(follower)]);
      const version = /redis_version:(\d+)\./.exec(await requests.info('server'))?.[1];
      if (Number(version) < 6) throw new Error(`Redis ${version} is too old: 6.2 or newer is needed`);
    } catch (error) {
      link.close();
      throw new Error(`Failed to start: cannot use the store ${settings.shown}: ${messageOf(error)}.`);
    }
    return link;
  }

  /** Whether the connection clients wait on is up. */
  get up(): boolean {
    return this.requests.status === 'ready';
  }

  close(): void {
    for (const redis of [this.requests, this.writer, this.follower]) redis.disconnect();
  }
}

function scripted(redis: Redis): ScriptedRedis {
  for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { lua });
  return redis as ScriptedRedis;
}

/** The first connection: one try, so a wrong URL is reported at once instead of retried. */
async function connectOnce(redis: Redis): Promise<void> {
  const strategy = redis.options.retryStrategy;
  redis.options.retryStrategy = () => null;
  // What went wrong is told to the error listeners; the connect itself only says it closed.
  let cause: unknown;
  const remember = (error: unknown) => (cause ??= error);
  redis.on('error', remember);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw cause ?? error;
  } finally {
    redis.off('error', remember);
    redis.options.retryStrategy = strategy;
  }
}

export function messageOf(error: unknown): string {
  const { message, code } = error as { message?: string; code?: string };
  const text = (message ?? String(error)).replace(/\.+$/, '');
  return text + (code && !text.includes(code) ? ` (${code})` : '');
}
