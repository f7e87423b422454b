/**
 * The request journal (`GET /_sim/requests`) on the page: the newest requests first, reloaded soon
 * after the feed tells of one (and of the events that complete one), and on a short poll for the
 * rest (a response's status is filled in when it is done, which the feed does not tell).
 */
import * as api from './api.js';
import { renderJournal } from './views/journal.js';

/** How often the journal is reloaded when the feed says nothing. */
const POLL_MS = 3_000;
/** How long a reload waits, so a burst of requests costs one. */
const SETTLE_MS = 300;

/** @type {number | undefined} */
let waiting;

export async function loadJournal() {
  const { requests } = await api.listAllRequests();
  renderJournal(requests);
}

/** Reloads the journal soon; at most one reload waits at a time. */
export function scheduleJournal() {
  if (waiting !== undefined) return;
  waiting = setTimeout(() => {
    waiting = undefined;
    void loadJournal().catch(() => {});
  }, SETTLE_MS);
}

export function startJournal() {
  void loadJournal().catch(() => {});
  setInterval(scheduleJournal, POLL_MS);
}
