/** The header bar (version, feed status, chaos profile, reset) and the error line under it. */
import { state } from '../state.js';
import { byId } from './dom.js';

/** How long an error stays on screen. */
const ERROR_MS = 8_000;

export function showVersion(/** @type {string} */ version) {
  byId('version').textContent = `v${version}`;
}

/**
 * @param {import('../state.js').ConnectionMode} mode
 * @param {number} pollMs how often polling asks
 */
export function showMode(mode, pollMs) {
  const status = byId('feed-status');
  status.dataset['mode'] = mode;
  status.textContent = {
    connecting: 'connecting…',
    live: 'live',
    polling: `polling every ${pollMs / 1000} s (live feed unavailable)`,
    offline: 'simulator unreachable, retrying…',
  }[mode];
}

/** The profiles to choose from and the one active, as `GET /_sim/chaos` gives them. */
export function showChaos(/** @type {{profiles: string[], active?: string | null}} */ chaos) {
  const select = /** @type {HTMLSelectElement} */ (byId('chaos'));
  const values = ['', ...chaos.profiles];
  // A setting that is not a profile (pairs, a file) gets an option of its own.
  if (chaos.active && !values.includes(chaos.active)) values.push(chaos.active);
  const current = [...select.options].map((o) => o.value);
  if (current.join('\n') !== values.join('\n')) {
    select.replaceChildren(...values.map((v) => new Option(v === '' ? 'none' : v, v)));
  }
  // Never change the choice under the user's hand.
  if (document.activeElement !== select) select.value = chaos.active ?? '';
}

/** Disables the reset button while a reset is under way, so it is not sent twice. */
export function setResetBusy(/** @type {boolean} */ busy) {
  /** @type {HTMLButtonElement} */ (byId('reset')).disabled = busy;
}

export function showError(/** @type {unknown} */ error) {
  const box = byId('error');
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
  clearTimeout(state.pending.errorHide);
  state.pending.errorHide = setTimeout(() => (box.hidden = true), ERROR_MS);
}
