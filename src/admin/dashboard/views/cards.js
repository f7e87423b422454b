/**
 * An agent's card as served for one version: its name, the problems a client would meet (found by
 * the simulator's card check), its skills and interfaces as lists, and the raw JSON.
 */
import { byId, h } from './dom.js';

/** The agents to choose from: the root agent, then each defined agent (`GET /_sim/scenarios`). */
export function showCardAgents(/** @type {{id: string, name?: string}[]} */ agents) {
  const select = /** @type {HTMLSelectElement} */ (byId('card-agent'));
  const current = select.value;
  select.replaceChildren(
    new Option('root agent (/)', ''),
    ...agents.map((a) => new Option(`${a.id}${a.name ? ` (${a.name})` : ''}`, a.id)),
  );
  select.value = agents.some((a) => a.id === current) ? current : '';
}

/** Marks the version's tab as the one shown. */
export function selectCardTab(/** @type {string} */ version) {
  for (const tab of document.querySelectorAll('.card-versions [role="tab"]')) {
    const selected = /** @type {HTMLElement} */ (tab).dataset['version'] === version;
    tab.setAttribute('aria-selected', String(selected));
    tab.setAttribute('tabindex', selected ? '0' : '-1');
    if (selected) byId('card-panel').setAttribute('aria-labelledby', tab.id);
  }
}

/**
 * @param {any} card as served
 * @param {{path: string, message: string, severity: string}[]} problems
 * @param {{agent: string, version: string}} shown
 */
export function renderCard(card, problems, shown) {
  const panel = byId('card-panel');
  panel.dataset['agent'] = shown.agent;
  panel.dataset['version'] = shown.version;
  byId('card-title').textContent = `${card?.name ?? '(no name)'}${card?.version ? ` ${card.version}` : ''}`;
  byId('card-description').textContent = card?.description ?? '';
  byId('card-problems').replaceChildren(
    ...(problems.length
      ? problems.map((p) =>
          h(
            'li',
            { 'data-testid': 'card-problem', dataset: { severity: p.severity } },
            h('span', { className: `problem-${p.severity}`, text: p.severity }),
            ' ',
            h('code', { text: p.path || '(card)' }),
            `: ${p.message}`,
          ),
        )
      : [h('li', { className: 'none', text: 'None found.' })]),
  );
  const skills = Array.isArray(card?.skills) ? card.skills : [];
  byId('card-skills').replaceChildren(
    ...(skills.length
      ? skills.map((/** @type {any} */ s) =>
          h(
            'li',
            { 'data-testid': 'card-skill', dataset: { skillId: s?.id } },
            h('strong', { text: String(s?.name ?? s?.id ?? '?') }),
            h('span', { className: 'mono', text: ` ${s?.id ?? ''}` }),
            s?.description && ` · ${s.description}`,
            Array.isArray(s?.tags) &&
              s.tags.length > 0 &&
              h('span', { className: 'tags', text: ` [${s.tags.join(', ')}]` }),
          ),
        )
      : [h('li', { className: 'none', text: 'No skills.' })]),
  );
  byId('card-interfaces').replaceChildren(
    ...interfacesOf(card).map(({ binding, url, version }) =>
      h(
        'li',
        { 'data-testid': 'card-interface', dataset: { binding } },
        h('strong', { text: binding }),
        ' ',
        h('span', { className: 'mono', text: url }),
        version && ` · protocol ${version}`,
      ),
    ),
  );
  byId('card-json').textContent = JSON.stringify(card, null, 2);
}

/** Where a client can call the agent, whichever version the card is. */
function interfacesOf(/** @type {any} */ card) {
  /** @type {{binding: string, url: string, version?: string}[]} */
  const list = [];
  for (const i of Array.isArray(card?.supportedInterfaces) ? card.supportedInterfaces : []) {
    list.push({ binding: String(i?.protocolBinding), url: String(i?.url), version: i?.protocolVersion });
  }
  if (list.length === 0 && typeof card?.url === 'string') {
    list.push({
      binding: String(card.preferredTransport ?? 'JSONRPC'),
      url: card.url,
      version: card.protocolVersion,
    });
    for (const i of Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []) {
      list.push({ binding: String(i?.transport), url: String(i?.url) });
    }
  }
  return list;
}

export function showCardError(/** @type {string} */ message) {
  byId('card-title').textContent = message;
  for (const id of ['card-problems', 'card-skills', 'card-interfaces']) byId(id).replaceChildren();
  byId('card-json').textContent = '';
  byId('card-description').textContent = '';
}
