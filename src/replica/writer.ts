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
import type { StoreKeys } from './keys.js';
import type { Entry } from './mirror.js';
import { messageOf, type ScriptedRedis } from './redis.js';
import type { RedisStoreSettings } from './store-url.js';

/** What one batch of entries may hold before it is sent, whatever the tick: a write stays bounded. */
const BATCH_ENTRIES = 256;
const BATCH_BYTES = 1024 ** 2;

/** The entries made in one run of the process's code, sent as one script call at the next tick. */
interface Batch {
  keys: string[];
  args: (string | number)[];
  /** Per entry, the task whose lease it needs (a refusal loses the task), if any. */
  tasks: (string | undefined)[];
  bytes: number;
  /** Settles what {@link LogWriter.flushed} gave out once Redis answered the batch, or it failed. */
  settle(): void;
}

type Op = 'create' | 'append' | 'publish' | 'release';

export class LogWriter {
  private last: Promise<unknown> = Promise.resolve();
  private batch: Batch | undefined;

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
    const creates = entry.kind === 'event' && entry.event.seq === 1;
    this.add(creates ? 'create' : 'append', taskId, entry.kind, data, taskId);
  }

  /** Logs an entry any replica may write; `taskId` and `configId` say which snapshot it changes. */
  publish(entry: Entry, taskId?: string, configId = ''): void {
    const data = this.encode(entry);
    if (data !== undefined) this.add('publish', taskId, entry.kind, data, configId);
  }

  release(taskId: string): void {
    this.add('release', taskId, '', '', taskId);
  }

  /** The task left the store (a reset, retention): a replica that rebuilds does not bring it back. */
  forget(taskId: string): void {
    const { task, events, tasks } = this.keys;
    this.send();
    this.track(this.redis.multi().del(task(taskId), events(taskId)).zrem(tasks, taskId).exec());
  }

  /** Resolves once everything written so far has been answered. */
  flushed(): Promise<unknown> {
    return this.last;
  }

  /**
   * Adds an entry to the open batch. The entries of one run (a send's first events, a timer's, the
   * timers due together under load) cost Redis one script call and the process one write.
   */
  private add(op: Op, taskId: string | undefined, kind: string, data: string, argument: string): void {
    const batch = (this.batch ??= this.open());
    const { lease, task, events, chaos } = this.keys;
    if (taskId === undefined) batch.keys.push(chaos, chaos, chaos);
    else batch.keys.push(lease(taskId), task(taskId), events(taskId));
    batch.args.push(op, kind, data, argument);
    batch.tasks.push(op === 'publish' ? undefined : taskId);
    batch.bytes += data.length;
    if (batch.tasks.length >= BATCH_ENTRIES || batch.bytes >= BATCH_BYTES) this.send();
  }

  private open(): Batch {
    const { log, count, bytes, marks, chaos, tasks } = this.keys;
    const { logSize, logBytes, entryBytes, lease } = this.settings;
    let settle!: () => void;
    const answered = new Promise<void>((resolve) => (settle = resolve));
    this.last = answered;
    process.nextTick(() => this.send());
    return {
      keys: [log, count, bytes, marks, chaos, tasks],
      args: [this.replica, logSize, logBytes, entryBytes, lease],
      tasks: [],
      bytes: 0,
      settle,
    };
  }

  /** Sends the open batch, if any: batches leave in the order they were made, on one connection. */
  private send(): void {
    const batch = this.batch;
    if (batch === undefined) return;
    this.batch = undefined;
    const { keys, args, tasks } = batch;
    this.redis
      .writeEntries(keys.length, ...keys, ...args)
      .then(
        (answers) => (answers as (number | string)[]).forEach((answer, i) => this.answered(answer, tasks[i])),
        (error: unknown) => this.failed(error),
      )
      .catch((error: unknown) => this.failed(error))
      .finally(batch.settle);
  }

  private answered(answer: number | string, taskId: string | undefined): void {
    if (typeof answer === 'number') return;
    if (taskId !== undefined && answer.startsWith('LEASE_LOST')) this.refused(taskId);
    else this.failed(answer);
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

  private track(write: Promise<unknown>): void {
    this.last = write.catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    this.logger.error(
      `replica: a write to the store failed: ${typeof error === 'string' ? error : messageOf(error)}`,
    );
  }
}
