/**
 * The snapshots: what Redis keeps of each task beside the shared log, so that a replica that fell
 * behind the log (the entries it had not read were trimmed) rebuilds its tasks instead of serving
 * them stale. The scripts that write the log keep them in the same step (scripts.ts): a task's
 * event entries from its creation on, its play (turn, player, pause, cancel), whether it ended, and
 * its push configs. A task's snapshot goes when the task leaves the stores (a reset, retention).
 * rebuild.ts applies them.
 */
import type { Place } from '../domain/scope.js';
import type { LoggedEvent, PushConfig } from '../domain/types.js';
import type { StoreKeys } from './keys.js';
import type { LedgerEntry } from './ledger.js';
import type { Entry } from './mirror.js';
import type { ScriptedRedis } from './redis.js';

export interface TaskSnapshot {
  taskId: string;
  place: Place;
  scenario: string;
  /** From the task's creation (seq 1) on, with no gap. */
  events: LoggedEvent[];
  /** The turn in progress or paused, and its player; none once ended. */
  play?: LedgerEntry;
  ended: boolean;
  pushConfigs: PushConfig[];
}

export interface StoreSnapshot {
  /** The count of the newest entry when the snapshot was read: what the snapshot holds at least. */
  covers: number;
  /** The global chaos as last set through the log; undefined if it never was. */
  chaos: string | null | undefined;
  tasks: TaskSnapshot[];
}

/** Tasks read per round trip. */
const BATCH = 100;

/**
 * Reads every task's snapshot. The count and the list of tasks are read together: a task the
 * list lacks was made after `covers`, so the log still brings it (or was removed before).
 */
export async function readSnapshot(redis: ScriptedRedis, keys: StoreKeys): Promise<StoreSnapshot> {
  const head = await redis.multi().get(keys.count).zrange(keys.tasks, 0, -1).get(keys.chaos).exec();
  const [count, ids, chaos] = results(head) as [string | null, string[], string | null];
  const tasks: TaskSnapshot[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const read = redis.multi();
    for (const id of batch) read.hgetall(keys.task(id)).lrange(keys.events(id), 0, -1);
    const replies = results(await read.exec());
    batch.forEach((id, j) => {
      const task = taskSnapshot(id, replies[2 * j] as Record<string, string>, replies[2 * j + 1] as string[]);
      if (task) tasks.push(task);
    });
  }
  const chaosEntry = chaos === null ? undefined : (JSON.parse(chaos) as Extract<Entry, { kind: 'chaos' }>);
  return { covers: Number(count ?? 0), chaos: chaosEntry?.chaos, tasks };
}

/** One task's snapshot; none if Redis has no whole one (it was removed, or Redis lost it). */
export async function readTaskSnapshot(
  redis: ScriptedRedis,
  keys: StoreKeys,
  taskId: string,
): Promise<TaskSnapshot | undefined> {
  const replies = results(
    await redis.multi().hgetall(keys.task(taskId)).lrange(keys.events(taskId), 0, -1).exec(),
  );
  return taskSnapshot(taskId, replies[0] as Record<string, string>, replies[1] as string[]);
}

function results(replies: [Error | null, unknown][] | null): unknown[] {
  if (!replies) throw new Error('the snapshot read was aborted');
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/** The task as its keys hold it; none when they do not hold it whole (or not as this version writes it). */
function taskSnapshot(
  taskId: string,
  hash: Record<string, string>,
  list: string[],
): TaskSnapshot | undefined {
  try {
    return parseSnapshot(taskId, hash, list);
  } catch {
    return undefined;
  }
}

function parseSnapshot(
  taskId: string,
  hash: Record<string, string>,
  list: string[],
): TaskSnapshot | undefined {
  const entries = list.map((data) => JSON.parse(data) as Extract<Entry, { kind: 'event' }>);
  const created = entries[0];
  if (created?.event.seq !== 1) return undefined;
  const events: LoggedEvent[] = [];
  for (const { event } of entries) {
    const latest = events.length;
    if (event.seq === latest + 1) events.push(event);
    else if (event.seq > latest + 1) break;
  }
  const ended = hash.ended === '1';
  const turn = hash.turn && (JSON.parse(hash.turn) as Extract<Entry, { kind: 'turn' }>).turn;
  const pause = hash.pause && (JSON.parse(hash.pause) as Extract<Entry, { kind: 'pause' }>).pause;
  const pushConfigs = Object.entries(hash)
    .filter(([field]) => field.startsWith('push:'))
    .map(([, data]) => (JSON.parse(data) as Extract<Entry, { kind: 'push-config' }>).config);
  return {
    taskId,
    place: created.place ?? {},
    scenario: created.scenario ?? '',
    events,
    ...(turn &&
      !ended && {
        play: {
          turn,
          player: hash.player ?? '',
          cancelRequested: hash.cancel === '1',
          ...(pause && { pause }),
        },
      }),
    ended,
    pushConfigs,
  };
}
