/**
 * One replica of a simulator whose tasks live in Redis (`--store redis://…`).
 *
 * Everything shared goes through one Redis stream, the shared log: task events with their seqs,
 * who plays which turn, cancels, push configs, journal entries, faults, deliveries, resets and chaos
 * changes. Each replica follows it into its own store and logs, so the whole simulator is read,
 * streamed and resumed from any replica. Exactly one replica plays a task at a time, under a lease
 * it renews; entries about a task are written only by its lease holder. When a holder stops
 * renewing (it died), another replica takes the lease and the turn over where the log ends: the
 * engine is deterministic, so the script goes on as if nothing happened.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ControlChange, ControlPlane } from '../admin/control-plane.js';
import { A2AError } from '../domain/errors.js';
import { placeOf } from '../domain/scope.js';
import type { PushConfig } from '../domain/types.js';
import type { PausePoint } from '../engine/plan.js';
import { loadFaker } from '../lib/fake-data.js';
import type { Logger } from '../lib/log.js';
import { every, wallDelay, wallNow } from '../lib/clock.js';
import type { SharedPlay, SharedPlays, TaskPlayer, TurnState } from '../runtime/plays.js';
import type { TaskStore } from '../store/task-store.js';
import { PlayLedger } from './ledger.js';
import { applyEntry, type Entry } from './mirror.js';
import { messageOf, RedisLink } from './redis.js';
import { SharedLogReader } from './log-reader.js';
import type { RedisStoreSettings } from './store-url.js';

export interface ReplicaHealth {
  kind: 'redis';
  url: string;
  replica: string;
  /** Replicas that renewed their presence within a lease. */
  replicas: number;
  up: boolean;
}

