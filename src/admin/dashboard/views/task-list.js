/**
 * The task list: one row per task, newest first. Rows are updated in place and moved only when out
 * of place, and a focused row keeps its focus while the feed updates the list.
 */
import { state } from '../state.js';
import { badge, byId, h } from './dom.js';
import { renderAges } from './time.js';

/** @typedef {import('../state.js').TaskLine} TaskLine */

export function renderTaskList() {
  const list = byId('task-list');
  const rows = rowsById(list);
  // A row that has to move (a task updated earlier in the list) loses the focus with the move:
  // it gets it back after.
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  for (const [id, row] of rows) {
    if (state.tasks.has(id)) continue;
    row.remove();
    rows.delete(id);
  }
  /** @type {Element | null} */
  let previous = null;
  for (const line of state.tasks.values()) {
    let row = rows.get(line.id);
    if (!row) {
      // Clicks are handled for the whole list (app.js): a new row needs no listener.
      const button = h('button', { type: 'button', className: 'task-button' });
      row = h('li', { 'data-testid': 'task-row', 'data-task-id': line.id }, button);
    }
    fillRow(row, line);
    // Moves only rows out of place: moving a focused button would take the focus away.
    /** @type {Element | null} */
    const expected = previous ? previous.nextElementSibling : list.firstElementChild;
    if (expected !== row) {
      if (previous) previous.after(row);
      else list.prepend(row);
    }
    previous = row;
  }
  if (focused instanceof HTMLElement && focused.isConnected && document.activeElement !== focused)
    focused.focus();
  byId('task-count').textContent = String(state.tasks.size);
  byId('tasks-empty').hidden = state.tasks.size > 0;
}

/** The rows on the page, by task id: the page itself remembers them between renders. */
function rowsById(/** @type {HTMLElement} */ list) {
  /** @type {Map<string, HTMLElement>} */
  const rows = new Map();
  for (const row of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    rows.set(row.dataset['taskId'] ?? '', row);
  }
  return rows;
}

function fillRow(/** @type {HTMLElement} */ row, /** @type {TaskLine} */ line) {
  row.dataset['state'] = line.state;
  const button = /** @type {HTMLButtonElement} */ (row.firstElementChild);
  button.setAttribute('aria-current', String(state.selected?.id === line.id));
  const activity = state.activity.get(line.id);
  // The feed's time of the last event (a streamed chunk too); the list's last change before it.
  const lastEventAt = activity?.lastEventAt ?? line.updatedAt;
  const faults = activity?.faults.size ?? 0;
  // Redrawn only when something shown changed, so a busy feed does not rebuild every row.
  const key = [line.state, line.scenario, placeText(line), line.events, lastEventAt, faults].join('|');
  if (row.dataset['key'] === key) return;
  row.dataset['key'] = key;
  row.dataset['faults'] = String(faults);
  button.replaceChildren(
    badge(line.state),
    h(
      'span',
      { className: 'task-scenario' },
      line.scenario ?? '…',
      faults > 0 &&
        h('span', {
          className: 'fault-badge',
          'data-testid': 'fault-badge',
          title: `${faults} chaos fault${faults === 1 ? '' : 's'} applied`,
          text: `${faults} fault${faults === 1 ? '' : 's'}`,
        }),
    ),
    h('span', {
      className: 'task-age',
      'data-testid': 'task-last-event',
      'data-updated': lastEventAt,
      'data-age-prefix': 'last event ',
      title: 'since the last event',
    }),
    h('span', { className: 'task-place', text: placeText(line) }),
    h('span', {
      className: 'task-events',
      'data-testid': 'task-events',
      text: `${line.events} event${line.events === 1 ? '' : 's'}`,
    }),
    h('span', { className: 'task-id mono', text: line.id, title: `context ${line.contextId}` }),
  );
  renderAges(row);
}

/** `agent explore · workspace ws-1`, or `root agent`. */
export function placeText(/** @type {TaskLine} */ line) {
  const parts = [
    line.agent !== undefined && `agent ${line.agent}`,
    line.workspace !== undefined && `workspace ${line.workspace}`,
    line.tenant !== undefined && `tenant ${line.tenant}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'root agent';
}

/** Puts the focus on task `id`'s row, where the keyboard user was before opening it. */
export function focusTaskRow(/** @type {string} */ id) {
  rowsById(byId('task-list')).get(id)?.querySelector('button')?.focus();
}
