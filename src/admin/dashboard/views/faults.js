/** The chaos faults injected into the open task's streams and requests. */
import { h } from './dom.js';
import { renderRecords } from './records.js';
import { clockTime } from './time.js';

export function renderFaults(/** @type {import('../state.js').OpenTask} */ open) {
  renderRecords('faults', [...open.faults.values()], faultItem, 'No faults injected.');
}

function faultItem(/** @type {any} */ fault) {
  const detail = Object.entries(fault.detail ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const where = [
    fault.seq !== undefined && `seq ${fault.seq}`,
    fault.request && `${fault.request.binding} ${fault.request.operation}`,
    `[${fault.profile}]`,
    `at ${clockTime(fault.at)}`,
  ].filter(Boolean);
  return h(
    'li',
    { 'data-testid': 'fault', dataset: { kind: fault.kind } },
    h('span', { className: 'what', text: `${fault.kind}${detail ? ` ${detail}` : ''}` }),
    ` · ${where.join(' · ')}`,
  );
}
