/**
 * All tasks, in memory, each with its event log. Tasks live in a scope (a tenant, later a
 * workspace and agent): a task outside the caller's scope does not exist for that caller.
 *
 * Memory stays bounded through a day-long demo: terminal tasks expire after `terminalTtl`, and
 * past `maxTasks` the oldest terminal tasks go first, then the oldest of the rest. Tasks are
 * counted in bytes too (see domain/size.ts): past `maxStoreBytes` the oldest ended tasks go, and when
 * only running or waiting ones remain, new work is refused rather than the heap exhausted.
 */
import { A2AError } from '../domain/errors.js';
import { canApply, isInterrupted, isTerminal } from '../domain/lifecycle.js';
import type { Scope } from '../domain/scope.js';
import { eventBytes, pushConfigBytes } from '../domain/size.js';
import type {
  ListTasksQuery,
  LoggedEvent,
  PushConfig,
  PushConfigInput,
  Task,
  TaskEvent,
} from '../domain/types.js';
import { AgeQueue } from './age-queue.js';
import { storeFullError } from './store-full.js';
import { ContextIndex } from './context-index.js';
import { EventLog } from './event-log.js';
import type { KeptEvent } from './kept-event.js';
import { pageOf, type Page } from './task-page.js';
import { TaskRecord, type ScopeShare } from './task-record.js';

export { TaskRecord };

export interface RetentionOptions {
  maxTasks: number;
  /** How long an ended task is kept, ms. */
  terminalTtl: number;
  /** Events kept per task for replay; older ones are dropped first. */
  maxEventsPerTask: number;
  /** How long an event stays replayable, ms. */
  eventTtl: number;
  /** What all tasks together may hold, approximately (domain/size.ts); ended tasks make room first. */
  maxStoreBytes: number;
  /** How long a task may wait for input (or auth) without a follow-up before it is forgotten, ms. */
  inputTtl?: number;
  /** The part of `maxStoreBytes` one scope's tasks may hold, so that one cannot lock the others out. */
  scopeShare?: number;
}

/** A task waiting for input is forgotten after this long without a follow-up, by default. */
export const DEFAULT_INPUT_TTL_MS = 60 * 60 * 1000;
/** One scope's tasks may hold this part of the store's budget, by default. */
export const DEFAULT_SCOPE_SHARE = 0.75;

/** Why a task left the store: its retention, a removal asked for (a reset), or the store closing. */
export type EvictionCause = 'retention' | 'removed' | 'cleared';

export type TaskPage = Page<TaskRecord>;

/** Hears each logged event; `kept`: the form its log keeps it in, for a listener that keeps it. */
export type EventListener = (record: TaskRecord, event: LoggedEvent, kept: KeptEvent) => void;

export class TaskStore {
  private readonly records = new Map<string, TaskRecord>();
  /** Terminal tasks in the order they ended, with the time they ended: the eviction queue. */
  private readonly ended = new AgeQueue();
  /** Tasks waiting for input or auth, in the order they paused, with the time they did. */
  private readonly waiting = new AgeQueue();
  private readonly shares = new Map<string, ScopeShare>();
  private readonly contexts = new ContextIndex<TaskRecord>();
  private statusCounter = 0;
  private heldBytes = 0;
  /** The latest clock time it was told of, for the waiting tasks' TTL. */
  private lastNow = 0;
  private readonly evictionListeners: ((record: TaskRecord, cause: EvictionCause) => void)[] = [];
  // Replaced, never changed in place: a listener may stop itself while the list is being called.
  private eventListeners: readonly EventListener[] = [];
  /** Every log's append hook (one, not a closure per task): listeners hear before the streams do. */
  private readonly logged = (event: LoggedEvent, kept: KeptEvent, log: EventLog): void => {
    const record = this.records.get(event.taskId);
    if (record?.log === log) for (const listener of this.eventListeners) listener(record, event, kept);
  };

  /** With `generation`, each task counts its generation (v1.1 draft §3.2.7, `--preview generation`). */
  constructor(
    private readonly retention: RetentionOptions,
    private readonly keeps: { generation?: boolean } = {},
  ) {}

  get size(): number {
    return this.records.size;
  }

  /** What all tasks hold, approximately (domain/size.ts). */
  get bytes(): number {
    return this.heldBytes;
  }

  /** The scopes (agents, workspaces, tenants) that hold tasks now. */
  get scopes(): number {
    return this.shares.size;
  }

  /** Called for each task the retention policy (or a reset) removes. */
  onEvict(listener: (record: TaskRecord, cause: EvictionCause) => void): void {
    this.evictionListeners.push(listener);
  }

  /** Called for every event logged by any task, its creation (seq 1) included; returns what stops it. */
  onEvent(listener: EventListener): () => void {
    this.eventListeners = [...this.eventListeners, listener];
    return () => {
      this.eventListeners = this.eventListeners.filter((l) => l !== listener);
    };
  }

