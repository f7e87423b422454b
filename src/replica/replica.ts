/**
 * One replica of a simulator whose tasks live in Redis (`--store redis://…`).
 *
 * Everything shared goes through one Redis stream, the shared log: task events with their seqs,
 * who plays which turn, cancels, push configs, journal entries, faults, deliveries, resets and chaos
 * changes. Each replica follows it into its own store and logs, so the whole simulator is read,
 * streamed and resumed from any replica. Exactly one replica plays a task at a time, under a lease
 * it renews; entries about a task are written only by its lease holder. When a holder stops
 * renewing (it died), another replica takes the lease and the turn over where the log ends: the
 * engine is deterministic, so the script goes on as if nothing happened. A replica that fell behind
 * the log (what it had not read was trimmed) rebuilds its tasks from the snapshots Redis keeps
 * beside it (snapshot.ts), and refuses calls meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ControlChange, ControlPlane } from '../admin/control-plane.js';
import type { A2AError } from '../domain/errors.js';
import { placeOf } from '../domain/scope.js';
import type { PushConfig } from '../domain/types.js';
import type { PausePoint } from '../engine/plan.js';
import { loadFaker } from '../lib/fake-data.js';
import type { Logger } from '../lib/log.js';
import { every, wallDelay, wallNow } from '../lib/clock.js';
import { TurnBatch } from '../lib/turn-batch.js';
import type { SharedPlay, SharedPlays, TaskPlayer, TurnState } from '../runtime/plays.js';
import { MAX_REMEMBERED_REQUESTS } from '../runtime/task-seeds.js';
import type { TaskStore } from '../store/task-store.js';
import { storeKeys, type StoreKeys } from './keys.js';
import { PlayLedger } from './ledger.js';
import { applyEntry, type Entry } from './mirror.js';
import { messageOf, RedisLink } from './redis.js';
import { BehindError, SharedLogReader, type LogFollower } from './log-reader.js';
import { Rebuilder, type RebuildTarget } from './rebuild.js';
import { storeBehind, storeUnavailable } from './store-errors.js';
import type { RedisStoreSettings } from './store-url.js';
import { LogWriter } from './writer.js';

export interface ReplicaHealth {
  kind: 'redis';
  url: string;
  replica: string;
  /** Replicas that renewed their presence within a lease. */
  replicas: number;
  up: boolean;
  /** Fell behind the shared log and rebuilding, or not reading it: what it would answer may be stale. */
  behind: boolean;
}

/** Told that what this replica has is not what Redis has: all of it, or one task's. */
export type BehindListener = (error: A2AError, taskId?: string) => void;

/** Entries the snapshots do not keep: applied even when a rebuild already brought the tasks. */
const UNKEPT: ReadonlySet<Entry['kind']> = new Set(['fault', 'delivery', 'request']);

