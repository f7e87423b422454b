/**
 * What the talk panel offers to choose from: the scenarios the chosen agent plays, each with its
 * trigger and an example prompt to try, and the chaos profiles for the conversation's own chaos.
 */
import { byId, h } from './dom.js';

/** The value of the chaos choice that takes the pairs typed beside it (no profile has `=` in its name). */
export const CHAOS_PAIRS = '=';

/**
 * The scenarios agent `agent` plays (`''`: the root agent, which plays them all), with their
 * triggers; a click on an example calls `onExample` with its prompt.
 * @param {{scenarios?: any[], agents?: any[]}} catalog `GET /_sim/scenarios`
 * @param {string} agent
 * @param {(prompt: string) => void} onExample
 */
export function showScenarios(catalog, agent, onExample) {
  const all = catalog.scenarios ?? [];
  const defined = (catalog.agents ?? []).find((a) => a.id === agent);
  const ids = defined?.scenarios;
  const played = !defined || !Array.isArray(ids) ? all : all.filter((s) => ids.includes(s.id));
  byId('talk-scenarios-count').textContent = String(played.length);
  byId('talk-scenario-list').replaceChildren(
    ...(played.length
      ? played.map((s) => scenarioItem(s, onExample))
      : [h('li', { className: 'none', text: 'This agent plays no scenario.' })]),
  );
}

function scenarioItem(/** @type {any} */ s, /** @type {(prompt: string) => void} */ onExample) {
  const trigger = s.fallback ? 'plays when nothing else matches' : (s.match ?? []).join(' or ') || '—';
  const example =
    s.example &&
    h('button', {
      type: 'button',
      className: 'scenario-example',
      'data-testid': 'scenario-example',
      title: `Put this prompt in the message field`,
      text: s.example,
    });
  example?.addEventListener('click', () => onExample(s.example));
  return h(
    'li',
    { 'data-testid': 'talk-scenario', dataset: { scenario: s.id } },
    h('span', { className: 'mono scenario-id', text: s.id }),
    h('span', { className: 'scenario-description', text: s.description ?? '' }),
    h('span', { className: 'scenario-trigger', text: `trigger: ${trigger}` }),
    example || h('span', { className: 'none', text: 'no example: a message id or metadata plays it' }),
  );
}

/** The conversation's chaos: none, a profile, or pairs typed beside the choice. */
export function showChaosProfiles(/** @type {string[]} */ profiles) {
  const select = /** @type {HTMLSelectElement} */ (byId('talk-chaos'));
  const values = ['', ...profiles, CHAOS_PAIRS];
  if ([...select.options].map((o) => o.value).join('\n') === values.join('\n')) return;
  const chosen = select.value;
  select.replaceChildren(
    new Option('none (the global profile applies)', ''),
    ...profiles.map((p) => new Option(`profile ${p}`, p)),
    new Option('pairs…', CHAOS_PAIRS),
  );
  if (values.includes(chosen)) select.value = chosen;
  showChaosPairs();
}

/** The pairs field shows only when pairs are chosen. */
export function showChaosPairs() {
  const pairs = /** @type {HTMLSelectElement} */ (byId('talk-chaos')).value === CHAOS_PAIRS;
  byId('talk-chaos-pairs').hidden = !pairs;
}
