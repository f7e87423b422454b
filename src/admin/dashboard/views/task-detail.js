/** The open task beside the list: its facts, then its timeline, streams, faults and push deliveries. */
import { state } from '../state.js';
import { badge, byId, h } from './dom.js';
import { renderFaults } from './faults.js';
import { renderPush } from './push.js';
import { renderStreams } from './streams.js';
import { placeText } from './task-list.js';
import { renderAges } from './time.js';
import { renderTimeline } from './timeline.js';

export function showTaskDetail() {
  byId('detail').hidden = false;
}

export function hideTaskDetail() {
  byId('detail').hidden = true;
}

export function renderTaskDetail() {
  const open = state.selected;
  if (!open) return;
  const line = state.tasks.get(open.id);
  byId('detail-id').textContent = open.id;
  const facts = [
    ['State', open.missing ? 'gone: reset or expired' : line ? badge(line.state) : '…'],
    ['Context', line?.contextId ?? open.task?.contextId],
    ['Scenario', line?.scenario],
    ['Where', line && placeText(line)],
    [
      'Events',
      line &&
        `${line.events}${open.oldestSeq && open.oldestSeq > 1 ? ` (seq ${open.oldestSeq}+ retained)` : ''}`,
    ],
    ['Updated', line?.updatedAt && h('span', { 'data-updated': line.updatedAt })],
  ];
  byId('detail-facts').replaceChildren(
    ...facts.flatMap(([label, value]) =>
      value === undefined || value === '' ? [] : [h('dt', { text: label }), h('dd', {}, value)],
    ),
  );
  renderTimeline(open);
  renderStreams(open);
  renderFaults(open);
  renderPush(open);
  renderAges(byId('detail'));
}
