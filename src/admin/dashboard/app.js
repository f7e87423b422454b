/**
 * The a2a-sim dashboard: the task list and one task's timeline, kept live by the feed
 * (`/_sim/feed`, a WebSocket), or by polling the admin API every 2 s when the feed is unavailable.
 * Plain browser JavaScript, no build step: every URL is relative to the page (`/_sim/`), so the
 * dashboard works behind a path prefix too.
 */

import { FEED_TYPES, taskIdOf } from './feed-types.js';

const TOKEN = new URLSearchParams(location.search).get('token');
const POLL_MS = 2_000;
const HEALTH_MS = 10_000;
/** The first retry of a lost feed; each next one waits twice as long, up to a minute. */
const RECONNECT_MS = 2_000;
/** Streams, faults or deliveries shown per task: the newest. */
const MAX_RECORDS = 200;
/** The feed's event types the dashboard reads (`request:received` is left out: it is the busiest). */
const WATCHED_TYPES = FEED_TYPES.filter((type) => type !== 'request:received');

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// ---------------------------------------------------------------------------------------------
// State

/**
 * One line of the task list, as `GET /_sim/tasks` gives it, kept up to date by the feed.
 * @typedef {{id: string, contextId: string, state: string, updatedAt?: string, scenario?: string,
 *   agent?: string, workspace?: string, tenant?: string, events: number}} TaskLine
 */

/** @type {Map<string, TaskLine>} newest first */
let tasks = new Map();
/** Ids the server no longer has (reset, expired): a late feed message must not bring them back. */
const gone = new Set();
/**
 * The open task: its events by seq, and what the feed or the API said about its streams, faults
 * and deliveries, each by its `n`.
 * @type {null | {id: string, missing: boolean, task?: any, oldestSeq?: number, events: Map<number, any>,
 *   streams: Map<number, any>, faults: Map<number, any>, deliveries: Map<number, any>, pushConfigs: any[]}}
 */
let selected = null;
/** Server clock minus browser clock: the server may run on a virtual clock. */
let clockOffset = 0;
/** @type {'connecting' | 'live' | 'polling' | 'offline'} */
let mode = 'connecting';
/** @type {WebSocket | null} */
let feed = null;
/** @type {number | undefined} */
let pollTimer;
let reconnectMs = RECONNECT_MS;

const serverNow = () => Date.now() + clockOffset;

/** A server clock reading from the feed or a task: only ever moves the estimate forward. */
function observeTime(/** @type {string | undefined} */ iso) {
  const at = iso ? Date.parse(iso) : NaN;
  if (at > serverNow()) clockOffset = at - Date.now();
}

// ---------------------------------------------------------------------------------------------
// The admin API

/**
 * @param {string} path relative to `/_sim/`
 * @param {RequestInit} [init]
 */
async function api(path, init = {}) {
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

/** @type {number | undefined} */
let errorTimer;
function showError(/** @type {unknown} */ error) {
  const box = $('error');
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (box.hidden = true), 8_000);
}

// ---------------------------------------------------------------------------------------------
// Header: version, chaos, reset

async function loadHealth() {
  try {
    const health = await api('health');
    $('version').textContent = `v${health.version}`;
    if (health.now) clockOffset = Date.parse(health.now) - Date.now();
    if (mode === 'offline') setMode(feed ? 'live' : 'polling');
  } catch {
    setMode('offline');
  }
}

