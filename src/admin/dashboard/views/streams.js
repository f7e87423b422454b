/** The streams attached to the open task: the feed says when each opened and closed, the journal how. */
import { h } from './dom.js';
import { renderRecords } from './records.js';
import { clockTime, offset } from './time.js';

export function renderStreams(/** @type {import('../state.js').OpenTask} */ open) {
  renderRecords('streams', [...open.streams.values()], streamItem, 'No streams attached.');
}

function streamItem(/** @type {any} */ stream) {
  const what = stream.operation
    ? `${stream.operation}${stream.binding ? ` (${stream.binding})` : ''}`
    : 'stream';
  const span = stream.closedAt
    ? `closed at ${clockTime(stream.closedAt)}, after ${offset(Date.parse(stream.closedAt) - Date.parse(stream.at))}`
    : 'open';
  return h(
    'li',
    { 'data-testid': 'stream', dataset: { open: !stream.closedAt } },
    h('span', { className: 'seq', text: `request #${stream.n}` }),
    ` ${what} · opened at ${clockTime(stream.at)} · ${span}`,
  );
}
