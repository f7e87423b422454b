/** The open task's push notifications: its configs, and every delivery attempt with its outcome. */
import { h } from './dom.js';
import { renderRecords } from './records.js';
import { clockTime } from './time.js';

export function renderPush(/** @type {import('../state.js').OpenTask} */ open) {
  renderRecords('push-configs', open.pushConfigs, configItem, 'No push configs.');
  renderRecords('deliveries', [...open.deliveries.values()], deliveryItem, 'No deliveries.');
}

function configItem(/** @type {any} */ config) {
  return h(
    'li',
    { 'data-testid': 'push-config' },
    `config ${config.id} → ${config.url} (A2A ${config.dialect})`,
  );
}

function deliveryItem(/** @type {any} */ delivery) {
  const outcome = [
    delivery.outcome,
    delivery.status !== undefined && `HTTP ${delivery.status}`,
    delivery.error,
    delivery.chaos && `chaos: ${delivery.chaos}`,
  ].filter(Boolean);
  return h(
    'li',
    { 'data-testid': 'delivery', dataset: { outcome: delivery.outcome } },
    h('span', { className: 'seq', text: `seq ${delivery.seq}` }),
    ` → ${delivery.url} · attempt ${delivery.attempt} · ${outcome.join(', ')} · at ${clockTime(delivery.at)}`,
  );
}
