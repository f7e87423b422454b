/**
 * The names of everything a simulator keeps in Redis, under its prefix: the shared log and its
 * counters, and what lets a replica that fell behind the log rebuild its tasks (the snapshots).
 */
export interface StoreKeys {
  /** The shared log, a stream. */
  log: string;
  /** How many entries were ever added to the log: each entry carries its count, `n`. */
  count: string;
  /** How many bytes were ever added to the log. */
  bytes: string;
  /** Marks `ID BYTES` (the bytes added before entry ID), a few per log byte budget: where to trim. */
  marks: string;
  /** The tasks with a snapshot, scored by the count of the entry that created them. */
  tasks: string;
  /** The global chaos, as the last entry that set it. */
  chaos: string;
  /** How many tasks each distinct request started (task-seeds.ts), by every replica together: a hash. */
  occurrences: string;
  /** The generation of counts before `occurrences`, which bases move from as they are repeated. */
  previousOccurrences: string;
  replicas: string;
  /** Who plays the task: a replica's name, with an expiry. */
  lease(taskId: string): string;
  /** The task's play (turn, player, pause, cancel), whether it ended, and its push configs: a hash. */
  task(taskId: string): string;
  /** The task's event entries, from its creation on: a list. */
  events(taskId: string): string;
}

export function storeKeys(prefix: string): StoreKeys {
  return {
    log: `${prefix}log`,
    count: `${prefix}log:count`,
    bytes: `${prefix}log:bytes`,
    marks: `${prefix}log:marks`,
    tasks: `${prefix}tasks`,
    chaos: `${prefix}chaos`,
    occurrences: `${prefix}occurrences`,
    previousOccurrences: `${prefix}occurrences:previous`,
    replicas: `${prefix}replicas`,
    lease: (taskId) => `${prefix}lease:${taskId}`,
    task: (taskId) => `${prefix}task:${taskId}`,
    events: (taskId) => `${prefix}events:${taskId}`,
  };
}
