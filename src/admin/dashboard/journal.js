/**
 * The request journal (`GET /_sim/requests`) on the page: the newest requests first, reloaded soon
 * after the feed tells of one (and of the events that complete one), and on a short poll for the
 * rest (a response's status is filled in when it is done, which the feed does not tell).
 */
import * as api from './api.js';
import { reloader } from './reloader.js';
import { renderJournal } from './views/journal.js';

export async function loadJournal() {
  const { requests } = await api.listAllRequests();
  renderJournal(requests);
}

const journal = reloader(loadJournal, { pollMs: 3_000, settleMs: 300 });

export const scheduleJournal = journal.schedule;
export const startJournal = journal.start;
