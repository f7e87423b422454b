/**
 * The a2a-sim dashboard: the task list and one task's timeline, kept live by the feed
 * (`/_sim/feed`, a WebSocket), or by polling the admin API every 2 s when the feed is unavailable;
 * the request journal and one request in full (request-detail.js); each client's verdicts; the
 * agents' cards (cards.js); and a panel to talk to an agent from the page (talk.js).
 * Native ES modules with no build step; index.html loads this one, which wires the page to the rest:
 * state.js holds what changes, api.js and feed.js talk to the simulator, views/ draws.
 */
import { setupCards } from './cards.js';
import { startPolling } from './connection.js';
import { changeChaos, loadChaos, loadHealth, reset } from './controls.js';
import { connectFeed } from './feed.js';
import { startJournal } from './journal.js';
import { setupRequestDetail } from './request-detail.js';
import { state } from './state.js';
import { startVerdicts } from './verdicts.js';
import { loadAgents, setupTalk } from './talk.js';
import { closeTask, resync, selectTask } from './tasks.js';
import { byId } from './views/dom.js';
import { showError } from './views/header.js';
import { renderAges } from './views/time.js';

/** How often to check that the simulator answers, and read its chaos profile (the feed tells neither). */
const HEALTH_MS = 10_000;

byId('chaos').addEventListener('change', (event) => {
  void changeChaos(/** @type {HTMLSelectElement} */ (event.target).value);
});
byId('reset').addEventListener('click', () => void reset());
// One listener for every row, present and future: a row names its task.
byId('task-list').addEventListener('click', (event) => {
  const button = /** @type {Element} */ (event.target).closest('.task-button');
  const row = button?.closest('[data-task-id]');
  if (row instanceof HTMLElement) selectTask(row.dataset['taskId'] ?? '');
});
// A journaled request about a task opens the task.
byId('journal').addEventListener('click', (event) => {
  const line = /** @type {Element} */ (event.target).closest('.journal-button')?.closest('[data-task-id]');
  if (line instanceof HTMLElement) selectTask(line.dataset['taskId'] ?? '');
});
setupTalk();
setupRequestDetail();
byId('detail-close').addEventListener('click', () => closeTask());
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && state.selected) closeTask();
});
setInterval(() => renderAges(), 1_000);
setInterval(() => {
  void loadHealth();
  void loadChaos().catch(() => {});
}, HEALTH_MS);

await loadHealth();
await Promise.all([loadChaos().catch(showError), resync().catch(showError), loadAgents().catch(showError)]);
startJournal();
startVerdicts();
void setupCards().catch(showError);
const linked = /^#task=(.+)$/.exec(location.hash);
if (linked) selectTask(decodeURIComponent(linked[1] ?? ''));
if ('WebSocket' in window) connectFeed();
else startPolling();