export class Replica implements SharedPlays {
  /** How this replica is named in the log, the records and `/_sim/health`. */
  readonly id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 4)}`;
  private readonly ledger = new PlayLedger();
  private readonly players = new Map<string, TaskPlayer>();
  /** Tasks whose lease this replica holds. */
  private readonly held = new Set<string>();
  private readonly reader: SharedLogReader;
  private readonly keys;
  private plane: ControlPlane | undefined;
  /** Set while an entry from another replica is applied: what it changes is not logged again. */
  private mirroring = false;
  private lastWrite: Promise<unknown> = Promise.resolve();
  private stopTicking: (() => void) | undefined;
  private replicaCount = 1;

  private constructor(
    private readonly link: RedisLink,
    private readonly settings: RedisStoreSettings,
    private readonly store: TaskStore,
    private readonly logger: Logger,
  ) {
    const { prefix } = settings;
    this.keys = { log: `${prefix}log`, occurrences: `${prefix}occurrences`, replicas: `${prefix}replicas` };
    this.reader = new SharedLogReader(link, this.keys.log, (from, entry) => {
      if (from !== this.id) this.mirror(entry, from);
    });
    store.onEvent((record, event) => {
      if (this.mirroring) return;
      const created = event.seq === 1 && { place: placeOf(record.scope), scenario: record.scenarioId };
      this.appendHeld(record.id, { kind: 'event', ...created, event });
    });
    store.onEvict((record) => {
      this.ledger.forget(record.id);
      // Removed here (a reset, retention, a stop): another replica that still has it may play it.
      if (this.held.has(record.id)) this.letGo(record.id);
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
    plane.journal.onComplete((exchange) =>
      this.publishUnlessMirroring({ kind: 'request', request: withoutN(exchange.toJSON()) }),
    );
    // A task taken over from another replica may render fake data at any moment, from a timer.
    await loadFaker();
    this.reader.start();
    await this.sync();
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
    };
  }

  /** Resolves once this replica has applied everything the shared log held when asked. */
  async sync(): Promise<void> {
    try {
      await this.reader.catchUp();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** Tells the other replicas of a reset or chaos change made through this one's control plane. */
  changed(change: ControlChange): void {
    this.publish(change);
  }

  /** Registers who plays the tasks of an agent (`""`: the root agent). */
  register(agent: string, player: TaskPlayer): void {
    this.players.set(agent, player);
  }

  stateOf(taskId: string): SharedPlay | undefined {
    return this.ledger.get(taskId);
  }

  async nextOccurrence(base: string): Promise<number> {
    try {
      return (await this.link.requests.hincrby(this.keys.occurrences, base, 1)) - 1;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async claim(taskId: string): Promise<boolean> {
    let held: unknown;
    try {
      held = await this.link.requests.hold(1, this.leaseKey(taskId), this.id, this.settings.lease);
    } catch (error) {
      throw this.unavailable(error);
    }
    if ((held as number[])[0] !== 1) return false;
    this.held.add(taskId);
    return true;
  }

  turnStarted(taskId: string, turn: TurnState): void {
    this.held.add(taskId);
    this.ledger.turnStarted(taskId, turn, this.id);
    this.appendHeld(taskId, { kind: 'turn', taskId, turn });
  }

  paused(taskId: string, pause: PausePoint): void {
    this.ledger.paused(taskId, pause);
    this.appendHeld(taskId, { kind: 'pause', taskId, pause });
    this.letGo(taskId);
  }

  ended(taskId: string): void {
    this.ledger.forget(taskId);
    this.appendHeld(taskId, { kind: 'end', taskId });
    this.letGo(taskId);
  }

  cancelRequested(taskId: string): void {
    this.ledger.cancelRequested(taskId);
    this.publish({ kind: 'cancel', taskId });
  }

  pushConfigSet(taskId: string, config: PushConfig): void {
    this.publish({ kind: 'push-config', taskId, config });
  }

  pushConfigDeleted(taskId: string, configId: string): void {
    this.publish({ kind: 'push-config-deleted', taskId, configId });
  }

  /** Resolves once everything this replica has logged so far is in Redis. */
  async flushed(): Promise<void> {
    await this.lastWrite;
  }

  /** Stops following and gives up this replica's leases: the others take its tasks without waiting for them to lapse. */
  async close(): Promise<void> {
    this.stopTicking?.();
    this.reader.stop();
    const leases = [...this.held].map((taskId) =>
      this.link.requests.release(1, this.leaseKey(taskId), this.id),
    );
    await Promise.race([Promise.allSettled([this.lastWrite, ...leases]), wallDelay(1_000)]);
    this.link.close();
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
      });
    } catch (error) {
      this.logger.warn(`replica: an entry from replica ${from} does not apply here: ${messageOf(error)}`);
    } finally {
      this.mirroring = false;
    }
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
        const kept = (await requests.hold(
          mine.length,
          ...mine.map((t) => this.leaseKey(t)),
          this.id,
          lease,
        )) as number[];
        mine.forEach((taskId, i) => kept[i] === 0 && this.lost(taskId));
      }
      await this.takeOver();
    } catch (error) {
      this.logger.debug(`replica: lease round failed: ${messageOf(error)}`);
    }
  }

  private async takeOver(): Promise<void> {
    const orphans = this.ledger.playedElsewhere((taskId) => this.held.has(taskId));
    if (orphans.length === 0) return;
    // Whatever the last holder logged must be here before the turn is planned again.
    await this.reader.catchUp();
    const keys = orphans.map((t) => this.leaseKey(t));
    const taken = (await this.link.requests.hold(
      keys.length,
      ...keys,
      this.id,
      this.settings.lease,
    )) as number[];
    orphans.forEach((taskId, i) => {
      if (taken[i] !== 1) return;
      this.held.add(taskId);
      const from = this.ledger.get(taskId)?.player;
      if (this.playerOf(taskId)?.adopt(taskId)) {
        this.logger.info(`replica: took task ${taskId} over from replica ${from}`);
      } else this.letGo(taskId);
    });
  }

  private lost(taskId: string): void {
    this.logger.warn(`replica: task ${taskId} is played by another replica now; this one stopped playing it`);
    this.held.delete(taskId);
    this.playerOf(taskId)?.release(taskId);
  }

  private letGo(taskId: string): void {
    this.held.delete(taskId);
    this.track(this.link.writer.release(1, this.leaseKey(taskId), this.id), taskId);
  }

  private playerOf(taskId: string): TaskPlayer | undefined {
    const record = this.store.find(taskId);
    return record && this.players.get(record.scope.agent ?? '');
  }

  /** Logs an entry about a task, if this replica still holds the task's lease. */
  private appendHeld(taskId: string, entry: Entry): void {
    const { writer } = this.link;
    const { lease, logSize } = this.settings;
    const write = writer.appendHeld(
      2,
      this.keys.log,
      this.leaseKey(taskId),
      this.id,
      lease,
      logSize,
      entry.kind,
      JSON.stringify(entry),
    );
    this.track(write, taskId);
  }

  private publishUnlessMirroring(entry: Entry): void {
    if (!this.mirroring) this.publish(entry);
  }

  private publish(entry: Entry): void {
    const write = this.link.writer.xadd(
      this.keys.log,
      'MAXLEN',
      '~',
      this.settings.logSize,
      '*',
      'r',
      this.id,
      'k',
      entry.kind,
      'd',
      JSON.stringify(entry),
    );
    this.track(write);
  }

  /** Writes answer in order on one connection: waiting for the last is waiting for them all. */
  private track(write: Promise<unknown>, taskId?: string): void {
    this.lastWrite = write.catch((error: unknown) => {
      if (taskId !== undefined && messageOf(error).startsWith('LEASE_LOST')) this.lost(taskId);
      else this.logger.error(`replica: a write to the store failed: ${messageOf(error)}`);
    });
  }

  private leaseKey(taskId: string): string {
    return `${this.settings.prefix}lease:${taskId}`;
  }

  private unavailable(error: unknown): A2AError {
    return new A2AError(
      'UnavailableError',
      `Service unavailable: the shared store ${this.settings.shown} cannot be reached (${messageOf(error)}); retry once GET /_sim/health answers 200.`,
      { reason: 'STORE_UNAVAILABLE', retryAfterMs: 1_000 },
    );
  }
}

function withoutN<T extends { n: number }>(record: T): Omit<T, 'n'> {
  const { n: _n, ...rest } = record;
  return rest;
}
