/**
 * Redraws at most once a frame, however many changes arrive in between: the list always, the open
 * task only when it changed.
 */
import { state } from '../state.js';
import { renderTaskDetail } from './task-detail.js';
import { renderTaskList } from './task-list.js';

export function scheduleRender(/** @type {{task?: boolean}} */ { task = false } = {}) {
  state.pending.taskChanged ||= task;
  if (state.pending.frame) return;
  state.pending.frame = true;
  requestAnimationFrame(() => {
    state.pending.frame = false;
    renderTaskList();
    if (state.pending.taskChanged) renderTaskDetail();
    state.pending.taskChanged = false;
  });
}
