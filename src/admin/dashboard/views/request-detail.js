/**
 * One journaled request in full: its request line, headers and body, the answer as sent (status,
 * headers, body, or a stream's events), the faults applied to it, and what Copy as curl and Send
 * again did. Secrets come masked from the journal; nothing here unmasks them.
 */
import { byId, h } from './dom.js';
import { clockTime } from './time.js';

export function showRequestDetail() {
  const section = byId('request-detail');
  section.hidden = false;
  section.scrollIntoView({ block: 'nearest' });
  byId('request-heading').focus();
}

export function hideRequestDetail() {
  byId('request-detail').hidden = true;
  byId('request-curl').hidden = true;
  setRequestStatus('');
}

/**
 * @param {any} entry as `GET /_sim/requests/<n>` gives it
 * @param {any[]} faults the fault records it names (`GET /_sim/faults`)
 * @param {{canReplay: boolean, why?: string}} replay whether Send again and Copy as curl can redo it
 */
export function renderRequestDetail(entry, faults, replay) {
  byId('request-n').textContent = `#${entry.n}`;
  const section = byId('request-detail');
  section.dataset['n'] = String(entry.n);
  section.dataset['operation'] = entry.operation ?? '';
  const facts = [
    ['Arrived', clockTime(entry.at)],
    ['Read as', [entry.binding, entry.operation].filter(Boolean).join(' · ') || 'not an A2A call'],
    ['Agent', entry.agent],
    ['Workspace', entry.workspace],
    [
      'Task',
      entry.taskId &&
        h('button', {
          type: 'button',
          className: 'request-task',
          'data-task-id': entry.taskId,
          text: `Open task ${entry.taskId}`,
        }),
    ],
    ['Client', entry.headers?.['x-sim-client']],
  ];
  byId('request-facts').replaceChildren(
    ...facts.flatMap(([label, value]) => (value ? [h('dt', { text: label }), h('dd', {}, value)] : [])),
  );
  byId('request-line').textContent = `${entry.method} ${entry.path}`;
  byId('request-headers').replaceChildren(...headerItems(entry.headers ?? {}));
  byId('request-body').textContent = entry.body === undefined ? '(no body)' : pretty(entry.body);
  renderAnswer(entry);
  byId('request-faults').replaceChildren(
    ...(entry.faults.length
      ? [
          ...entry.faults.map((/** @type {number} */ n) => faultItem(n, faults, entry.taskId)),
          ...(entry.moreFaults
            ? [h('li', { className: 'none', text: `… and ${entry.moreFaults} more, only counted` })]
            : []),
        ]
      : [h('li', { className: 'none', text: 'No faults applied.' })]),
  );
  for (const id of ['request-copy', 'request-replay']) {
    const button = /** @type {HTMLButtonElement} */ (byId(id));
    button.disabled = !replay.canReplay;
    button.title = replay.why ?? '';
  }
}

function renderAnswer(/** @type {any} */ entry) {
  const status =
    entry.status === undefined
      ? 'pending: the answer is not done'
      : entry.status === 0
        ? 'closed without an answer'
        : `${entry.status}${entry.streamed ? ', an event stream' : ''}${entry.durationMs !== undefined ? ` in ${entry.durationMs} ms` : ''}`;
  byId('answer-status').textContent = status;
  const answer = entry.answer;
  byId('answer-headers').replaceChildren(...headerItems(answer?.headers ?? {}));
  const body = byId('answer-body');
  const events = byId('answer-events');
  body.hidden = !answer || answer.events !== undefined;
  events.hidden = !answer?.events;
  if (!answer) body.textContent = '';
  else if (answer.events) {
    events.replaceChildren(
      ...answer.events.map((/** @type {string} */ frame) =>
        h('li', { 'data-testid': 'answer-event' }, h('pre', { text: frame })),
      ),
    );
  } else body.textContent = answer.body === '' ? '(no body)' : pretty(answer.body);
  const more = [
    answer?.moreEvents && `${answer.moreEvents.toLocaleString('en')} more events`,
    answer?.moreBytes && `${answer.moreBytes.toLocaleString('en')} more bytes`,
  ].filter(Boolean);
  const dropped = byId('answer-more');
  dropped.hidden = more.length === 0;
  dropped.textContent = `… ${more.join(', ')}: sent, not kept`;
  byId('answer-none').hidden = answer !== undefined;
}

/** @param {Record<string, string>} headers */
function headerItems(headers) {
  return Object.entries(headers).flatMap(([name, value]) => [
    h('dt', { text: name }),
    h('dd', { className: value === '(redacted)' ? 'masked' : undefined, text: value }),
  ]);
}

function faultItem(
  /** @type {number} */ n,
  /** @type {any[]} */ faults,
  /** @type {string | undefined} */ taskId,
) {
  const fault = faults.find((f) => f.n === n);
  const what = fault
    ? `${fault.kind}${fault.seq !== undefined ? ` at seq ${fault.seq}` : ''}`
    : 'no longer kept';
  return h(
    'li',
    { 'data-testid': 'request-fault' },
    `#${n} ${what} `,
    taskId &&
      h('button', {
        type: 'button',
        className: 'request-task link',
        'data-task-id': taskId,
        text: "In the task's faults",
      }),
  );
}

/** JSON laid out, anything else as it came. */
function pretty(/** @type {string} */ text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The curl command, in the page (a test, or a browser without clipboard access, reads it here). */
export function showCurl(/** @type {string} */ command) {
  const area = /** @type {HTMLTextAreaElement} */ (byId('request-curl'));
  area.value = command;
  area.hidden = false;
}

export function setRequestStatus(/** @type {string} */ text) {
  byId('request-status').textContent = text;
}
