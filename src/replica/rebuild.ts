/**
 * How a replica comes back to what Redis holds: the whole store when it fell behind the shared log
 * (the entries it had not read were trimmed), one task when Redis refused what it logged of the
 * task or the log skipped some of its events. Redis is the truth: what this replica has that Redis
 * lacks goes, except for the tasks it plays, whose newest entries may still be on their way.
 */
import { setChaos, type ControlPlane } from '../admin/control-plane.js';
import { scopeOf } from '../domain/scope.js';
import type { Logger } from '../lib/log.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { StoreKeys } from './keys.js';
import type { PlayLedger } from './ledger.js';
import { messageOf, type ScriptedRedis } from './redis.js';
import { readSnapshot, readTaskSnapshot, type StoreSnapshot, type TaskSnapshot } from './snapshot.js';

/** Where a snapshot is applied: a replica's own store, ledger and control plane. */
export interface RebuildTarget {
  store: TaskStore;
  ledger: PlayLedger;
  plane(): ControlPlane;
  logger: Logger;
  /** This replica's name. */
  replica: string;
  /** Whether this replica holds the task's lease: then its record may be ahead of Redis. */
  holds(taskId: string): boolean;
  /** Another replica plays the task now, or no one: this one stops. */
  release(taskId: string): void;
  /** The task is about to be made again from its snapshot: what follows it here must not just end. */
  replacing(taskId: string): void;
  /** Applies what changes the store without logging it again (it comes from Redis). */
  quietly(apply: () => void): void;
  /** Resolves once what this replica wrote so far is in Redis. */
  flushed(): Promise<unknown>;
}

export class Rebuilder {
  /** Tasks being brought back to their snapshot. */
  private readonly resyncing = new Set<string>();
  /** Tasks Redis had no whole snapshot of (it lost them): not asked for again. */
  private readonly missing = new Set<string>();

  constructor(
    private readonly redis: ScriptedRedis,
    private readonly keys: StoreKeys,
    private readonly to: RebuildTarget,
  ) {}

  /**
   * The entries after count `after` were trimmed before this replica read them: brings its store to
   * the snapshots once what it wrote itself is in Redis; answers the count they hold.
   */
  async rebuild(after: number, next: number): Promise<number> {
    const { logger } = this.to;
    if (after === 0) {
      logger.info(`replica: the shared log starts at entry ${next}; reading the tasks from the store`);
    } else {
      logger.warn(
        `replica: fell behind the shared log (entries ${after + 1} to ${next - 1} were trimmed before this replica read them); refusing calls while it rebuilds its tasks from the store`,
      );
    }
    await this.to.flushed();
    const snapshot = await readSnapshot(this.redis, this.keys);
    this.to.quietly(() => rebuildStore(snapshot, this.to));
    const plane = this.to.plane();
    if (snapshot.chaos !== undefined && snapshot.chaos !== (plane.chaos.source ?? null)) {
      await setChaos(plane, snapshot.chaos).catch((error: Error) =>
        logger.warn(`replica: chaos "${snapshot.chaos}" does not apply here: ${error.message}`),
      );
    }
    logger.info(
      `replica: rebuilt ${snapshot.tasks.length} tasks from the store, up to entry ${snapshot.covers}`,
    );
    return snapshot.covers;
  }

  /** Brings one task back to its snapshot; a task Redis has no whole snapshot of is left as it is. */
  resync(taskId: string): void {
    if (this.resyncing.has(taskId) || this.missing.has(taskId)) return;
    this.resyncing.add(taskId);
    void (async () => {
      await this.to.flushed();
      const snapshot = await readTaskSnapshot(this.redis, this.keys, taskId);
      if (snapshot) this.to.quietly(() => rebuildTask(snapshot, this.to, false));
      else this.missing.add(taskId);
    })()
      .catch((error: unknown) =>
        this.to.logger.warn(
          `replica: task ${taskId} could not be read back from the store: ${messageOf(error)}`,
        ),
      )
      .finally(() => this.resyncing.delete(taskId));
  }
}

/**
 * Brings the store to the snapshots: tasks it lacks are made, tasks behind get the events they
 * missed (their followers get them too), tasks whose log differs from Redis's are made again from
 * it, and tasks Redis no longer has are removed. Tasks this replica plays keep what it logged.
 */
function rebuildStore(snapshot: StoreSnapshot, to: RebuildTarget): void {
  const known = new Set(snapshot.tasks.map((t) => t.taskId));
  to.store.removeWhere((record) => !known.has(record.id) && !to.holds(record.id));
  for (const task of snapshot.tasks) rebuildTask(task, to, true);
}

/**
 * Brings one task to its snapshot; see {@link rebuildStore}. `whole`: nothing of this replica's is
 * on its way to Redis (it waited for its writes and takes no calls), so push configs the snapshot
 * lacks were deleted; otherwise they may be new, and are kept.
 */
function rebuildTask(snapshot: TaskSnapshot, to: RebuildTarget, whole: boolean): void {
  const { store } = to;
  const { taskId } = snapshot;
  let record = store.find(taskId);
  if (record && !catchUp(record, snapshot, store) && !to.holds(taskId)) {
    to.replacing(taskId);
    store.removeWhere((r) => r === record);
    record = undefined;
  }
  const kept = record !== undefined;
  record ??= create(snapshot, to);
  if (!record) return;
  if (whole || !kept) for (const id of [...record.pushConfigs.keys()]) store.dropPushConfig(record, id);
  for (const config of snapshot.pushConfigs) store.keepPushConfig(record, config, true);
  if (to.holds(taskId)) return;
  if (snapshot.play) to.ledger.restore(taskId, snapshot.play);
  else to.ledger.forget(taskId);
  if (snapshot.play?.player !== to.replica) to.release(taskId);
}

/** Adopts the events the record lacks, if its log is a beginning of the snapshot's; false if not. */
function catchUp(record: TaskRecord, snapshot: TaskSnapshot, store: TaskStore): boolean {
  const latest = record.log.latestSeq;
  const same = snapshot.events[latest - 1];
  const mine = record.log.readAfter(latest - 1)[0];
  if (!same || (mine && (mine.atMs !== same.atMs || mine.event.kind !== same.event.kind))) return false;
  try {
    for (const event of snapshot.events.slice(latest)) store.adoptEvent(record, event);
    return true;
  } catch {
    return false;
  }
}

function create(snapshot: TaskSnapshot, to: RebuildTarget): TaskRecord | undefined {
  const [created, ...rest] = snapshot.events;
  try {
    const record = to.store.adoptCreated(scopeOf(snapshot.place), snapshot.scenario, created!);
    for (const event of rest) to.store.adoptEvent(record, event);
    return record;
  } catch (error) {
    to.logger.warn(`replica: task ${snapshot.taskId} cannot be rebuilt here: ${(error as Error).message}`);
    return undefined;
  }
}