async function loadChaos() {
  const chaos = await api('chaos');
  const select = /** @type {HTMLSelectElement} */ ($('chaos'));
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

async function changeChaos() {
  const select = /** @type {HTMLSelectElement} */ ($('chaos'));
  try {
    await api('chaos', { method: 'PUT', body: JSON.stringify({ chaos: select.value || null }) });
  } catch (error) {
    showError(error);
  }
  await loadChaos().catch(showError);
}

async function reset() {
  const button = /** @type {HTMLButtonElement} */ ($('reset'));
  button.disabled = true;
  try {
    await api('reset', { method: 'POST' });
    for (const id of tasks.keys()) gone.add(id);
    tasks = new Map();
    closeTask(false);
    scheduleRender();
    await resync();
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------------
// The task list

/** @type {number | undefined} */
let resyncTimer;
/**
 * Reloads the list soon, after the feed told of a task the list did not know: it may be new, or an
 * old one the feed's history replays after it was reset. At most one reload waits at a time.
 */
function scheduleResync() {
  if (resyncTimer !== undefined) return;
  resyncTimer = setTimeout(() => {
    resyncTimer = undefined;
    void resync().catch(() => {});
  }, 300);
}

/**
 * Replaces the list with the server's, keeping what the feed told that is newer. A task the list
 * knew before asking and the server no longer has is gone.
 */
async function resync() {
  const known = new Set(tasks.keys());
  const { tasks: lines } = await api('tasks?limit=1000');
  /** @type {Map<string, TaskLine>} */
  const next = new Map();
  for (const line of lines) {
    gone.delete(line.id);
    const mine = tasks.get(line.id);
    // The feed may be ahead of the snapshot: keep the newer state.
    next.set(line.id, mine && mine.events > line.events ? { ...line, ...pick(mine) } : line);
    observeTime(line.updatedAt);
  }
  const listed = new Set(next.keys());
  for (const [id, line] of tasks) {
    if (listed.has(id)) continue;
    if (known.has(id)) gone.add(id);
    // Told by the feed while the request was out: the next resync confirms it.
    else next.set(id, line);
  }
  tasks = next;
  if (selected && gone.has(selected.id)) selected.missing = true;
  scheduleRender({ task: selected !== null });
}

/** @param {TaskLine} line */
const pick = ({ state, updatedAt, events }) => ({ state, updatedAt, events });

/** The state an event moves its task to, with the time. */
function statusOf(/** @type {any} */ event) {
  if (event.kind === 'status') return event.status;
  if (event.kind === 'task') return event.task.status;
  return undefined;
}

/** @param {any} msg a `task:created` or `task:event` feed message */
function learnTask(msg) {
  if (gone.has(msg.taskId)) return undefined;
  let line = tasks.get(msg.taskId);
  if (!line) {
    line = { id: msg.taskId, contextId: msg.contextId, state: 'submitted', events: 0 };
    tasks = new Map([[msg.taskId, line], ...tasks]);
    scheduleResync();
  }
  for (const key of ['scenario', 'agent', 'workspace', 'tenant'])
    if (msg[key] !== undefined) line[key] = msg[key];
  line.updatedAt ??= msg.at;
  return line;
}

// ---------------------------------------------------------------------------------------------
// The feed, and polling when it is unavailable

function setMode(/** @type {typeof mode} */ next) {
  mode = next;
  const status = $('feed-status');
  status.dataset['mode'] = next;
  status.textContent = {
    connecting: 'connecting…',
    live: 'live',
    polling: `polling every ${POLL_MS / 1000} s (live feed unavailable)`,
    offline: 'simulator unreachable, retrying…',
  }[next];
}

function connectFeed() {
  const url = new URL('feed', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  url.search = '';
  url.searchParams.set('types', WATCHED_TYPES.join(','));
  if (TOKEN) url.searchParams.set('token', TOKEN);
  let socket;
  try {
    socket = new WebSocket(url);
  } catch {
    startPolling();
    return;
  }
  socket.addEventListener('open', () => {
    feed = socket;
    reconnectMs = RECONNECT_MS;
    stopPolling();
    setMode('live');
    void resync().catch(showError);
    if (selected) void loadTask(selected.id);
  });
  socket.addEventListener('message', (message) => {
    try {
      onFeed(JSON.parse(String(message.data)));
    } catch (error) {
      console.error('dashboard: could not read a feed message', error);
    }
  });
  // An error is always followed by close: fall back to polling, and try the feed again later.
  socket.addEventListener('close', () => {
    if (feed === socket) feed = null;
    startPolling();
    setTimeout(connectFeed, reconnectMs);
    reconnectMs = Math.min(reconnectMs * 2, 60_000);
  });
}

function startPolling() {
  if (mode !== 'offline') setMode('polling');
  if (pollTimer !== undefined) return;
  const poll = async () => {
    try {
      await resync();
      if (selected) await loadTask(selected.id);
      if (mode === 'offline') setMode('polling');
    } catch {
      setMode('offline');
    }
  };
  void poll();
  pollTimer = setInterval(poll, POLL_MS);
}

function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = undefined;
}

/** @param {any} msg `{n, at, type, ...}` */
function onFeed(msg) {
  observeTime(msg.at);
  const open = selected && !selected.missing ? selected : null;
  switch (msg.type) {
    case 'task:created':
      learnTask(msg);
      break;
    case 'task:event': {
      const line = learnTask(msg);
      const logged = msg.event;
      if (line && logged.seq > line.events) {
        line.events = logged.seq;
        const status = statusOf(logged.event);
        if (status) Object.assign(line, { state: status.state, updatedAt: status.timestamp });
      }
      if (open?.id === msg.taskId) open.events.set(logged.seq, logged);
      break;
    }
    case 'stream:opened':
    case 'stream:closed':
      if (open && msg.taskId === open.id) {
        const stream = open.streams.get(msg.request) ?? { n: msg.request, at: msg.at, streamed: true };
        if (msg.type === 'stream:closed') stream.closedAt = msg.at;
        open.streams.set(msg.request, stream);
        // The journal knows the binding and operation of the request.
        scheduleTaskReload();
      }
      break;
    case 'chaos:fault':
      if (open && msg.fault.taskId === open.id) open.faults.set(msg.fault.n, msg.fault);
      break;
    case 'push:attempt':
      if (open && msg.delivery.taskId === open.id) open.deliveries.set(msg.delivery.n, msg.delivery);
      break;
    default:
      return;
  }
  scheduleRender({ task: open !== null && taskIdOf(msg) === open.id });
}

// ---------------------------------------------------------------------------------------------
// The open task

function selectTask(/** @type {string} */ id) {
  if (selected?.id !== id) {
    selected = {
      id,
      missing: false,
      events: new Map(),
      streams: new Map(),
      faults: new Map(),
      deliveries: new Map(),
      pushConfigs: [],
    };
  }
  history.replaceState(null, '', `#task=${encodeURIComponent(id)}`);
  $('detail').hidden = false;
  scheduleRender({ task: true });
  void loadTask(id);
}

function closeTask(focusRow = true) {
  const id = selected?.id;
  selected = null;
  $('detail').hidden = true;
  history.replaceState(null, '', location.pathname + location.search);
  scheduleRender();
  if (id && focusRow) rows.get(id)?.querySelector('button')?.focus();
}

/** @type {number | undefined} */
let reloadTimer;
function scheduleTaskReload() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => selected && void loadTask(selected.id), 300);
}

/** Merges the task's record and its requests from the admin API into the open task. */
async function loadTask(/** @type {string} */ id) {
  let detail;
  let requests;
  try {
    [detail, { requests }] = await Promise.all([
      api(`tasks/${encodeURIComponent(id)}`),
      api(`requests?taskId=${encodeURIComponent(id)}`),
    ]);
  } catch (error) {
    if (selected?.id !== id) return;
    if (/** @type {{status?: number}} */ (error).status === 404) {
      selected.missing = true;
      gone.add(id);
      tasks.delete(id);
    } else showError(error);
    scheduleRender({ task: true });
    return;
  }
  const open = selected;
  if (open?.id !== id) return;
  open.missing = false;
  open.task = detail.task;
  open.oldestSeq = detail.oldestSeq;
  open.pushConfigs = detail.pushConfigs;
  for (const event of detail.events) open.events.set(event.seq, event);
  for (const fault of detail.faults) open.faults.set(fault.n, fault);
  for (const delivery of detail.deliveries) open.deliveries.set(delivery.n, delivery);
  for (const request of requests) {
    if (!request.streamed) continue;
    const known = open.streams.get(request.n);
    open.streams.set(request.n, { ...request, closedAt: known?.closedAt ?? closedAt(request) });
  }
  const line = tasks.get(id);
  if (line && detail.events.length && detail.latestSeq >= line.events) {
    Object.assign(line, { state: detail.state, updatedAt: detail.updatedAt, events: detail.latestSeq });
  } else if (!line && !gone.has(id)) {
    const { task: _task, events: _events, pushConfigs: _p, faults: _f, deliveries: _d, ...summary } = detail;
    tasks.set(id, { ...summary, events: detail.latestSeq });
  }
  scheduleRender({ task: true });
}

/** When a journaled stream ended, if it did. */
function closedAt(/** @type {any} */ request) {
  if (request.status === undefined || request.durationMs === undefined) return undefined;
  return new Date(Date.parse(request.at) + request.durationMs).toISOString();
}

// ---------------------------------------------------------------------------------------------
// Rendering

/**
 * @param {string} tag
 * @param {Record<string, any>} [props] attributes; `text`, `className` and `dataset` are special
 * @param {...(Node | string | null | undefined | false)} children
 */
function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'className') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

