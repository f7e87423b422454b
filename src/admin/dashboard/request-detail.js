/**
 * The request detail: a journal entry opened beside the list (`#request=<n>`), with Copy as curl
 * and Send again. Send again makes the call from the page as the dashboard's own client, which
 * the journal records as a new entry; the detail then shows that entry.
 */
import * as api from './api.js';
import { DASHBOARD_CLIENT } from './agent.js';
import { scheduleJournal } from './journal.js';
import { isClipped, isHttpCall, replayHeaders, toCurl, urlOf } from './replay.js';
import { selectTask } from './tasks.js';
import { byId } from './views/dom.js';
import { showError } from './views/header.js';
import {
  hideRequestDetail,
  renderRequestDetail,
  setRequestStatus,
  showCurl,
  showRequestDetail,
} from './views/request-detail.js';

/** @type {any} the entry shown */
let shown = null;

/** Opens journal entry `n`. */
export async function openRequest(/** @type {number} */ n) {
  const entry = await api.getRequest(n);
  const faults = entry.faults.length ? (await api.listFaultsAfter(Math.min(...entry.faults) - 1)).faults : [];
  shown = entry;
  history.replaceState(null, '', `#request=${n}`);
  renderRequestDetail(entry, faults, replayable(entry));
  showRequestDetail();
}

export function closeRequest() {
  shown = null;
  hideRequestDetail();
  history.replaceState(null, '', location.pathname + location.search);
}

/** Whether the page can redo the call as it was, and why not. */
function replayable(/** @type {any} */ entry) {
  if (!isHttpCall(entry)) return { canReplay: false, why: 'A gRPC call: its binary body is not kept.' };
  if (isClipped(entry)) return { canReplay: false, why: 'The journal kept only the start of its body.' };
  return { canReplay: true };
}

async function copyAsCurl() {
  if (!shown) return;
  const command = toCurl(shown, { origin: location.origin });
  showCurl(command);
  try {
    await navigator.clipboard.writeText(command);
    setRequestStatus('Copied the curl command. Set the masked secrets ($A2A_…) in the shell first.');
  } catch {
    setRequestStatus('The browser did not allow copying: select the command below.');
  }
}

async function sendAgain() {
  if (!shown) return;
  const entry = shown;
  // The call's entry will be newer than every entry now: those after the shown one are few.
  const before = await api.listRequestsAfter(entry.n);
  const lastN = before.requests.at(-1)?.n ?? entry.n;
  setRequestStatus(`Sending ${entry.method} ${entry.path} again…`);
  const response = await fetch(urlOf(entry, location.origin), {
    method: entry.method,
    headers: replayHeaders(entry.headers, DASHBOARD_CLIENT),
    ...(entry.body !== undefined &&
      entry.method !== 'GET' &&
      entry.method !== 'HEAD' && { body: entry.body }),
    cache: 'no-store',
  });
  // A stream is read to its end in the background, as its client would; its entry exists already.
  const done = response.text().catch(() => '');
  const again = await findReplay(entry, lastN);
  scheduleJournal();
  if (!again) {
    setRequestStatus(`Sent again: ${response.status}, but the journal shows no new entry.`);
    return;
  }
  await openRequest(again.n);
  setRequestStatus(`Sent again as request #${again.n}: ${response.status}.`);
  if (again.streamed || again.status === undefined) {
    await done;
    if (shown?.n === again.n) await openRequest(again.n);
  }
}

/** The entry the page's call made: the newest after `lastN` with its method, path and client. */
async function findReplay(/** @type {any} */ entry, /** @type {number} */ lastN) {
  const { requests } = await api.listRequestsAfter(lastN);
  return requests
    .filter(
      (/** @type {any} */ r) =>
        r.method === entry.method && r.path === entry.path && r.headers['x-sim-client'] === DASHBOARD_CLIENT,
    )
    .at(-1);
}

export function setupRequestDetail() {
  byId('journal').addEventListener('click', (event) => {
    const link = /** @type {Element} */ (event.target).closest('.journal-detail');
    if (!(link instanceof HTMLElement)) return;
    event.preventDefault();
    void openRequest(Number(link.dataset['n'])).catch(showError);
  });
  byId('request-detail').addEventListener('click', (event) => {
    const task = /** @type {Element} */ (event.target).closest('.request-task');
    if (task instanceof HTMLElement) selectTask(task.dataset['taskId'] ?? '');
  });
  byId('request-close').addEventListener('click', () => closeRequest());
  byId('request-copy').addEventListener('click', () => void copyAsCurl().catch(showError));
  byId('request-replay').addEventListener('click', () => void sendAgain().catch(showError));
  const linked = /^#request=(\d+)$/.exec(location.hash);
  if (linked) void openRequest(Number(linked[1])).catch(showError);
}
