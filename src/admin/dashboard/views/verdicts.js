/**
 * Each client's verdicts: who it is, whether its MUST rules held, and every rule's outcome, with
 * the first piece of evidence of a failure.
 */
import { byId, h } from './dom.js';

/** What was drawn last, so unchanged verdicts are not redrawn. */
let drawn = '';

export function renderVerdicts(/** @type {any[]} */ clients) {
  const key = JSON.stringify(clients.map((c) => [c.client, c.calls, c.verdicts.map((v) => v.outcome)]));
  byId('verdicts-count').textContent = String(clients.length);
  if (key === drawn) return;
  drawn = key;
  byId('verdicts').replaceChildren(
    ...(clients.length
      ? clients.map(clientItem)
      : [h('li', { className: 'none', text: 'No client judged yet: clients show up here as they call.' })]),
  );
}

function clientItem(/** @type {any} */ client) {
  const rules = client.verdicts.map((/** @type {any} */ v) =>
    h(
      'li',
      {
        className: `verdict verdict-${v.outcome.replace(' ', '-')}`,
        'data-testid': 'verdict',
        dataset: { rule: v.rule, outcome: v.outcome },
        title: v.evidence[0]?.detail ?? v.checks,
      },
      h('span', { className: 'verdict-outcome', text: v.outcome === 'not exercised' ? '–' : v.outcome }),
      h('span', { className: 'mono', text: v.rule }),
      h('span', { className: 'verdict-level', text: v.level }),
      v.evidence[0] && h('span', { className: 'verdict-why', text: v.evidence[0].detail }),
    ),
  );
  return h(
    'li',
    { 'data-testid': 'verdict-client', dataset: { client: client.client, passed: String(client.passed) } },
    h(
      'div',
      { className: 'verdict-head' },
      h('span', { className: 'mono', text: client.client }),
      h('span', { className: 'time', text: `by ${client.identifiedBy}, ${client.calls} calls` }),
      summary(client),
    ),
    h('ul', { className: 'verdict-rules' }, ...rules),
  );
}

/**
 * How the client stands: a MUST rule failed, the rules held, or, before any rule applied to its
 * calls, nothing yet (a green "held" would claim what nothing showed).
 */
function summary(/** @type {any} */ client) {
  if (!client.passed)
    return h('span', {
      className: 'fault-badge',
      'data-testid': 'verdict-summary',
      text: 'a MUST rule failed',
    });
  const applied = client.verdicts.some((/** @type {any} */ v) => v.outcome !== 'not exercised');
  return applied
    ? h('span', { className: 'verdict-passed', 'data-testid': 'verdict-summary', text: 'MUST rules held' })
    : h('span', {
        className: 'verdict-pending',
        'data-testid': 'verdict-summary',
        text: 'no rule applied yet',
      });
}
