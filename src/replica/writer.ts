/**
 * What this replica writes to Redis: entries of the shared log (through the scripts, which keep
 * the snapshots with them), lease releases, and the removal of a task's snapshot when the task
 * leaves the store. All on one connection, so they reach Redis in the order they were made, and
 * waiting for the last write is waiting for them all. The entries made in one run of the process's
 * code (a timer's, a request's) go as one batch at the next tick, the tick at which node:http sends
 * what that run wrote to clients: a client is not sent an event a turn of the event loop before the
 * store (and a replica that takes the task over) is.
 */
import { formatBytes } from '../lib/bytes.js';
import type { Logger } from '../lib/log.js';
import { TurnBatch } from '../lib/turn-batch.js';
import type { StoreKeys } from './keys.js';
import type { Entry } from './mirror.js';
import { messageOf, type ScriptedRedis } from './redis.js';
import type { RedisStoreSettings } from './store-url.js';

/** One entry as the write script takes it (scripts.ts). */
interface Written {
  op: 'create' | 'append' | 'publish' | 'release' | 'forget';
  /** The task whose lease it needs (a refusal loses the task), or whose snapshot it changes. */
  taskId: string | undefined;
  kind: string;
  data: string;
  /** `data`'s size in UTF-8, as the script and the log's budget count it. */
  bytes: number;
  argument: string;
}

/** What Redis answers of an entry: its count, or why it was refused. */
type Answer = number | string;

export class LogWriter {
  private last: Promise<unknown> = Promise.resolve();
  /**
   * The entries of one run of the code (a send's first events, a timer's, the timers due together
   * under load) cost Redis one script call and the process one write, at most 256 entries or 1 MiB.
   * A batch is one entry of the log's stream, which is trimmed whole: at most a quarter of
   * `log-bytes`, as one entry is, so the log always keeps several.
   */
  private readonly entries: TurnBatch<Written, Answer>;

  constructor(
    private readonly redis: ScriptedRedis,
    private readonly keys: StoreKeys,
    private readonly settings: RedisStoreSettings,
    private readonly replica: string,
    private readonly logger: Logger,
    /**
     * Redis refused an entry about the task (its lease is another's, free, or the task ended): this
     * replica no longer plays it, and what it logged of it locally may not be what was shared.
     */
    private readonly refused: (taskId: string) => void,
  ) {
    this.entries = new TurnBatch<Written, Answer>((entries) => this.write(entries), {
      at: 'next-tick',
      most: 256,
      weigh: (entry) => entry.bytes,
      mostWeight: Math.min(1024 ** 2, Math.floor(settings.logBytes / 4)),
      onFailure: (error) => this.failed(error),
    });
  }

  /**
   * Logs an entry about a task's play, if this replica holds the task's lease. The entry that
   * creates a task first takes its lease: the append itself never takes a free one.
   */
  appendHeld(taskId: string, entry: Entry): void {
    const encoded = this.encode(entry);
    if (encoded === undefined) return;
    const creates = entry.kind === 'event' && entry.event.seq === 1;
    this.add({ op: creates ? 'create' : 'append', taskId, kind: entry.kind, ...encoded, argument: taskId });
  }

  /** Logs an entry any replica may write; `taskId` and `configId` say which snapshot it changes. */
  publish(entry: Entry, taskId?: string, configId = ''): void {
    const encoded = this.encode(entry);
    if (encoded !== undefined)
      this.add({ op: 'publish', taskId, kind: entry.kind, ...encoded, argument: configId });
  }

  release(taskId: string): void {
    this.add({ op: 'release', taskId, kind: '', data: '', bytes: 0, argument: taskId });
  }

  /**
   * The task left the store (a reset, retention): a replica that rebuilds does not bring it back.
   * In the batch with the entries made before it: a send that evicts the oldest task costs Redis no
   * call of its own.
   */
  forget(taskId: string): void {
    this.add({ op: 'forget', taskId, kind: '', data: '', bytes: 0, argument: taskId });
  }

  /** Resolves once everything written so far has been answered. */
  flushed(): Promise<unknown> {
    return this.last;
  }

  private add(entry: Written): void {
    this.last = this.entries.ask(entry).then(
      (answer) => {
        if (typeof answer === 'number') return;
        if (entry.op !== 'publish' && answer.startsWith('LEASE_LOST')) this.refused(entry.taskId!);
        else this.failed(answer);
      },
      // A failed batch is told once, by the batch, not once for each of its entries.
      () => {},
    );
  }

  /** Sends a batch: batches leave in the order they were made, on one connection. */
  private async write(entries: Written[]): Promise<Answer[]> {
    const { log, count, bytes, marks, chaos, tasks, lease, task, events } = this.keys;
    const { logSize, logBytes, entryBytes } = this.settings;
    const keys = [log, count, bytes, marks, chaos, tasks];
    const args: (string | number)[] = [this.replica, logSize, logBytes, entryBytes, this.settings.lease];
    for (const { op, taskId, kind, data, argument } of entries) {
      if (taskId === undefined) keys.push(chaos, chaos, chaos);
      else keys.push(lease(taskId), task(taskId), events(taskId));
      args.push(op, kind, data, argument);
    }
    return (await this.redis.writeEntries(keys.length, ...keys, ...args)) as Answer[];
  }

  /**
   * The entry as the log holds it, and its size in bytes; none when it is over `entry-bytes` (the
   * script refuses it too).
   */
  private encode(entry: Entry): { data: string; bytes: number } | undefined {
    const data = JSON.stringify(entry);
    const bytes = Buffer.byteLength(data);
    if (bytes <= this.settings.entryBytes) return { data, bytes };
    const about = 'taskId' in entry ? ` about task ${entry.taskId}` : '';
    this.logger.error(
      `replica: a ${entry.kind} entry${about} of ${formatBytes(bytes)} is over the store's entry-bytes (${formatBytes(this.settings.entryBytes)}): the other replicas do not get it. Raise entry-bytes in the store URL.`,
    );
    return undefined;
  }

  private readonly failed = (error: unknown): void => {
    this.logger.error(
      `replica: a write to the store failed: ${typeof error === 'string' ? error : messageOf(error)}`,
    );
  };
}
