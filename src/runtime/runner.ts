/**
 * Plays a task's timelines on the clock and appends each event to the store. One `TaskRun` per
 * task that is working or paused; it holds what the pure engine needs to plan the next turn.
 *
 * Only the next due entry is scheduled at any time, so a running task costs one entry in the
 * clock's shared queue however long its script is.
 */
import { isTerminal } from '../domain/lifecycle.js';
import type { Message } from '../domain/types.js';
import type { Clock, Timer } from '../lib/clock.js';
import { Random, taskStreams } from '../lib/random.js';
import {
  sampleDelay,
  standaloneMessage,
  type PausePoint,
  type PlannedEvent,
  type Timeline,
} from '../engine/plan.js';
import type { Scenario } from '../scenario/model.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';

export interface RunnerOptions {
  clock: Clock;
  store: TaskStore;
  /** Divides every scenario delay; 0 plays each turn at once. */
  speed: number;
}

export class TaskRun {
  /** Turns started so far; the first turn is 1. */
  turn = 0;
  /** Set while the task waits for the user; the next turn resumes here. */
  pause: PausePoint | undefined;
  private timer: Timer | undefined;
  private cancelTimer: Timer | undefined;

  constructor(
    readonly record: TaskRecord,
    readonly scenario: Scenario,
    /** The task's own seed: every stream of this task derives from it. */
    readonly seed: string,
    private readonly options: RunnerOptions,
  ) {}

  get cancelPending(): boolean {
    return this.cancelTimer !== undefined;
  }

  /** The seeded streams for the turn about to start. */
  nextTurnStreams(): ReturnType<typeof taskStreams> {
    return taskStreams(`${this.seed}/turn-${this.turn + 1}`);
  }

  /** Plays `timeline` from `startedAt` (clock time). Entries already due are applied before returning. */
  play(timeline: Timeline, startedAt: number): void {
    this.turn++;
    this.pause = undefined;
    this.schedule(timeline, 0, startedAt);
  }

  /**
   * Cancels the task once the scenario's cancel delay has passed; the task keeps working meanwhile.
   * A zero delay cancels before returning.
   */
  requestCancel(): void {
    if (this.cancelTimer) return;
    const { cancel } = this.scenario;
    const random = new Random(`${this.seed}/cancel`);
    const delay = this.scale(sampleDelay(cancel.after, random));
    const apply = () => {
      this.stop();
      const message = cancel.message && this.agentMessage(cancel.message, random);
      this.apply({ kind: 'status', state: 'canceled', ...(message && { message }) });
    };
    if (delay === 0) {
      this.cancelTimer = { cancel() {} };
      apply();
    } else {
      this.cancelTimer = this.options.clock.setTimer(delay, apply);
    }
  }

  /** Stops playing; nothing more will be appended by this run. */
  stop(): void {
    this.timer?.cancel();
    this.cancelTimer?.cancel();
    this.timer = undefined;
    this.cancelTimer = undefined;
  }

  private schedule(timeline: Timeline, from: number, startedAt: number): void {
    const { clock } = this.options;
    let index = from;
    while (index < timeline.entries.length) {
      const entry = timeline.entries[index]!;
      const due = startedAt + this.scale(entry.atMs);
      if (due > clock.now()) {
        this.timer = clock.setTimer(due - clock.now(), () => this.schedule(timeline, index, startedAt));
        return;
      }
      this.apply(entry.event);
      if (!this.options.store.has(this.record.id)) return;
      index++;
    }
    this.timer = undefined;
    if (timeline.end.kind === 'paused') this.pause = timeline.end.pause;
  }

  private apply(event: PlannedEvent): void {
    const now = this.options.clock.now();
    if (event.kind === 'status') {
      const status = {
        state: event.state,
        timestamp: new Date(now).toISOString(),
        ...(event.message && { message: event.message }),
      };
      this.options.store.append(this.record, { kind: 'status', status }, now);
      // A cancel still taking effect has nothing left to cancel once the script has ended the task.
      if (isTerminal(event.state)) this.stop();
    } else {
      this.options.store.append(this.record, event, now);
    }
  }

  private agentMessage(parts: NonNullable<Scenario['cancel']['message']>, random: Random): Message {
    const task = this.record.task;
    return standaloneMessage(parts, {
      scenario: this.scenario,
      message: task.history.findLast((m) => m.role === 'user') ?? task.history[0]!,
      taskId: task.id,
      contextId: task.contextId,
      nowMs: this.options.clock.now(),
      streams: { ids: random.fork('ids'), content: random.fork('content'), timing: random.fork('timing') },
    });
  }

  private scale(ms: number): number {
    return this.options.speed === 0 ? 0 : ms / this.options.speed;
  }
}