  /** Every task, in every scope, oldest first: for the control plane, never for a client. */
  all(): IterableIterator<TaskRecord> {
    return this.records.values();
  }

  /** The task with this id in whatever scope: for the control plane, never for a client. */
  find(id: string): TaskRecord | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  /** The task, if it exists in `scope`. */
  get(id: string, scope: Scope): TaskRecord | undefined {
    const record = this.records.get(id);
    return record && record.scope.key === scope.key ? record : undefined;
  }

  /**
   * Stores a new task and logs its creation as event 1; refuses it when the byte budget is spent.
   * With `pushConfig`, the webhook its message carries: room is made for both, so that a task is
   * never created only for its config to be refused.
   */
  create(
    given: Task,
    scope: Scope,
    scenarioId: string,
    atMs: number,
    pushConfig?: PushConfigInput,
  ): TaskRecord {
    // §3.2.7: a task is created at generation 1.
    const task = this.keeps.generation ? { ...given, generation: 1 } : given;
    const record = this.open(task, scope, scenarioId, atMs, pushConfig ? pushConfigBytes(pushConfig) : 0);
    const { id: taskId, contextId, generation } = task;
    record.log.append({ taskId, contextId, atMs, event: { kind: 'task', task }, generation });
    return record;
  }

  /**
   * Stores a task another process created, its creation logged as `created` (seq 1): how a replica
   * mirrors the shared store (src/replica/).
   */
  adoptCreated(scope: Scope, scenarioId: string, created: LoggedEvent): TaskRecord {
    if (created.event.kind !== 'task') {
      throw new Error(`Task ${created.taskId} opens with a ${created.event.kind} event, not its Task.`);
    }
    const record = this.open(created.event.task, scope, scenarioId, created.atMs);
    record.log.adopt(created);
    return record;
  }

  /** `comingBytes`: what the task will hold at once besides its creation (made room for, not held). */
  private open(task: Task, scope: Scope, scenarioId: string, atMs: number, comingBytes = 0): TaskRecord {
    this.evict(atMs);
    const bytes = eventBytes({ kind: 'task', task });
    this.admit(bytes + comingBytes, scope);
    const log = new EventLog(this.retention.maxEventsPerTask, this.retention.eventTtl, this.logged);
    let share = this.shares.get(scope.key);
    if (!share) this.shares.set(scope.key, (share = { bytes: 0 }));
    const record = new TaskRecord(scope, scenarioId, task, log, ++this.statusCounter, 0, share);
    this.records.set(task.id, record);
    this.contexts.add(record);
    this.hold(record, bytes);
    return record;
  }

  /** Applies an event to the task and appends it to the log. Terminal tasks refuse further events. */
  append(record: TaskRecord, event: TaskEvent, atMs: number): LoggedEvent {
    this.applyChecked(record, event, atMs);
    const { id: taskId, contextId, generation } = record;
    return record.log.append({ taskId, contextId, atMs, event, generation });
  }

  /** Applies and logs an event another process logged first, with its seq (see {@link adoptCreated}). */
  adoptEvent(record: TaskRecord, logged: LoggedEvent): LoggedEvent {
    this.applyChecked(record, logged.event, logged.atMs);
    return record.log.adopt(logged);
  }