const badge = (/** @type {string} */ state) =>
  h('span', { className: `badge state-${state}`, 'data-testid': 'task-state', text: state });

/** `3 s`, `4 min`, `2 h 5 min`, `3 d`. */
function duration(/** @type {number} */ ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  if (hours < 48) return `${hours} h${m % 60 ? ` ${m % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} d`;
}

const age = (/** @type {string | undefined} */ iso) =>
  iso ? `${duration(serverNow() - Date.parse(iso))} ago` : '';

/** `12:04:05.250` (UTC): the simulator's clock, which may be virtual. */
const clockTime = (/** @type {number | string} */ at) => new Date(at).toISOString().slice(11, 23);

/** `agent explore · workspace ws-1`, or `root agent`. */
function placeText(/** @type {TaskLine} */ line) {
  const parts = [
    line.agent !== undefined && `agent ${line.agent}`,
    line.workspace !== undefined && `workspace ${line.workspace}`,
    line.tenant !== undefined && `tenant ${line.tenant}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'root agent';
}

let renderQueued = false;
/** Whether the open task changed: its timeline is redrawn only then, not for every other task. */
let taskChanged = false;
function scheduleRender(/** @type {{task?: boolean}} */ { task = false } = {}) {
  taskChanged ||= task;
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderTasks();
    if (taskChanged) renderTask();
    taskChanged = false;
  });
}

