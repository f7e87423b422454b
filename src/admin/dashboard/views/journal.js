/**
 * The request journal: one line per request, newest first, with its binding, operation, status,
 * duration and faults; a request about a task opens the task, and its details link opens the
 * request in full (app.js and request-detail.js handle the clicks).
 */
import { byId, h } from './dom.js';
import { clockTime } from './time.js';

/** Requests shown: the newest. */
const SHOWN = 50;

/** What was drawn last, so an unchanged journal is not redrawn (nor a focused line lost). */
let drawn = '';

export function renderJournal(/** @type {any[]} */ requests) {
  const newest = requests.slice(-SHOWN).reverse();
  const key = JSON.stringify(
    newest.map((r) => [r.n, r.status, r.durationMs, r.taskId, r.faults?.length, r.moreFaults]),
  );
  byId('journal-count').textContent = String(requests.length);
  if (key === drawn) return;
  drawn = key;
  byId('journal').replaceChildren(
    ...(newest.length ? newest.map(entryItem) : [h('li', { className: 'none', text: 'No requests yet.' })]),
  );
}

function entryItem(/** @type {any} */ entry) {
  const status =
    entry.status === undefined ? 'pending' : entry.status === 0 ? 'closed' : String(entry.status);
  const faults = (entry.faults?.length ?? 0) + (entry.moreFaults ?? 0);
  const parts = [
    h('span', { className: 'seq', text: `#${entry.n}` }),
    h('span', { className: 'time', text: clockTime(entry.at) }),
    h('span', { className: 'journal-status', 'data-testid': 'journal-status', text: status }),
    h('span', { className: 'mono', text: `${entry.method} ${entry.path}` }),
    h('span', {
      className: 'journal-op',
      text: [entry.binding, entry.operation].filter(Boolean).join(' · ') || 'not an A2A call',
    }),
    entry.durationMs !== undefined && h('span', { className: 'time', text: `${entry.durationMs} ms` }),
    entry.streamed && h('span', { className: 'flags', text: 'stream' }),
    faults > 0 && h('span', { className: 'fault-badge', text: `${faults} fault${faults === 1 ? '' : 's'}` }),
  ];
  const dataset = {
    n: entry.n,
    status,
    binding: entry.binding,
    operation: entry.operation,
    taskId: entry.taskId,
  };
  // A link, not a button: the line's one button opens its task.
  const detail = h('a', {
    className: 'journal-detail',
    href: `#request=${entry.n}`,
    'data-n': entry.n,
    'aria-label': `Request #${entry.n} in full`,
    text: 'details',
  });
  const line = entry.taskId
    ? h(
        'button',
        { type: 'button', className: 'journal-button', title: `Open task ${entry.taskId}` },
        ...parts,
        h('span', { className: 'task-id mono', text: `task ${entry.taskId}` }),
      )
    : h('div', { className: 'journal-line' }, ...parts);
  return h('li', { 'data-testid': 'journal-entry', dataset }, line, detail);
}
