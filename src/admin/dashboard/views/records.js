/** A list of records of the open task (streams, faults, deliveries), oldest first, capped. */
import { byId, h } from './dom.js';

/** Streams, faults or deliveries shown per task: the newest. */
const MAX_RECORDS = 200;

/**
 * @template {{n?: number}} T
 * @param {string} id the list's element
 * @param {T[]} items
 * @param {(item: T) => HTMLElement} view
 * @param {string} none what the list says when empty
 */
export function renderRecords(id, items, view, none) {
  const sorted = [...items].sort((a, b) => (a.n ?? 0) - (b.n ?? 0));
  const shown = sorted.slice(-MAX_RECORDS);
  const earlier = sorted.length - shown.length;
  byId(id).replaceChildren(
    ...(earlier ? [h('li', { className: 'none', text: `${earlier} earlier not shown` })] : []),
    ...(sorted.length ? shown.map(view) : [h('li', { className: 'none', text: none })]),
  );
}
