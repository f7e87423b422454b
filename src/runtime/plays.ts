/**
 * The port through which several processes share who plays which task (src/replica/ plugs into it).
 * Without it, this process plays every task it creates and no other. With it, exactly one replica
 * plays a task at a time, and another can carry a task on where the last one left it: a turn is
 * described well enough here ({@link TurnState}) that the deterministic engine plans it again and
 * skips what was already logged.
 */
import type { PausePoint } from '../engine/plan.js';
import type { JsonObject, Message, PushConfig } from '../domain/types.js';

/** A turn as it started: everything the engine needs to plan it again, as plain data. */
export interface TurnState {
  /** The task's own seed. */
  seed: string;
  /** 1 for the task's first turn. */
  turn: number;
  /** Clock time the turn started at. */
  startedAt: number;
  /** The task's latest seq when the turn's first entry was still to come. */
  fromSeq: number;
  /** The user's message that started the turn. */
  message: Message;
  metadata: JsonObject;
  acceptedOutputModes?: readonly string[];
  resumeFrom?: PausePoint;
}

/** What the shared record says of a task in progress that this process may not be playing (an ended task has none). */
export interface SharedPlay {
  /** The turn started last. */
  turn: TurnState;
  /** Where the script waits for the user, when it does. */
  pause?: PausePoint;
  /** Whether a cancel was asked for that has not yet ended the task. */
  cancelRequested: boolean;
}

/** A task this process can play when another gives it up: what the replica hands it to. */
export interface TaskPlayer {
  /** Carries on the task's turn in progress (its replica died), or takes it paused; false if unknown here. */
  adopt(taskId: string): boolean;
  /** Stops playing the task: another replica plays it now. */
  release(taskId: string): void;
  /** Cancels the task if this process plays it (a cancel asked of another replica). */
  cancelHere(taskId: string): void;
}

export interface SharedPlays {
  /** The record of a task's play, as the replicas share it. */
  stateOf(taskId: string): SharedPlay | undefined;
  /** How many tasks this request has started before, counted by every replica together. */
  nextOccurrence(base: string): Promise<number>;
  /** Makes this process the one that plays the task (not played, or its player gone); false if another does. */
  claim(taskId: string): Promise<boolean>;
  /** A turn starts here. */
  turnStarted(taskId: string, turn: TurnState): void;
  /** The turn ended waiting for input: no one plays the task until a follow-up. */
  paused(taskId: string, pause: PausePoint): void;
  /** The task has ended: no one plays it again. */
  ended(taskId: string): void;
  /** A cancel was asked for: the replica that plays the task carries it out. */
  cancelRequested(taskId: string): void;
  pushConfigSet(taskId: string, config: PushConfig): void;
  pushConfigDeleted(taskId: string, configId: string): void;
}
