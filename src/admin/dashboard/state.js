/**
 * The dashboard's state: the simulator's tasks as far as the dashboard knows them, the open task,
 * the connection, and the work waiting on a timer. It is the one place that holds anything that
 * changes; the functions here update the data and say what changed, and touch neither the page
 * nor the network.
 */
import { taskIdOf } from './feed-types.js';

/**
 * One line of the task list, as `GET /_sim/tasks` gives it, kept up to date by the feed.
 * @typedef {{id: string, contextId: string, state: string, updatedAt?: string, scenario?: string,
 *   agent?: string, workspace?: string, tenant?: string, events: number}} TaskLine
 */

/**
 * The open task: its events by seq, and what the feed or the API said about its streams, faults
 * and deliveries, each by its `n`.
 * @typedef {{id: string, missing: boolean, task?: any, oldestSeq?: number, events: Map<number, any>,
 *   streams: Map<number, any>, faults: Map<number, any>, deliveries: Map<number, any>,
 *   pushConfigs: any[]}} OpenTask
 */

/** @typedef {'connecting' | 'live' | 'polling' | 'offline'} ConnectionMode */

export const state = {
  /** @type {Map<string, TaskLine>} newest first */
  tasks: new Map(),
  /**
   * Ids the server no longer has (reset, expired): a late feed message must not bring them back.
   * @type {Set<string>}
   */
  gone: new Set(),
  /** @type {OpenTask | null} */
  selected: null,
  /**
   * What the feed told of each task beyond its line: when its last event came (a chunk of a stream
   * too, which does not change its state), and the `n` of each chaos fault applied to it.
   * @type {Map<string, {lastEventAt?: string, faults: Set<number>}>}
   */
  activity: new Map(),
  /** Server clock minus browser clock: the server may run on a virtual clock. */
  clockOffset: 0,
  connection: {
    /** @type {ConnectionMode} */
    mode: 'connecting',
    /** @type {WebSocket | null} the feed, while it is open */
    feed: null,
    /** Feed connections lost since the last one opened: each next retry waits longer. */
    retries: 0,
    /** @type {number | undefined} */
    pollTimer: undefined,
  },
  /** Work waiting on a timer or the next frame, so it is done once however often it is asked for. */
  pending: {
    /** @type {number | undefined} */
    resync: undefined,
    /** @type {number | undefined} */
    taskReload: undefined,
    /** @type {number | undefined} */
    errorHide: undefined,
    frame: false,
    /** Whether the open task changed: its timeline is redrawn only then, not for every other task. */
    taskChanged: false,
  },
};

export const serverNow = () => Date.now() + state.clockOffset;

/** A server clock reading from the feed or a task: only ever moves the estimate forward. */
export function observeTime(/** @type {string | undefined} */ iso) {
  const at = iso ? Date.parse(iso) : NaN;
  if (at > serverNow()) state.clockOffset = at - Date.now();
}

/** The server's own reading of its clock (`GET /_sim/health`): taken as it is, even if earlier. */
export function setServerTime(/** @type {string} */ iso) {
  state.clockOffset = Date.parse(iso) - Date.now();
}

/**
 * Replaces the list with the server's, keeping what the feed told that is newer. A task in `known`
 * (the list when the request went out) that the server no longer has is gone.
 * @param {TaskLine[]} lines
 * @param {Set<string>} known
 */
export function mergeTaskList(lines, known) {
  /** @type {Map<string, TaskLine>} */
  const next = new Map();
  for (const line of lines) {
    state.gone.delete(line.id);
    const mine = state.tasks.get(line.id);
    // The feed may be ahead of the snapshot: keep the newer state.
    next.set(line.id, mine && mine.events > line.events ? { ...line, ...progressOf(mine) } : line);
    observeTime(line.updatedAt);
  }
  const listed = new Set(next.keys());
  for (const [id, line] of state.tasks) {
    if (listed.has(id)) continue;
    if (known.has(id)) state.gone.add(id);
    // Told by the feed while the request was out: the next resync confirms it.
    else next.set(id, line);
  }
  state.tasks = next;
  if (state.selected && state.gone.has(state.selected.id)) state.selected.missing = true;
}

/** What the feed moves on: the state, its time, the event count. */
const progressOf = (/** @type {TaskLine} */ line) => ({
  state: line.state,
  updatedAt: line.updatedAt,
  events: line.events,
});

/** After a reset: every task known so far is gone. */
export function forgetTasks() {
  for (const id of state.tasks.keys()) state.gone.add(id);
  state.tasks = new Map();
  state.activity.clear();
}

/** The feed's news of task `id`, created on first use. */
export function activityOf(/** @type {string} */ id) {
  let activity = state.activity.get(id);
  if (!activity) state.activity.set(id, (activity = { faults: new Set() }));
  return activity;
}

/** An event of task `id` came at `at`: keeps the latest. */
function noteEvent(/** @type {string} */ id, /** @type {string | undefined} */ at) {
  const activity = activityOf(id);
  if (at && (!activity.lastEventAt || Date.parse(at) > Date.parse(activity.lastEventAt))) {
    activity.lastEventAt = at;
  }
}

/**
 * Applies one feed message `{n, at, type, ...}`, and says what follows from it: whether anything
 * changed, whether the open task did, whether the list learned of a task (so it should be reloaded
 * from the API), and whether the open task's streams changed (the request journal tells more).
 * @param {any} msg
 */
