/**
 * How the dashboard keeps up, as the header shows it: live by the feed, by polling the admin API
 * while the feed is unavailable, or offline while the simulator does not answer.
 */
import { state } from './state.js';
import { loadTask, resync } from './tasks.js';
import { showMode } from './views/header.js';

const POLL_MS = 2_000;

export function setMode(/** @type {import('./state.js').ConnectionMode} */ next) {
  state.connection.mode = next;
  showMode(next, POLL_MS);
}

export function startPolling() {
  if (state.connection.mode !== 'offline') setMode('polling');
  if (state.connection.pollTimer !== undefined) return;
  const poll = async () => {
    try {
      await resync();
      if (state.selected) await loadTask(state.selected.id);
      if (state.connection.mode === 'offline') setMode('polling');
    } catch {
      setMode('offline');
    }
  };
  void poll();
  state.connection.pollTimer = setInterval(poll, POLL_MS);
}

export function stopPolling() {
  clearInterval(state.connection.pollTimer);
  state.connection.pollTimer = undefined;
}
