/** Times and durations as the dashboard writes them, on the simulator's clock, which may be virtual. */
import { serverNow } from '../state.js';

/** `3 s`, `4 min`, `2 h 5 min`, `3 d`. */
export function duration(/** @type {number} */ ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  if (hours < 48) return `${hours} h${m % 60 ? ` ${m % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} d`;
}

/** `450 ms`, `1.24 s`, `2 min`: the finer steps between events. */
export function offset(/** @type {number} */ ms) {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return duration(ms);
}

/** `12:04:05.250` (UTC). */
export const clockTime = (/** @type {number | string} */ at) => new Date(at).toISOString().slice(11, 23);

const age = (/** @type {string | undefined} */ iso) =>
  iso ? `${duration(serverNow() - Date.parse(iso))} ago` : '';

/** Ages (`[data-updated]`, after any `data-age-prefix`) move on with the clock, between renders too. */
export function renderAges(/** @type {ParentNode} */ root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-updated]'))) {
    const since = age(el.dataset['updated']);
    el.textContent = since && `${el.dataset['agePrefix'] ?? ''}${since}`;
  }
}