  private applyChecked(record: TaskRecord, event: TaskEvent, atMs: number): void {
    if (!canApply(record, event)) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Task ${record.id} is already ${record.status.state}; a terminal task cannot change.`,
        { metadata: { taskId: record.id } },
      );
    }
    record.apply(event);
    this.lastNow = Math.max(this.lastNow, atMs);
    this.hold(record, eventBytes(event));
    if (event.kind === 'status') {
      record.statusOrder = ++this.statusCounter;
      const { state } = event.status;
      this.waiting.delete(record.id);
      if (isTerminal(state)) this.ended.set(record.id, atMs);
      else if (isInterrupted(state)) this.waiting.set(record.id, atMs);
    }
  }

  /**
   * Keeps a webhook config on the task (replacing the one with its id), counted in the task's bytes
   * like its events: one that does not fit is refused as a message would be, unless another replica
   * kept it first (`mirrored`) and this one only follows.
   */
  keepPushConfig(record: TaskRecord, config: PushConfig, mirrored = false): void {
    const previous = record.pushConfigs.get(config.id);
    const bytes = pushConfigBytes(config) - (previous ? pushConfigBytes(previous) : 0);
    if (!mirrored && bytes > 0) {
      this.admit(bytes, record.scope, { keep: record, what: 'the push notification config' });
    }
    record.editPushConfigs().set(config.id, config);
    this.hold(record, bytes);
  }

  /** Forgets one of the task's webhook configs, and what it counted; the config, if there was one. */
  dropPushConfig(record: TaskRecord, configId: string): PushConfig | undefined {
    const config = record.pushConfigs.get(configId);
    if (!config) return undefined;
    record.editPushConfigs().delete(configId);
    this.hold(record, -pushConfigBytes(config));
    return config;
  }

  /**
   * Makes room for `bytes` more (a new message, say): ended tasks go, oldest first, until they fit,
   * all but `keep` (the task the bytes are for). When the running and waiting tasks alone fill the
   * budget, refuses: a task in progress is what a client was promised, and is never dropped to make room.
   */
  admit(
    bytes: number,
    scope?: Scope,
    { keep, what = 'the message' }: { keep?: TaskRecord; what?: string } = {},
  ): void {
    const { maxStoreBytes: maxBytes } = this.retention;
    const share = scope && this.shares.get(scope.key);
    const maxShare = Math.floor(maxBytes * (this.retention.scopeShare ?? DEFAULT_SCOPE_SHARE));
    const storeFull = () => this.heldBytes + bytes > maxBytes;
    const shareFull = () => share !== undefined && share.bytes + bytes > maxShare;
    if (storeFull() || shareFull()) {
      // Ended tasks make room: any of them for the store, the scope's own for its share.
      for (const [id] of this.ended.entries()) {
        if (!storeFull() && !shareFull()) break;
        const record = this.records.get(id)!;
        if (record !== keep && (storeFull() || record.share === share)) this.remove(record, 'retention');
      }
    }
    if (storeFull()) this.forgetIdleWaiting(this.lastNow, storeFull, keep);
    if (storeFull()) throw storeFullError(what, { heldBytes: this.heldBytes, maxBytes, bytes });
    const scopeShare = this.retention.scopeShare ?? DEFAULT_SCOPE_SHARE;
    if (shareFull())
      throw storeFullError(what, { heldBytes: share!.bytes, maxBytes: maxShare, bytes }, scopeShare);
  }

  /** Forgets the tasks that waited for input longer than the TTL, oldest first, while `needed`, up to `keep`. */
  private forgetIdleWaiting(nowMs: number, needed: () => boolean = () => true, keep?: TaskRecord): void {
    const ttl = this.retention.inputTtl ?? DEFAULT_INPUT_TTL_MS;
    for (let oldest = this.waiting.oldest(); oldest; oldest = this.waiting.oldest()) {
      const [id, pausedAt] = oldest;
      const record = this.records.get(id)!;
      if (pausedAt > nowMs - ttl || !needed() || record === keep) break;
      this.remove(record, 'retention');
    }
  }

  /** The tasks of one context in `scope`, oldest first. */
  inContext(scope: Scope, contextId: string): TaskRecord[] {
    return this.contexts.of(scope, contextId);
  }

  /** One page of the tasks in `scope` that pass the filters, most recently updated first. */
  list(scope: Scope, query: ListTasksQuery): TaskPage {
    return pageOf(this.records.values(), scope, query);
  }

  /** Removes every task, e.g. for a test's clean slate. */
  clear(): void {
    for (const record of [...this.records.values()]) this.remove(record, 'cleared');
  }

  /** Removes the tasks that `matches`; returns how many. */
  removeWhere(matches: (record: TaskRecord) => boolean): number {
    const doomed = [...this.records.values()].filter(matches);
    for (const record of doomed) this.remove(record, 'removed');
    return doomed.length;
  }

  private evict(nowMs: number): void {
    this.lastNow = Math.max(this.lastNow, nowMs);
    this.forgetIdleWaiting(nowMs);
    for (let oldest = this.ended.oldest(); oldest; oldest = this.ended.oldest()) {
      const [id, endedAt] = oldest;
      if (endedAt > nowMs - this.retention.terminalTtl && this.records.size < this.retention.maxTasks) break;
      this.remove(this.records.get(id)!, 'retention');
    }
    // Every remaining task is active or paused: past the cap, the oldest goes.
    while (this.records.size >= this.retention.maxTasks) {
      const oldest = this.records.values().next().value as TaskRecord;
      this.remove(oldest, 'retention');
    }
  }

  private hold(record: TaskRecord, bytes: number): void {
    record.bytes += bytes;
    record.share.bytes += bytes;
    this.heldBytes += bytes;
  }

  private remove(record: TaskRecord, cause: EvictionCause): void {
    this.heldBytes -= record.bytes;
    // A scope's share goes with its last task: a client names scopes (tenants), as many as it likes.
    if ((record.share.bytes -= record.bytes) === 0) this.shares.delete(record.scope.key);
    this.records.delete(record.id);
    this.contexts.remove(record);
    this.ended.delete(record.id);
    this.waiting.delete(record.id);
    record.log.close();
    for (const listener of this.evictionListeners) listener(record, cause);
  }
}
