/**
 * The shared log's entries, and how a replica applies one another replica wrote: each replica
 * keeps the whole simulator in its own store and logs, so every read, stream and resume is served
 * as fast as with the memory store, and the log is what keeps them the same.
 */
import { resetPlane, setChaos, type ControlChange, type ControlPlane } from '../admin/control-plane.js';
import type { JournalEntry } from '../admin/journal.js';
import type { FaultRecord } from '../chaos/fault-log.js';
import { scopeOf, type Place } from '../domain/scope.js';
import type { LoggedEvent, PushConfig } from '../domain/types.js';
import type { PausePoint } from '../engine/plan.js';
import type { Logger } from '../lib/log.js';
import type { DeliveryRecord } from '../push/delivery-log.js';
import type { TurnState } from '../runtime/plays.js';
import type { TaskStore } from '../store/task-store.js';
import type { PlayLedger } from './ledger.js';

/** One entry of the shared log. Those about a task's play are written only by its lease holder. */
export type Entry =
  /** A task's event; its creation (seq 1) says where the task lives and what it plays. */
  | { kind: 'event'; place?: Place; scenario?: string; event: LoggedEvent }
  | { kind: 'turn'; taskId: string; turn: TurnState }
  | { kind: 'pause'; taskId: string; pause: PausePoint }
  | { kind: 'end'; taskId: string }
  | { kind: 'cancel'; taskId: string }
  | { kind: 'push-config'; taskId: string; config: PushConfig }
  | { kind: 'push-config-deleted'; taskId: string; configId: string }
  | { kind: 'fault'; fault: Omit<FaultRecord, 'n'> }
  | { kind: 'delivery'; delivery: Omit<DeliveryRecord, 'n'> }
  | { kind: 'request'; request: Omit<JournalEntry, 'n'> }
  | ControlChange;

interface MirrorTarget {
  store: TaskStore;
  ledger: PlayLedger;
  plane: ControlPlane;
  logger: Logger;
  /** Another replica plays the task now: this one stops. */
  release(taskId: string): void;
  /** A cancel was asked of another replica: carried out here if this replica plays the task. */
  cancelHere(taskId: string): void;
  /** The task's events here are not those the log has: brings it back to its snapshot. */
  resync(taskId: string): void;
}

/** Applies an entry `from` another replica wrote; what cannot apply is logged, never thrown. */
export function applyEntry(entry: Entry, from: string, to: MirrorTarget): void {
  const { store, ledger, plane } = to;
  switch (entry.kind) {
    case 'event':
      return applyEvent(entry, to);
    case 'turn':
      ledger.turnStarted(entry.taskId, entry.turn, from);
      return to.release(entry.taskId);
    case 'pause':
      return ledger.paused(entry.taskId, entry.pause);
    case 'end':
      ledger.forget(entry.taskId);
      // A run this replica kept from before (paused here, then ended elsewhere) is over too.
      return to.release(entry.taskId);
    case 'cancel':
      ledger.cancelRequested(entry.taskId);
      return to.cancelHere(entry.taskId);
    case 'push-config': {
      const record = store.find(entry.taskId);
      if (record) store.keepPushConfig(record, entry.config, true);
      return;
    }
    case 'push-config-deleted': {
      const record = store.find(entry.taskId);
      if (record) store.dropPushConfig(record, entry.configId);
      return;
    }
    case 'fault':
      plane.faults.record({ ...entry.fault, replica: from });
      return;
    case 'delivery':
      plane.deliveries.record({ ...entry.delivery, replica: from });
      return;
    case 'request':
      plane.journal.adopt(entry.request, from);
      return;
    case 'reset':
      resetPlane(plane, entry.filter);
      return;
    case 'chaos':
      setChaos(plane, entry.chaos).catch((error: Error) =>
        to.logger.warn(
          `replica: chaos "${entry.chaos}" set by replica ${from} does not apply here: ${error.message}`,
        ),
      );
      return;
  }
}

function applyEvent({ place, scenario, event }: Extract<Entry, { kind: 'event' }>, to: MirrorTarget): void {
  const { store } = to;
  const record = store.find(event.taskId);
  if (event.seq === 1 && event.event.kind === 'task') {
    if (!record) store.adoptCreated(scopeOf(place ?? {}), scenario ?? '', event);
    return;
  }
  // Already here: a replica that took the task over played again what was logged before it lapsed.
  if (!record || event.seq <= record.log.latestSeq) return;
  if (event.seq !== record.log.latestSeq + 1) {
    to.logger.warn(
      `replica: task ${event.taskId} skips from seq ${record.log.latestSeq} to ${event.seq} here; reading it back from the store`,
    );
    return to.resync(event.taskId);
  }
  store.adoptEvent(record, event);
}