export class Replica implements SharedPlays {
  /** How this replica is named in the log, the records and `/_sim/health`. */
  readonly id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 4)}`;
  private readonly ledger = new PlayLedger();
  private readonly players = new Map<string, TaskPlayer>();
  /** Tasks whose lease this replica holds. */
  private readonly held = new Set<string>();
  private readonly reader: SharedLogReader;
  private readonly writer: LogWriter;
  private readonly keys: StoreKeys;
  private plane: ControlPlane | undefined;
  /** Set while another replica's entry or a snapshot is applied: what it changes is not logged again. */
  private mirroring = false;
  private stopTicking: (() => void) | undefined;
  private replicaCount = 1;
  private readonly behindListeners = new Set<BehindListener>();
  private readonly rebuilder: Rebuilder;
  /** The repeat counts asked for in one turn of the event loop, counted by one call to Redis. */
  private readonly occurrences = new TurnBatch<string, number>(
    (bases) =>
      this.link.requests.countOccurrences(
        2,
        this.keys.occurrences,
        this.keys.previousOccurrences,
        MAX_REMEMBERED_REQUESTS,
        ...bases,
      ) as Promise<number[]>,
  );

  private constructor(
    private readonly link: RedisLink,
    private readonly settings: RedisStoreSettings,
    private readonly store: TaskStore,
    private readonly logger: Logger,
  ) {
    this.keys = storeKeys(settings.prefix);
    this.rebuilder = new Rebuilder(link.requests, this.keys, this.rebuildTarget());
    this.writer = new LogWriter(link.writer, this.keys, settings, this.id, logger, (taskId) => {
      this.lost(taskId);
      this.rebuilder.resync(taskId);
    });
    const warn = (message: string) => logger.warn(message);
    this.reader = new SharedLogReader(link, this.keys.log, this.followerOfTheLog(), warn);
    store.onEvent((record, event) => {
      if (this.mirroring) return;
      const created = event.seq === 1 && { place: placeOf(record.scope), scenario: record.scenarioId };
      this.writer.appendHeld(record.id, { kind: 'event', ...created, event });
    });
    store.onEvict((record, cause) => {
      this.ledger.forget(record.id);
      // Removed here (a reset, retention, a stop): another replica that still has it may play it.
      if (this.held.has(record.id)) this.letGo(record.id);
      // By this replica's own reset or retention (not another's it applies, not its stop): the
      // snapshot goes too, before the reset's entry, so a replica that rebuilds does not bring it back.
      if (!this.mirroring && cause !== 'cleared') this.writer.forget(record.id);
    });
  }

  /** Connects to the store; a wrong URL or an unreachable Redis is an error naming it. */
  static async connect(settings: RedisStoreSettings, store: TaskStore, logger: Logger): Promise<Replica> {
    return new Replica(await RedisLink.connect(settings), settings, store, logger);
  }

  /** Catches up with the shared log, then follows it and keeps the leases: call before serving. */
  async start(plane: ControlPlane): Promise<void> {
    this.plane = plane;
    plane.faults.onRecord((fault) => this.publishUnlessMirroring({ kind: 'fault', fault: withoutN(fault) }));
    plane.deliveries.onRecord((delivery) =>
      this.publishUnlessMirroring({ kind: 'delivery', delivery: withoutN(delivery) }),
    );
    // The answer's copy (up to 16 KiB) stays with the replica that sent it, off the shared log.
    plane.journal.onComplete((exchange) => {
      const { answer: _answer, ...request } = withoutN(exchange.toJSON());
      this.publishUnlessMirroring({ kind: 'request', request });
    });
    // A task taken over from another replica may render fake data at any moment, from a timer.
    await loadFaker();
    this.reader.start();
    // A replica that starts after the log was trimmed rebuilds first, then serves.
    await this.sync(true);
    await this.tick();
    this.stopTicking = every(Math.max(50, this.settings.lease / 3), () => void this.tick());
  }

  health(): ReplicaHealth {
    return {
      kind: 'redis',
      url: this.settings.shown,
      replica: this.id,
      replicas: this.replicaCount,
      up: this.link.up,
      behind: this.reader.behind,
    };
  }

  /**
   * Resolves once this replica has applied everything the shared log held when asked; refuses
   * while it rebuilds after falling behind. `throughRebuild`: waits for the rebuild instead.
   */
  async sync(throughRebuild = false): Promise<void> {
    try {
      await this.reader.catchUp(throughRebuild);
    } catch (error) {
      throw error instanceof BehindError
        ? storeBehind(this.settings.shown)
        : storeUnavailable(this.settings.shown, error);
    }
  }

  /**
   * Calls `listener` each time this replica finds it fell behind the shared log (`taskId`
   * undefined), or that one task here is not what Redis has; returns what stops it.
   */
  onBehind(listener: BehindListener): () => void {
    this.behindListeners.add(listener);
    return () => this.behindListeners.delete(listener);
  }

  /** Tells the other replicas of a reset or chaos change made through this one's control plane. */
  changed(change: ControlChange): Promise<void> {
    this.writer.publish(change);
    return this.flushed();
  }

  /** Registers who plays the tasks of an agent (`""`: the root agent). */
  register(agent: string, player: TaskPlayer): void {
    this.players.set(agent, player);
  }

  stateOf(taskId: string): SharedPlay | undefined {
    return this.ledger.get(taskId);
  }

  async nextOccurrence(base: string): Promise<number> {
    return (await this.whileUp(this.occurrences.ask(base))) - 1;
  }

  async claim(taskId: string): Promise<boolean> {
    const [held] = await this.whileUp(this.hold([taskId]));
    if (held !== 1) return false;
    this.held.add(taskId);
    return true;
  }

  turnStarted(taskId: string, turn: TurnState): void {
    this.held.add(taskId);
    this.ledger.turnStarted(taskId, turn, this.id);
    this.writer.appendHeld(taskId, { kind: 'turn', taskId, turn });
  }

  paused(taskId: string, pause: PausePoint): void {
    this.ledger.paused(taskId, pause);
    this.writer.appendHeld(taskId, { kind: 'pause', taskId, pause });
    this.letGo(taskId);
  }

  ended(taskId: string): void {
    this.ledger.forget(taskId);
    // The script records the end and gives the lease up with it: no replica takes the task again.
    this.writer.appendHeld(taskId, { kind: 'end', taskId });
    this.held.delete(taskId);
  }

  cancelRequested(taskId: string): void {
    this.ledger.cancelRequested(taskId);
    this.writer.publish({ kind: 'cancel', taskId }, taskId);
  }

  pushConfigSet(taskId: string, config: PushConfig): void {
    this.writer.publish({ kind: 'push-config', taskId, config }, taskId, config.id);
  }

  pushConfigDeleted(taskId: string, configId: string): void {
    this.writer.publish({ kind: 'push-config-deleted', taskId, configId }, taskId, configId);
  }

  /** Resolves once everything this replica has logged so far is in Redis. */
  async flushed(): Promise<void> {
    await this.writer.flushed();
  }

  /** Stops following and gives up this replica's leases: the others take its tasks without waiting for them to lapse. */
  async close(): Promise<void> {
    this.stopTicking?.();
    this.reader.stop();
    for (const taskId of this.held) this.writer.release(taskId);
    await Promise.race([this.writer.flushed(), wallDelay(1_000)]);
    this.link.close();
  }

  /** How this replica follows the shared log: it applies what others wrote, rebuilds if it fell behind. */
  private followerOfTheLog(): LogFollower {
    return {
      applies: (from: string) => from !== this.id,
      entry: (from: string, entry: Entry, covered: boolean) => {
        if (!covered || UNKEPT.has(entry.kind)) this.mirror(entry, from);
      },
      behind: () => this.tellBehind(),
      rebuild: (after: number, next: number) => this.rebuilder.rebuild(after, next),
    };
  }

  private mirror(entry: Entry, from: string): void {
    this.mirroring = true;
    try {
      applyEntry(entry, from, {
        store: this.store,
        ledger: this.ledger,
        plane: this.plane!,
        logger: this.logger,
        release: (taskId) => {
          this.held.delete(taskId);
          this.playerOf(taskId)?.release(taskId);
        },
        cancelHere: (taskId) => {
          if (this.held.has(taskId)) this.playerOf(taskId)?.cancelHere(taskId);
        },
        resync: (taskId) => this.rebuilder.resync(taskId),
      });
    } catch (error) {
      this.logger.warn(`replica: an entry from replica ${from} does not apply here: ${messageOf(error)}`);
    } finally {
      this.mirroring = false;
    }
  }

  private rebuildTarget(): RebuildTarget {
    return {
      store: this.store,
      ledger: this.ledger,
      plane: () => this.plane!,
      logger: this.logger,
      replica: this.id,
      holds: (taskId) => this.held.has(taskId),
      release: (taskId) => this.playerOf(taskId)?.release(taskId),
      replacing: (taskId) => this.tellBehind(taskId),
      quietly: (apply) => {
        this.mirroring = true;
        try {
          apply();
        } finally {
          this.mirroring = false;
        }
      },
      flushed: () => this.writer.flushed(),
    };
  }

  /** Renews this replica's leases and presence, and takes over the tasks whose player is gone. */
  private async tick(): Promise<void> {
    if (!this.link.up) return;
    const { requests } = this.link;
    const { lease } = this.settings;
    try {
      const now = wallNow();
      await requests.zadd(this.keys.replicas, now + lease, this.id);
      await requests.zremrangebyscore(this.keys.replicas, '-inf', now);
      this.replicaCount = await requests.zcard(this.keys.replicas);
      const mine = [...this.held];
      if (mine.length > 0) {
        const kept = await this.hold(mine);
        mine.forEach((taskId, i) => kept[i] !== 1 && this.lost(taskId));
      }
      await this.takeOver();
    } catch (error) {
      this.logger.debug(`replica: lease round failed: ${messageOf(error)}`);
    }
  }

  private async takeOver(): Promise<void> {
    const orphans = this.ledger.playedElsewhere((taskId) => this.held.has(taskId));
    if (orphans.length === 0) return;
    const taken = await this.hold(orphans);
    const adopted = orphans.filter((taskId, i) => {
      if (taken[i] === -1) this.ledger.forget(taskId);
      if (taken[i] !== 1) return false;
      this.held.add(taskId);
      return true;
    });
    if (adopted.length === 0) return;
    // Held now, so the last holder can write no more: once the log is read to its end, nothing it
    // wrote is missing here when the turn is planned again.
    try {
      await this.reader.catchUp();
    } catch (error) {
      for (const taskId of adopted) this.letGo(taskId);
      throw error;
    }
    for (const taskId of adopted) {
      if (!this.held.has(taskId)) continue;
      const from = this.ledger.get(taskId)?.player;
      if (this.playerOf(taskId)?.adopt(taskId)) {
        this.logger.info(`replica: took task ${taskId} over from replica ${from}`);
      } else this.letGo(taskId);
    }
  }

  /** Takes or renews the leases of tasks not ended: 1 held, 0 another's, -1 ended, per task. */
  private async hold(taskIds: string[]): Promise<number[]> {
    const keys = taskIds.flatMap((t) => [this.keys.lease(t), this.keys.task(t)]);
    return (await this.link.requests.hold(keys.length, ...keys, this.id, this.settings.lease)) as number[];
  }

  private lost(taskId: string): void {
    if (this.held.delete(taskId)) {
      this.logger.warn(`replica: task ${taskId} is no longer this replica's to play; it stopped playing it`);
    }
    this.playerOf(taskId)?.release(taskId);
  }

  private letGo(taskId: string): void {
    this.held.delete(taskId);
    this.writer.release(taskId);
  }

  private playerOf(taskId: string): TaskPlayer | undefined {
    const record = this.store.find(taskId);
    return record && this.players.get(record.scope.agent ?? '');
  }

  private publishUnlessMirroring(entry: Entry): void {
    if (!this.mirroring) this.writer.publish(entry);
  }

  /** What Redis answers; its failure as the error a client gets while the store is away. */
  private async whileUp<T>(answer: Promise<T>): Promise<T> {
    try {
      return await answer;
    } catch (error) {
      throw storeUnavailable(this.settings.shown, error);
    }
  }

  private tellBehind(taskId?: string): void {
    const error = storeBehind(this.settings.shown);
    for (const listener of [...this.behindListeners]) listener(error, taskId);
  }
}

function withoutN<T extends { n: number }>(record: T): Omit<T, 'n'> {
  const { n: _n, ...rest } = record;
  return rest;
}
