/**
 * The admin API under `/_sim`, by URLs relative to the page, so the dashboard works behind a path
 * prefix too. With --admin-token the page's `?token=` goes along on every call and on the feed.
 */

const TOKEN = new URLSearchParams(location.search).get('token');

/**
 * The JSON body of `path`'s answer; an answer that is not 2xx throws an Error with the API's
 * message and the HTTP `status`.
 * @param {string} path relative to `/_sim/`
 * @param {RequestInit} [init]
 */
async function call(path, init = {}) {
  const headers = new Headers(init.headers);
  // Changes must show they were sent on purpose (a page elsewhere cannot add a header): see access.ts.
  headers.set('X-Sim-Admin', '1');
  if (TOKEN) headers.set('X-Admin-Token', TOKEN);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  const response = await fetch(path, { ...init, headers, cache: 'no-store' });
  const text = await response.text();
  let body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = new Error(body?.error?.message ?? `HTTP ${response.status} from ${path}`);
    Object.assign(error, { status: response.status });
    throw error;
  }
  return body;
}

export const getHealth = () => call('health');

export const getChaos = () => call('chaos');

/** Sets the global chaos profile; `null` for none. */
export const putChaos = (/** @type {string | null} */ chaos) =>
  call('chaos', { method: 'PUT', body: JSON.stringify({ chaos }) });

export const postReset = () => call('reset', { method: 'POST' });

export const listTasks = () => call('tasks?limit=1000');

export const getTask = (/** @type {string} */ id) => call(`tasks/${encodeURIComponent(id)}`);

/** The journaled requests about a task: which binding and operation each stream came from. */
export const listRequests = (/** @type {string} */ taskId) =>
  call(`requests?taskId=${encodeURIComponent(taskId)}`);

/** The live feed's WebSocket URL, narrowed to `types`. */
export function feedUrl(/** @type {readonly string[]} */ types) {
  const url = new URL('feed', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  url.search = '';
  url.searchParams.set('types', types.join(','));
  // A browser cannot set a header on a WebSocket: the token goes in the query, as access.ts allows.
  if (TOKEN) url.searchParams.set('token', TOKEN);
  return url;
}

/** The loaded scenarios and agents (`GET /_sim/scenarios`): the agents to talk to. */
export const getCatalog = () => call('scenarios');

/** Every journaled request, oldest first. */
export const listAllRequests = () => call('requests');

/** Each client's verdicts, rule by rule. */
export const getVerdicts = () => call('verdicts');

/** The chaos faults injected into task `taskId`'s calls, oldest first. */
export const listFaults = (/** @type {string} */ taskId) =>
  call(`faults?taskId=${encodeURIComponent(taskId)}`);

/** One journal entry in full: the request and its answer as sent (`GET /_sim/requests/<n>`). */
export const getRequest = (/** @type {number} */ n) => call(`requests/${n}`);

/** The journaled requests numbered after `n`, oldest first. */
export const listRequestsAfter = (/** @type {number} */ n) => call(`requests?after=${n}`);

/** The chaos faults numbered after `n`. */
export const listFaultsAfter = (/** @type {number} */ n) => call(`faults?after=${n}`);

/** The problems a client reading `card` as `version` would meet (`POST /_sim/cards/check`). */
export const checkCard = (/** @type {unknown} */ card, /** @type {'1.0' | '0.3'} */ version) =>
  call('cards/check', { method: 'POST', body: JSON.stringify({ card, version }) });
