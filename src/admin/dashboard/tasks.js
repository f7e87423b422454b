/**
 * The task list and the open task, kept in step with the admin API; the feed and polling call on
 * these when they learn something the list or the open task should reload.
 */
import * as api from './api.js';
import { applyTaskDetail, closeOpenTask, markTaskGone, mergeTaskList, openTask, state } from './state.js';
import { showError } from './views/header.js';
import { scheduleRender } from './views/render.js';
import { hideTaskDetail, showTaskDetail } from './views/task-detail.js';
import { focusTaskRow } from './views/task-list.js';

/** How long a reload waits, so news that comes in a burst costs one request. */
const SETTLE_MS = 300;

/**
 * Replaces the list with the server's. A task the list knew before asking, and the server no
 * longer has, is gone.
 */
export async function resync() {
  const known = new Set(state.tasks.keys());
  const { tasks: lines } = await api.listTasks();
  mergeTaskList(lines, known);
  scheduleRender({ task: state.selected !== null });
}

/** Reloads the list soon. At most one reload waits at a time. */
export function scheduleResync() {
  if (state.pending.resync !== undefined) return;
  state.pending.resync = setTimeout(() => {
    state.pending.resync = undefined;
    void resync().catch(() => {});
  }, SETTLE_MS);
}

/** Opens task `id` beside the list, and in the page's address (`#task=<id>`) for a link to it. */
export function selectTask(/** @type {string} */ id) {
  openTask(id);
  history.replaceState(null, '', `#task=${encodeURIComponent(id)}`);
  showTaskDetail();
  scheduleRender({ task: true });
  void loadTask(id);
}

/** Closes the open task; the focus goes back to its row unless `focusRow` is false. */
export function closeTask(focusRow = true) {
  const id = closeOpenTask();
  hideTaskDetail();
  history.replaceState(null, '', location.pathname + location.search);
  scheduleRender();
  if (id && focusRow) focusTaskRow(id);
}

/** Reloads the open task soon, once for a burst of changes. */
export function scheduleTaskReload() {
  clearTimeout(state.pending.taskReload);
  state.pending.taskReload = setTimeout(() => {
    if (state.selected) void loadTask(state.selected.id);
  }, SETTLE_MS);
}

/** Merges the task's record and its requests from the admin API into the open task. */
export async function loadTask(/** @type {string} */ id) {
  let detail;
  let requests;
  try {
    [detail, { requests }] = await Promise.all([api.getTask(id), api.listRequests(id)]);
  } catch (error) {
    // Answers for a task closed meanwhile are of no use.
    if (state.selected?.id !== id) return;
    if (/** @type {{status?: number}} */ (error).status === 404) markTaskGone(id);
    else showError(error);
    scheduleRender({ task: true });
    return;
  }
  if (applyTaskDetail(id, detail, requests)) scheduleRender({ task: true });
}
