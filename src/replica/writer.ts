/**
 * What this replica writes to Redis: entries of the shared log (through the scripts, which keep
 * the snapshots with them), lease releases, and the removal of a task's snapshot when the task
 * leaves the store. All on one connection, so they reach Redis in the order they were made, and
 * waiting for the last write is waiting for them all.
 */
import { formatBytes } from '../lib/bytes.js';
import type { Logger } from '../lib/log.js';
import type { StoreKeys } from './keys.js';
import type { Entry } from './mirror.js';
import { messageOf, type ScriptedRedis } from './redis.js';
import type { RedisStoreSettings } from './store-url.js';

export class LogWriter {
  private last: Promise<unknown> = Promise.resolve();

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
  ) {}

  /**
   * Logs an entry about a task's play, if this replica holds the task's lease. The entry that
   * creates a task first takes its lease: the append itself never takes a free one.
   */
  appendHeld(taskId: string, entry: Entry): void {
    const data = this.encode(entry);
    if (data === undefined) return;
    const { lease, task, events, tasks } = this.keys;
    const creates = entry.kind === 'event' && entry.event.seq === 1;
    if (creates)
      this.track(this.redis.hold(2, lease(taskId), task(taskId), this.replica, this.settings.lease));
    const keys = [...this.logKeys(), lease(taskId), task(taskId), events(taskId), tasks];
    const args = [...this.logArgs(entry.kind, data), taskId, creates ? '1' : ''];
    this.track(this.redis.appendHeld(keys.length, ...keys, ...args), taskId);
  }

  /** Logs an entry any replica may write; `taskId` and `configId` say which snapshot it changes. */
  publish(entry: Entry, taskId?: string, configId = ''): void {
    const data = this.encode(entry);
    if (data === undefined) return;
    const { task, events, chaos } = this.keys;
    const about = taskId === undefined ? [chaos, chaos] : [task(taskId), events(taskId)];
    const keys = [...this.logKeys(), ...about, chaos];
    this.track(this.redis.publish(keys.length, ...keys, ...this.logArgs(entry.kind, data), configId));
  }

  release(taskId: string): void {
    this.track(this.redis.release(1, this.keys.lease(taskId), this.replica));
  }

  /** The task left the store (a reset, retention): a replica that rebuilds does not bring it back. */
  forget(taskId: string): void {
    const { task, events, tasks } = this.keys;
    this.track(this.redis.multi().del(task(taskId), events(taskId)).zrem(tasks, taskId).exec());
  }

  /** Resolves once everything written so far has been answered. */
  flushed(): Promise<unknown> {
    return this.last;
  }

  private logKeys(): string[] {
    const { log, count, bytes, marks } = this.keys;
    return [log, count, bytes, marks];
  }

  private logArgs(kind: string, data: string): (string | number)[] {
    const { logSize, logBytes, entryBytes } = this.settings;
    return [this.replica, logSize, logBytes, entryBytes, kind, data];
  }

  /** The entry as the log holds it; none when it is over `entry-bytes` (the script refuses it too). */
  private encode(entry: Entry): string | undefined {
    const data = JSON.stringify(entry);
    const size = Buffer.byteLength(data);
    if (size <= this.settings.entryBytes) return data;
    const about = 'taskId' in entry ? ` about task ${entry.taskId}` : '';
    this.logger.error(
      `replica: a ${entry.kind} entry${about} of ${formatBytes(size)} is over the store's entry-bytes (${formatBytes(this.settings.entryBytes)}): the other replicas do not get it. Raise entry-bytes in the store URL.`,
    );
    return undefined;
  }

  private track(write: Promise<unknown>, taskId?: string): void {
    this.last = write.catch((error: unknown) => {
      const message = messageOf(error);
      if (taskId !== undefined && message.startsWith('LEASE_LOST')) this.refused(taskId);
      else this.logger.error(`replica: a write to the store failed: ${message}`);
    });
  }
}
