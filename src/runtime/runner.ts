/**
 * Plays a task's turns on the clock and appends each event to the store. One `TaskRun` per
 * task that is working or paused; it holds what the pure engine needs to plan the next turn.
 *
 * Only the next due entry is planned and scheduled at any time, so a running task costs one entry
 * in the clock's shared queue, and one planned event in memory, however long its script is.
 */
import { isTerminal } from '../domain/lifecycle.js';
import type { Message } from '../domain/types.js';
import type { Clock, Timer } from '../lib/clock.js';
import { sampleDelay } from '../lib/delay.js';
import { isoTime } from '../lib/iso-time.js';
import { Random } from '../lib/random.js';
import {
  standaloneMessage,
  type PausePoint,
  type PlannedEvent,
  type TimelineEntry,
  type TurnPlan,
} from '../engine/plan.js';
import type { Scenario } from '../scenario/model.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { SharedPlays } from './plays.js';

export interface RunnerOptions {
  clock: Clock;
  /** What templates see as now, for a clock time (lib/content-time.ts). */
  contentTime: (nowMs: number) => number;
  store: TaskStore;
  /** Divides every scenario delay; 0 plays each turn at once. */
  speed: number;
  /** Present when replicas share the tasks: told when a turn pauses and when the task ends. */
  plays?: SharedPlays;
}

export class TaskRun {
  /** Turns started so far; the first turn is 1. */
  turn = 0;
  /** Set while the task waits for the user; the next turn resumes here. */
  pause: PausePoint | undefined;
  private timer: Timer | undefined;
  private cancelTimer: Timer | undefined;
  /** The turn being played: its plan, its start (clock time) and its next entry, planned ahead. */
  private plan: TurnPlan | undefined;
  private startedAt = 0;
  private pending: TimelineEntry | undefined;
  /**
   * One callback for every timer of this run: an event costs its timer entry and nothing more.
   * Made by the first timer: a turn played at once (speed 0) never needs it.
   */
  private onDue: (() => void) | undefined;

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

  /** Plays a turn from `startedAt` (clock time). Entries already due are applied before returning. */
  play(plan: TurnPlan, startedAt: number): void {
    this.turn++;
    this.pause = undefined;
    this.plan = plan;
    this.startedAt = startedAt;
    this.pending = this.pull(plan);
    this.playDue();
  }

  /**
   * Carries on turn `turn` of a task another replica was playing: plans it again from its start
   * (the engine is deterministic), skips the `played` entries already logged, and plays the rest,
   * those already due at once.
   */
  replay(plan: TurnPlan, startedAt: number, turn: number, played: number): void {
    this.turn = turn;
    this.pause = undefined;
    this.plan = plan;
    this.startedAt = startedAt;
    let entry = this.pull(plan);
    for (let skipped = 0; skipped < played && entry; skipped++) entry = this.pull(plan);
    this.pending = entry;
    this.playDue();
  }

  /** Takes the task as another replica left it, waiting for the user after turn `turn`. */
  waitAt(turn: number, pause: PausePoint): void {
    this.turn = turn;
    this.pause = pause;
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
    this.plan = undefined;
    this.pending = undefined;
  }

  /** Applies the pending entries that are due, and sets a timer for the first that is not. */
  private playDue(): void {
    const { clock } = this.options;
    while (this.pending && this.plan) {
      const due = this.startedAt + this.scale(this.pending.atMs);
      if (due > clock.now()) {
        this.timer = clock.setTimer(due - clock.now(), (this.onDue ??= () => this.playDue()));
        return;
      }
      this.apply(this.pending.event);
      if (!this.options.store.has(this.record.id)) return;
      // Applying a terminal status stops the run, and with it the plan.
      this.pending = this.plan && this.pull(this.plan);
    }
    this.timer = undefined;
    this.plan = undefined;
  }

  /**
   * The turn's next entry; at the turn's end, notes where the script paused. Content is rendered as
   * it is pulled, so a template that fails then (a faker call refusing its options, say) fails the
   * task with the reason, rather than leaving it working forever.
   */
  private pull(plan: TurnPlan): TimelineEntry | undefined {
    try {
      const step = plan.next();
      if (!step.done) return step.value;
      if (step.value.kind === 'paused') {
        this.pause = step.value.pause;
        this.options.plays?.paused(this.record.id, this.pause);
      }
    } catch (error) {
      const random = new Random(`${this.seed}/turn-${this.turn}/failure`);
      const reason = `The simulator failed to render scenario "${this.scenario.id}": ${(error as Error).message}`;
      const message = this.agentMessage([{ kind: 'text', text: reason }], random);
      this.apply({ kind: 'status', state: 'failed', message });
    }
    return undefined;
  }

  private apply(event: PlannedEvent): void {
    const now = this.options.clock.now();
    if (event.kind === 'status') {
      const status = {
        state: event.state,
        timestamp: isoTime(now),
        ...(event.message && { message: event.message }),
      };
      this.options.store.append(this.record, { kind: 'status', status }, now);
      // A cancel still taking effect has nothing left to cancel once the script has ended the task.
      if (isTerminal(event.state)) {
        this.stop();
        this.options.plays?.ended(this.record.id);
      }
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
      nowMs: this.options.contentTime(this.options.clock.now()),
      streams: { ids: random.fork('ids'), content: random.fork('content'), timing: random.fork('timing') },
    });
  }

  private scale(ms: number): number {
    return this.options.speed === 0 ? 0 : ms / this.options.speed;
  }
}
