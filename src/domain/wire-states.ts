/**
 * The A2A v1.0 names and proto numbers of the task states (`TASK_STATE_COMPLETED`, 3): the one
 * table between the domain's short literals and the v1.0 wire, read by the v1.0 codec, the v1.0
 * upstream dialect and the test helpers (which accept either spelling).
 */
import type { TaskState } from './types.js';

export const TASK_STATE_TO_WIRE = Object.freeze({
  unknown: 'TASK_STATE_UNSPECIFIED',
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
} as const satisfies Record<TaskState, string>);

/** Names and proto numbers (the order of TASK_STATE_TO_WIRE is the proto's numbering). */
export const TASK_STATE_FROM_WIRE: ReadonlyMap<string | number, TaskState> = new Map<
  string | number,
  TaskState
>(
  (Object.entries(TASK_STATE_TO_WIRE) as [TaskState, string][]).flatMap(
    ([state, wire], number): [string | number, TaskState][] => [
      [wire, state],
      [number, state],
    ],
  ),
);