/** @type {Map<string, HTMLLIElement>} rows by task id, reused so focus stays on its button */
const rows = new Map();

function renderTasks() {
  const list = $('task-list');
  for (const [id, row] of rows) {
    if (tasks.has(id)) continue;
    row.remove();
    rows.delete(id);
  }
  let previous = null;
  for (const line of tasks.values()) {
    let row = rows.get(line.id);
    if (!row) {
      const button = h('button', { type: 'button', className: 'task-button' });
      button.addEventListener('click', () => selectTask(line.id));
      row = /** @type {HTMLLIElement} */ (
        h('li', { 'data-testid': 'task-row', 'data-task-id': line.id }, button)
      );
      rows.set(line.id, row);
    }
    fillRow(row, line);
    // Moves only rows out of place: moving a focused button would take the focus away.
    const expected = previous ? previous.nextElementSibling : list.firstElementChild;
    if (expected !== row) {
      if (previous) previous.after(row);
      else list.prepend(row);
    }
    previous = row;
  }
  $('task-count').textContent = String(tasks.size);
  $('tasks-empty').hidden = tasks.size > 0;
}

function fillRow(/** @type {HTMLLIElement} */ row, /** @type {TaskLine} */ line) {
  row.dataset['state'] = line.state;
  const button = /** @type {HTMLButtonElement} */ (row.firstElementChild);
  button.setAttribute('aria-current', String(selected?.id === line.id));
  const key = [line.state, line.scenario, placeText(line), line.events, line.updatedAt].join('|');
  if (row.dataset['key'] === key) return;
  row.dataset['key'] = key;
  button.replaceChildren(
    badge(line.state),
    h('span', { className: 'task-scenario', text: line.scenario ?? '…' }),
    h('span', { className: 'task-age', 'data-updated': line.updatedAt, title: 'since the last change' }),
    h('span', { className: 'task-place', text: placeText(line) }),
    h('span', {
      className: 'task-events',
      'data-testid': 'task-events',
      text: `${line.events} event${line.events === 1 ? '' : 's'}`,
    }),
    h('span', { className: 'task-id mono', text: line.id, title: `context ${line.contextId}` }),
  );
  renderAges(row);
}

/** Ages move on with the clock, between renders too. */
function renderAges(/** @type {ParentNode} */ root = document) {
  for (const el of root.querySelectorAll('[data-updated]')) {
    el.textContent = age(/** @type {HTMLElement} */ (el).dataset['updated']);
  }
}

