/**
 * The client verdicts (`GET /_sim/verdicts`) on the page: one entry per client with each rule's
 * outcome, reloaded soon after the feed says a client's verdicts changed, and on a short poll.
 */
import * as api from './api.js';
import { reloader } from './reloader.js';
import { renderVerdicts } from './views/verdicts.js';

const verdicts = reloader(async () => renderVerdicts((await api.getVerdicts()).clients), {
  pollMs: 3_000,
  settleMs: 300,
});

export const scheduleVerdicts = verdicts.schedule;
export const startVerdicts = verdicts.start;
