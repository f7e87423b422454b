/**
 * The card view: an agent's card fetched as a client fetches it (its well-known URL, with
 * `A2A-Version`), then checked by the simulator (`POST /_sim/cards/check`), which knows what each
 * version requires: the page repeats none of those rules.
 */
import * as api from './api.js';
import { DASHBOARD_CLIENT } from './agent.js';
import { byId } from './views/dom.js';
import { showError } from './views/header.js';
import { renderCard, selectCardTab, showCardAgents, showCardError } from './views/cards.js';

/** @type {{agent: string, version: '1.0' | '0.3'}} */
const shown = { agent: '', version: '1.0' };

/** The agent's card URL beside `/_sim/`, relative so a path prefix in front of both works too. */
const cardUrl = (/** @type {string} */ agent) =>
  new URL(
    `${agent ? `../agents/${encodeURIComponent(agent)}/` : '../'}.well-known/agent-card.json`,
    location.href,
  );

export async function loadCard() {
  const { agent, version } = shown;
  selectCardTab(version);
  const response = await fetch(cardUrl(agent), {
    headers: { 'A2A-Version': version, 'X-Sim-Client': DASHBOARD_CLIENT },
    cache: 'no-store',
  });
  const text = await response.text();
  let card;
  try {
    card = JSON.parse(text);
  } catch {
    showCardError(`HTTP ${response.status}: not a JSON card`);
    return;
  }
  // The view may have moved on while this card came.
  if (shown.agent !== agent || shown.version !== version) return;
  if (!response.ok) {
    showCardError(`HTTP ${response.status}: ${card?.error?.message ?? 'no card'}`);
    return;
  }
  const { problems } = await api.checkCard(card, version);
  if (shown.agent === agent && shown.version === version) renderCard(card, problems, shown);
}

export async function setupCards() {
  const catalog = await api.getCatalog();
  showCardAgents(catalog.agents ?? []);
  byId('card-agent').addEventListener('change', (event) => {
    shown.agent = /** @type {HTMLSelectElement} */ (event.target).value;
    void loadCard().catch(showError);
  });
  const tabs = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('.card-versions [role="tab"]')]);
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      shown.version = tab.dataset['version'] === '0.3' ? '0.3' : '1.0';
      void loadCard().catch(showError);
    });
    // Arrow keys move between the tabs, as a tab list's do.
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const next =
        tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      next?.focus();
      next?.click();
    });
  }
  // Fetched once the view is on screen, not with the page: a card fetch is a request the journal
  // shows, and a page load should add none.
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    seen.disconnect();
    void loadCard().catch(showError);
  });
  seen.observe(byId('cards'));
}