function renderTask() {
  const open = selected;
  if (!open) return;
  const line = tasks.get(open.id);
  $('detail-id').textContent = open.id;
  const facts = [
    ['State', open.missing ? 'gone: reset or expired' : line ? badge(line.state) : '…'],
    ['Context', line?.contextId ?? open.task?.contextId],
    ['Scenario', line?.scenario],
    ['Where', line && placeText(line)],
    [
      'Events',
      line &&
        `${line.events}${open.oldestSeq && open.oldestSeq > 1 ? ` (seq ${open.oldestSeq}+ retained)` : ''}`,
    ],
    ['Updated', line?.updatedAt && h('span', { 'data-updated': line.updatedAt })],
  ];
  $('detail-facts').replaceChildren(
    ...facts.flatMap(([label, value]) =>
      value === undefined || value === '' ? [] : [h('dt', { text: label }), h('dd', {}, value)],
    ),
  );
  renderTimeline(open);
  renderRecords('streams', [...open.streams.values()], streamItem, 'No streams attached.');
  renderRecords('faults', [...open.faults.values()], faultItem, 'No faults injected.');
  renderRecords('push-configs', open.pushConfigs, configItem, 'No push configs.');
  renderRecords('deliveries', [...open.deliveries.values()], deliveryItem, 'No deliveries.');
  renderAges($('detail'));
}

function renderTimeline(/** @type {NonNullable<typeof selected>} */ open) {
  const events = [...open.events.values()].sort((a, b) => a.seq - b.seq);
  const first = events[0]?.atMs;
  /** Messages already on the timeline: a task snapshot shows only the ones that are new. */
  const shown = new Set();
  $('timeline').replaceChildren(
    ...events.map((logged) => {
      const { event } = logged;
      /** @type {(Node | string)[]} */
      const what = [];
      /** @type {(Node | false)[]} */
      const body = [];
      if (event.kind === 'task') {
        what.push(logged.seq === 1 ? 'task created' : 'follow-up', ' ', badge(event.task.status.state));
        for (const message of event.task.history ?? []) {
          if (shown.has(message.messageId)) continue;
          shown.add(message.messageId);
          body.push(messageView(message));
        }
      } else if (event.kind === 'status') {
        what.push('status → ', badge(event.status.state));
        const message = event.status.message;
        if (message && !shown.has(message.messageId)) {
          shown.add(message.messageId);
          body.push(messageView(message));
        }
      } else if (event.kind === 'artifact') {
        const { artifact } = event;
        what.push(`artifact “${artifact.name ?? artifact.artifactId}”`);
        const flags = [event.append && 'append', event.lastChunk && 'last chunk'].filter(Boolean).join(', ');
        if (flags) what.push(' ', h('span', { className: 'flags', text: `(${flags})` }));
        body.push(...artifact.parts.map(partView));
      }
      return h(
        'li',
        { 'data-testid': 'timeline-event', dataset: { seq: logged.seq, kind: event.kind } },
        h(
          'div',
          { className: 'event-head' },
          h('span', { className: 'seq', text: `#${logged.seq}` }),
          h(
            'time',
            { className: 'time', datetime: new Date(logged.atMs).toISOString() },
            clockTime(logged.atMs),
            first !== undefined && logged.seq !== events[0].seq ? ` (+${offset(logged.atMs - first)})` : '',
          ),
          h('span', { className: 'what' }, ...what),
        ),
        ...body,
      );
    }),
  );
  if (!events.length) $('timeline').append(h('li', { className: 'none', text: 'No events yet.' }));
}

/** `450 ms`, `1.24 s`, `2 min`. */
function offset(/** @type {number} */ ms) {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return duration(ms);
}

/** A message in (from the user) or out (from the agent). */
function messageView(/** @type {any} */ message) {
  const direction = message.role === 'user' ? 'in · user' : 'out · agent';
  return h(
    'div',
    { className: 'message', 'data-testid': 'message', dataset: { role: message.role } },
    h('span', { className: 'role', text: direction }),
    ...message.parts.map(partView),
  );
}