export function applyFeedMessage(msg) {
  observeTime(msg.at);
  const open = state.selected && !state.selected.missing ? state.selected : null;
  const forOpen = open !== null && taskIdOf(msg) === open.id;
  const changes = { changed: true, openTask: forOpen, newTask: false, streams: false };
  switch (msg.type) {
    case 'task:created':
      changes.newTask = learnTask(msg)?.added ?? false;
      if (!state.gone.has(msg.taskId)) noteEvent(msg.taskId, msg.at);
      break;
    case 'task:event': {
      const learned = learnTask(msg);
      if (learned) noteEvent(msg.taskId, msg.at);
      changes.newTask = learned?.added ?? false;
      const logged = msg.event;
      if (learned && logged.seq > learned.line.events) {
        learned.line.events = logged.seq;
        const status = statusOf(logged.event);
        if (status) Object.assign(learned.line, { state: status.state, updatedAt: status.timestamp });
      }
      if (forOpen) open.events.set(logged.seq, logged);
      break;
    }
    case 'stream:opened':
    case 'stream:closed':
      if (forOpen) {
        const stream = open.streams.get(msg.request) ?? { n: msg.request, at: msg.at, streamed: true };
        if (msg.type === 'stream:closed') stream.closedAt = msg.at;
        open.streams.set(msg.request, stream);
        changes.streams = true;
      }
      break;
    case 'chaos:fault':
      if (msg.fault.taskId && !state.gone.has(msg.fault.taskId)) {
        activityOf(msg.fault.taskId).faults.add(msg.fault.n);
      }
      if (forOpen) open.faults.set(msg.fault.n, msg.fault);
      break;
    case 'push:attempt':
      if (forOpen) open.deliveries.set(msg.delivery.n, msg.delivery);
      break;
    default:
      return { changed: false, openTask: false, newTask: false, streams: false };
  }
  return changes;
}

/**
 * The list line of a `task:created` or `task:event` message's task, added if the list did not have
 * it; nothing for a task that is gone.
 * @param {any} msg
 * @returns {{line: TaskLine, added: boolean} | undefined}
 */
function learnTask(msg) {
  if (state.gone.has(msg.taskId)) return undefined;
  let line = state.tasks.get(msg.taskId);
  const added = !line;
  if (!line) {
    line = { id: msg.taskId, contextId: msg.contextId, state: 'submitted', events: 0 };
    state.tasks = new Map([[msg.taskId, line], ...state.tasks]);
  }
  for (const key of /** @type {const} */ (['scenario', 'agent', 'workspace', 'tenant']))
    if (msg[key] !== undefined) line[key] = msg[key];
  line.updatedAt ??= msg.at;
  return { line, added };
}

/** The state an event moves its task to, with the time. */
function statusOf(/** @type {any} */ event) {
  if (event.kind === 'status') return event.status;
  if (event.kind === 'task') return event.task.status;
  return undefined;
}

/** Opens task `id`, keeping what is known of it if it is open already. */
export function openTask(/** @type {string} */ id) {
  if (state.selected?.id === id) return;
  state.selected = {
    id,
    missing: false,
    events: new Map(),
    streams: new Map(),
    faults: new Map(),
    deliveries: new Map(),
    pushConfigs: [],
  };
}

/** Closes the open task; returns its id. */
export function closeOpenTask() {
  const id = state.selected?.id;
  state.selected = null;
  return id;
}

/** The admin API no longer has the open task `id` (reset or expired). */
export function markTaskGone(/** @type {string} */ id) {
  if (state.selected?.id === id) state.selected.missing = true;
  state.gone.add(id);
  state.tasks.delete(id);
}

/**
 * Merges the task's record (`GET /_sim/tasks/{id}`) and its requests from the journal into the
 * open task; returns false if `id` is no longer the open task.
 * @param {string} id
 * @param {any} detail
 * @param {any[]} requests
 */
export function applyTaskDetail(id, detail, requests) {
  const open = state.selected;
  if (open?.id !== id) return false;
  open.missing = false;
  open.task = detail.task;
  open.oldestSeq = detail.oldestSeq;
  open.pushConfigs = detail.pushConfigs;
  for (const event of detail.events) open.events.set(event.seq, event);
  for (const fault of detail.faults) {
    open.faults.set(fault.n, fault);
    activityOf(id).faults.add(fault.n);
  }
  for (const delivery of detail.deliveries) open.deliveries.set(delivery.n, delivery);
  for (const request of requests) {
    if (!request.streamed) continue;
    const known = open.streams.get(request.n);
    open.streams.set(request.n, { ...request, closedAt: known?.closedAt ?? closedAt(request) });
  }
  const line = state.tasks.get(id);
  if (line && detail.events.length && detail.latestSeq >= line.events) {
    Object.assign(line, { state: detail.state, updatedAt: detail.updatedAt, events: detail.latestSeq });
  } else if (!line && !state.gone.has(id)) {
    const { task: _task, events: _events, pushConfigs: _p, faults: _f, deliveries: _d, ...summary } = detail;
    state.tasks.set(id, { ...summary, events: detail.latestSeq });
  }
  return true;
}

/** When a journaled stream ended, if it did. */
function closedAt(/** @type {any} */ request) {
  if (request.status === undefined || request.durationMs === undefined) return undefined;
  return new Date(Date.parse(request.at) + request.durationMs).toISOString();
}
