/**
 * One task as the store keeps it: its live state, its event log, its scope and webhooks, and what it
 * holds against the store's byte budget. The store changes it; everyone else reads it.
 */
import { LiveTask } from '../domain/lifecycle.js';
import type { Scope } from '../domain/scope.js';
import type { PushConfig, Task, TaskEvent, TaskStatus } from '../domain/types.js';
import type { EventLog } from './event-log.js';

/** What one scope's tasks hold together. */
export interface ScopeShare {
  bytes: number;
}

const NO_PUSH_CONFIGS: ReadonlyMap<string, PushConfig> = new Map();

export class TaskRecord {
  private configs: Map<string, PushConfig> | undefined;
  private readonly live: LiveTask;
  /** The status {@link statusTimeMs} was read from, and what it read. */
  private timedStatus: TaskStatus | undefined;
  private timeMs = 0;

  constructor(
    readonly scope: Scope,
    readonly scenarioId: string,
    task: Task,
    readonly log: EventLog,
    /** Store-wide counter of status changes: breaks ties between equal status timestamps in listings. */
    public statusOrder: number,
    /** What the task holds, approximately: its events and push configs, by domain/size.ts. */
    public bytes = 0,
    /** What its scope's tasks hold together, shared by them. */
    readonly share: ScopeShare = { bytes: 0 },
  ) {
    this.live = new LiveTask(task);
  }

  get id(): string {
    return this.live.id;
  }

  /** The task's webhooks, by config id, in creation order: kept through the store, which counts them. */
  get pushConfigs(): ReadonlyMap<string, PushConfig> {
    return this.configs ?? NO_PUSH_CONFIGS;
  }

  /** @internal The store's, which counts them: the map to change (made on first use: most tasks have none). */
  editPushConfigs(): Map<string, PushConfig> {
    return (this.configs ??= new Map());
  }

  get contextId(): string {
    return this.live.contextId;
  }

  get status(): TaskStatus {
    return this.live.status;
  }

  /** The status timestamp in epoch ms (0 if it does not parse), read once for each status. */
  get statusTimeMs(): number {
    const { status } = this.live;
    if (status !== this.timedStatus) {
      this.timedStatus = status;
      this.timeMs = Date.parse(status.timestamp) || 0;
    }
    return this.timeMs;
  }

  /** The task's generation (v1.1 draft §3.2.7), when the store keeps generations. */
  get generation(): number | undefined {
    return this.live.generation;
  }

  /** The task as of the latest event, as a value: copied when first asked for after a change. */
  get task(): Task {
    return this.live.snapshot();
  }

  /** @internal The store's: applies an event it has checked. */
  apply(event: TaskEvent): void {
    this.live.apply(event);
  }
}