function partView(/** @type {any} */ part) {
  if (part.kind === 'text') return h('p', { className: 'part-text', text: part.text });
  if (part.kind === 'data') {
    return h('pre', {
      className: 'part-data',
      'data-testid': 'part-data',
      text: JSON.stringify(part.data, null, 2),
    });
  }
  const name = part.filename ?? part.mediaType ?? 'file';
  if (part.kind === 'url') {
    // Only web links are links: a client may send any URL in a part (javascript: included).
    const link = /^https?:/i.test(part.url)
      ? h('a', { href: part.url, rel: 'noreferrer', target: '_blank', text: part.url })
      : h('code', { text: part.url });
    return h('p', { className: 'part-text' }, `${name}: `, link);
  }
  if (part.kind === 'bytes') {
    const bytes = Math.floor((part.bytes.length * 3) / 4);
    return h('p', { className: 'part-text', text: `${name}: ${bytes} bytes (base64)` });
  }
  return h('pre', { className: 'part-data', text: JSON.stringify(part, null, 2) });
}

/**
 * @template {{n?: number}} T
 * @param {string} id
 * @param {T[]} items
 * @param {(item: T) => HTMLElement} view
 * @param {string} none
 */
function renderRecords(id, items, view, none) {
  const sorted = [...items].sort((a, b) => (a.n ?? 0) - (b.n ?? 0));
  const shown = sorted.slice(-MAX_RECORDS);
  const earlier = sorted.length - shown.length;
  $(id).replaceChildren(
    ...(earlier ? [h('li', { className: 'none', text: `${earlier} earlier not shown` })] : []),
    ...(sorted.length ? shown.map(view) : [h('li', { className: 'none', text: none })]),
  );
}

function streamItem(/** @type {any} */ stream) {
  const what = stream.operation
    ? `${stream.operation}${stream.binding ? ` (${stream.binding})` : ''}`
    : 'stream';
  const span = stream.closedAt
    ? `closed at ${clockTime(stream.closedAt)}, after ${offset(Date.parse(stream.closedAt) - Date.parse(stream.at))}`
    : 'open';
  return h(
    'li',
    { 'data-testid': 'stream', dataset: { open: !stream.closedAt } },
    h('span', { className: 'seq', text: `request #${stream.n}` }),
    ` ${what} · opened at ${clockTime(stream.at)} · ${span}`,
  );
}

function faultItem(/** @type {any} */ fault) {
  const detail = Object.entries(fault.detail ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const where = [
    fault.seq !== undefined && `seq ${fault.seq}`,
    fault.request && `${fault.request.binding} ${fault.request.operation}`,
    `[${fault.profile}]`,
    `at ${clockTime(fault.at)}`,
  ].filter(Boolean);
  return h(
    'li',
    { 'data-testid': 'fault', dataset: { kind: fault.kind } },
    h('span', { className: 'what', text: `${fault.kind}${detail ? ` ${detail}` : ''}` }),
    ` · ${where.join(' · ')}`,
  );
}

function configItem(/** @type {any} */ config) {
  return h(
    'li',
    { 'data-testid': 'push-config' },
    `config ${config.id} → ${config.url} (A2A ${config.dialect})`,
  );
}

function deliveryItem(/** @type {any} */ delivery) {
  const outcome = [
    delivery.outcome,
    delivery.status !== undefined && `HTTP ${delivery.status}`,
    delivery.error,
    delivery.chaos && `chaos: ${delivery.chaos}`,
  ].filter(Boolean);
  return h(
    'li',
    { 'data-testid': 'delivery', dataset: { outcome: delivery.outcome } },
    h('span', { className: 'seq', text: `seq ${delivery.seq}` }),
    ` → ${delivery.url} · attempt ${delivery.attempt} · ${outcome.join(', ')} · at ${clockTime(delivery.at)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Start

$('chaos').addEventListener('change', () => void changeChaos());
$('reset').addEventListener('click', () => void reset());
$('detail-close').addEventListener('click', () => closeTask());
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && selected) closeTask();
});
setInterval(() => renderAges(), 1_000);
setInterval(() => {
  void loadHealth();
  void loadChaos().catch(() => {});
}, HEALTH_MS);

await loadHealth();
await Promise.all([loadChaos().catch(showError), resync().catch(showError)]);
const linked = /^#task=(.+)$/.exec(location.hash);
if (linked) selectTask(decodeURIComponent(linked[1] ?? ''));
if ('WebSocket' in window) connectFeed();
else startPolling();
