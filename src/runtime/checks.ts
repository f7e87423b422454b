/** Request checks that are not about media types (modes.ts): what a caller may ask for. */
import { A2AError, invalidParams } from '../domain/errors.js';
import { isTerminal } from '../domain/lifecycle.js';
import type { TaskState } from '../domain/types.js';
import { MAX_PAGE_SIZE } from '../store/task-page.js';
import type { TaskRecord } from '../store/task-store.js';

export function checkHistoryLength(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
    throw invalidParams([{ field, description: `must be a non-negative integer, got ${value}` }]);
  }
}

export function checkPageSize(value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= MAX_PAGE_SIZE)) {
    throw invalidParams([
      { field: 'pageSize', description: `must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${value}` },
    ]);
  }
}

/** A task that has ended cannot be canceled (§3.1.5): TaskNotCancelableError, naming its state. */
export function checkCancelable(id: string, state: TaskState): void {
  if (!isTerminal(state)) return;
  throw new A2AError('TaskNotCancelableError', `Failed to cancel task ${id}: it is already ${state}.`, {
    metadata: { taskId: id },
  });
}

/**
 * A resume cursor must name an event the log can still serve: never a silent gap. `record`'s log
 * is expired as of now first, so what "still" means is current.
 */
export function checkCursor(record: TaskRecord, afterSeq: number, nowMs: number): void {
  const { log, id } = record;
  log.expire(nowMs);
  const { latestSeq, oldestSeq } = log;
  const seqs = { taskId: id, afterSeq, oldestSeq, latestSeq };
  if (!Number.isInteger(afterSeq) || afterSeq < 0 || afterSeq > latestSeq) {
    throw invalidParams([
      {
        field: 'afterSeq',
        description: `must be an event seq of task ${id}, from 0 to its latest, ${latestSeq}; got ${afterSeq}`,
      },
    ]);
  }
  if (afterSeq + 1 < oldestSeq) {
    throw new A2AError(
      'UnsupportedOperationError',
      `Failed to resume task ${id} after seq ${afterSeq}: events up to ${oldestSeq - 1} are no longer retained (retained: ${oldestSeq > latestSeq ? 'none' : `${oldestSeq}-${latestSeq}`}). Get the task with GetTask and subscribe without a cursor.`,
      { reason: 'EVENTS_EXPIRED', metadata: seqs },
    );
  }
  const state = record.status.state;
  if (afterSeq === latestSeq && isTerminal(state)) {
    throw new A2AError(
      'UnsupportedOperationError',
      `Failed to resume task ${id} after seq ${afterSeq}: it is already ${state} and has no newer events.`,
      { metadata: seqs },
    );
  }
}
