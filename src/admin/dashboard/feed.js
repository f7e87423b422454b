/**
 * The live feed (`/_sim/feed`, a WebSocket): each message updates the state. When the connection
 * is lost the dashboard polls instead, and tries the feed again, waiting twice as long each time.
 */
import { feedUrl } from './api.js';
import { setMode, startPolling, stopPolling } from './connection.js';
import { FEED_TYPES } from './feed-types.js';
import { scheduleJournal } from './journal.js';
import { applyFeedMessage, state } from './state.js';
import { scheduleVerdicts } from './verdicts.js';
import { loadTask, resync, scheduleResync, scheduleTaskReload } from './tasks.js';
import { showError } from './views/header.js';
import { scheduleRender } from './views/render.js';

/** The feed's event types the dashboard reads: all of them (`request:received` for the journal). */
export const WATCHED_TYPES = FEED_TYPES;

/** The first retry of a lost feed; each next one waits twice as long, up to a minute. */
const FIRST_RETRY_MS = 2_000;
const LONGEST_RETRY_MS = 60_000;

export function connectFeed() {
  let socket;
  try {
    socket = new WebSocket(feedUrl(WATCHED_TYPES));
  } catch {
    startPolling();
    return;
  }
  socket.addEventListener('open', () => {
    state.connection.feed = socket;
    state.connection.retries = 0;
    stopPolling();
    setMode('live');
    // What happened while the feed was away is only in the API.
    void resync().catch(showError);
    if (state.selected) void loadTask(state.selected.id);
  });
  socket.addEventListener('message', (message) => {
    try {
      onFeedMessage(JSON.parse(String(message.data)));
    } catch (error) {
      console.error('dashboard: could not read a feed message', error);
    }
  });
  // An error is always followed by close: fall back to polling, and try the feed again later.
  socket.addEventListener('close', () => {
    if (state.connection.feed === socket) state.connection.feed = null;
    startPolling();
    const wait = Math.min(FIRST_RETRY_MS * 2 ** state.connection.retries, LONGEST_RETRY_MS);
    state.connection.retries += 1;
    setTimeout(connectFeed, wait);
  });
}

function onFeedMessage(/** @type {any} */ msg) {
  const changes = applyFeedMessage(msg);
  // A task the list did not know may be new, or an old one the feed's history replays after a reset.
  if (changes.newTask) scheduleResync();
  // The journal knows the binding and operation of the request behind a stream.
  if (changes.streams) scheduleTaskReload();
  if (changes.changed) scheduleRender({ task: changes.openTask });
  // A new request, and the events that come as one completes, show in the journal.
  if (['request:received', 'stream:closed', 'task:event'].includes(msg.type)) scheduleJournal();
  if (msg.type === 'verdict:changed') scheduleVerdicts();
}
