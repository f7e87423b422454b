/**
 * What every replica knows of who plays which task: the turn each task started last, where it
 * waits, whether a cancel is on its way, and which replica wrote it. Built from the shared log;
 * a task leaves it when it ends or is removed, so it holds only tasks in progress.
 */
import type { PausePoint } from '../engine/plan.js';
import type { SharedPlay, TurnState } from '../runtime/plays.js';

export interface LedgerEntry extends SharedPlay {
  /** The replica that started the turn. */
  player: string;
}

export class PlayLedger {
  private readonly plays = new Map<string, LedgerEntry>();

  get(taskId: string): LedgerEntry | undefined {
    return this.plays.get(taskId);
  }

  turnStarted(taskId: string, turn: TurnState, player: string): void {
    this.plays.set(taskId, { turn, player, cancelRequested: false });
  }

  /** Sets what a snapshot says of the task's play (a replica that fell behind the log). */
  restore(taskId: string, play: LedgerEntry): void {
    this.plays.set(taskId, { ...play });
  }

  paused(taskId: string, pause: PausePoint): void {
    const play = this.plays.get(taskId);
    if (play) play.pause = pause;
  }

  cancelRequested(taskId: string): void {
    const play = this.plays.get(taskId);
    if (play) play.cancelRequested = true;
  }

  forget(taskId: string): void {
    this.plays.delete(taskId);
  }

  clear(): void {
    this.plays.clear();
  }

  /** Tasks with a turn in progress that this replica does not play: what it takes over when their player is gone. */
  playedElsewhere(isPlayedHere: (taskId: string) => boolean): string[] {
    const tasks: string[] = [];
    for (const [taskId, play] of this.plays) {
      if (!play.pause && !isPlayedHere(taskId)) tasks.push(taskId);
    }
    return tasks;
  }
}
