/**
 * The runs of one agent's tasks, by task id: started here, continued here, or, when replicas share
 * the tasks (`plays`), taken over from another replica where its record says it stopped.
 */
import { isTerminal } from '../domain/lifecycle.js';
import type { JsonObject, Message } from '../domain/types.js';
import { startTurn, type TurnInput } from '../engine/plan.js';
import { taskStreams } from '../lib/random.js';
import type { Scenario } from '../scenario/model.js';
import type { TaskRecord } from '../store/task-store.js';
import type { TaskPlayer, TurnState } from './plays.js';
import { TaskRun, type RunnerOptions } from './runner.js';

/** What starts a turn besides the task: the user's message and what the request adds to it. */
export interface TurnRequest {
  message: Message;
  metadata: JsonObject;
  acceptedOutputModes?: readonly string[];
  /** Clock time. */
  startedAt: number;
}

/** What the request adds to a turn besides its message. */
export type TurnOptions = Pick<TurnRequest, 'metadata' | 'acceptedOutputModes'>;

/**
 * A turn's request, written out: `{ ...turn, message, startedAt }` gave each call's object a hidden
 * class of its own (Node 20), and every function that read one a megamorphic property access.
 */
export function turnRequest(turn: TurnOptions, message: Message, startedAt: number): TurnRequest {
  const { metadata, acceptedOutputModes } = turn;
  return { message, metadata, startedAt, ...(acceptedOutputModes && { acceptedOutputModes }) };
}

export interface TaskRunsOptions extends RunnerOptions {
  /** The scenario a task found in the store plays, by its id. */
  scenarioOf(record: TaskRecord): Scenario | undefined;
}

export class TaskRuns implements TaskPlayer {
  private readonly runs = new Map<string, TaskRun>();

  constructor(private readonly options: TaskRunsOptions) {
    options.store.onEvict((record) => this.release(record.id));
  }

  get(taskId: string): TaskRun | undefined {
    return this.runs.get(taskId);
  }

  /** The seed of a task played here or by another replica; the task id for a task no run plays. */
  seedOf(record: TaskRecord): string {
    return this.runs.get(record.id)?.seed ?? this.options.plays?.stateOf(record.id)?.turn.seed ?? record.id;
  }

  /** Where the task waits for the user, unless a cancel is on its way; wherever it is played. */
  waitingAt(taskId: string): boolean {
    const run = this.runs.get(taskId);
    if (run) return run.pause !== undefined && !run.cancelPending;
    const shared = this.options.plays?.stateOf(taskId);
    return shared?.pause !== undefined && !shared.cancelRequested;
  }

  /** Plays the first turn of a task just created. */
  begin(record: TaskRecord, scenario: Scenario, seed: string, request: TurnRequest): TaskRun {
    const run = new TaskRun(record, scenario, seed, this.options);
    this.runs.set(record.id, run);
    this.playTurn(run, request);
    return run;
  }

  /** Plays the next turn of a task that waited for the user. */
  playTurn(run: TaskRun, request: TurnRequest): void {
    // Written out: a spread of `request` first gave each turn's object a hidden class of its own (Node 20).
    const { message, metadata, startedAt, acceptedOutputModes } = request;
    const turn: TurnState = {
      seed: run.seed,
      turn: run.turn + 1,
      startedAt,
      fromSeq: run.record.log.latestSeq,
      message,
      metadata,
      ...(acceptedOutputModes && { acceptedOutputModes }),
      ...(run.pause && { resumeFrom: run.pause }),
    };
    this.options.plays?.turnStarted(run.record.id, turn);
    run.play(startTurn(this.turnInput(run, turn)), turn.startedAt);
  }

  /**
   * The run that may play the task now: this process's own, or, with replicas, the one it takes
   * over when no other replica plays the task; undefined when another does.
   */
  async claim(record: TaskRecord): Promise<TaskRun | undefined> {
    const { plays } = this.options;
    if (!plays) return this.runs.get(record.id);
    if (!(await plays.claim(record.id))) return undefined;
    return this.runs.get(record.id) ?? (this.adopt(record.id) ? this.runs.get(record.id) : undefined);
  }

  adopt(taskId: string): boolean {
    const record = this.options.store.find(taskId);
    const shared = this.options.plays?.stateOf(taskId);
    const scenario = record && this.options.scenarioOf(record);
    if (!record || !shared || !scenario || isTerminal(record.status.state)) return false;
    this.runs.get(taskId)?.stop();
    const run = new TaskRun(record, scenario, shared.turn.seed, this.options);
    this.runs.set(taskId, run);
    const { turn } = shared;
    if (shared.pause) run.waitAt(turn.turn, shared.pause);
    else {
      const played = record.log.latestSeq - turn.fromSeq;
      run.replay(startTurn(this.turnInput(run, turn)), turn.startedAt, turn.turn, played);
    }
    if (shared.cancelRequested && this.runs.get(taskId) === run) run.requestCancel();
    return true;
  }

  release(taskId: string): void {
    this.runs.get(taskId)?.stop();
    this.runs.delete(taskId);
  }

  cancelHere(taskId: string): void {
    this.runs.get(taskId)?.requestCancel();
  }

  private turnInput(run: TaskRun, turn: TurnState): TurnInput {
    return {
      scenario: run.scenario,
      message: turn.message,
      taskId: run.record.id,
      contextId: run.record.contextId,
      nowMs: this.options.contentTime(turn.startedAt),
      streams: taskStreams(`${turn.seed}/turn-${turn.turn}`),
      metadata: turn.metadata,
      ...(turn.acceptedOutputModes && { acceptedOutputModes: turn.acceptedOutputModes }),
      ...(turn.resumeFrom && { resumeFrom: turn.resumeFrom }),
    };
  }
}
