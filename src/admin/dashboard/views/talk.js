/**
 * The "Talk to an agent" panel's output: the message sent, then each answer as it comes, in one
 * conversation that a resume continues. An artifact streamed in chunks shows as the one text they
 * build. The output follows what arrives unless the user scrolled up to read (back at the bottom,
 * it follows again).
 */
import { badge, byId, h } from './dom.js';

const BINDINGS = { rest: 'REST', jsonrpc: 'JSON-RPC' };

/** Answers shown of one stream: the newest (after the message sent). */
const MAX_ANSWERS = 300;

/** How close to the bottom, in pixels, still counts as reading the newest. */
const AT_BOTTOM = 24;

const output = () => byId('talk-output');

/** Changes the output by `change`, and keeps its newest in view if it was in view before. */
function follow(/** @type {() => void} */ change) {
  const box = output();
  const following = box.scrollHeight - box.scrollTop - box.clientHeight <= AT_BOTTOM;
  change();
  if (following) box.scrollTop = box.scrollHeight;
}

/** The root agent, then each defined agent of the catalog (`GET /_sim/scenarios`). */
export function showAgents(/** @type {{id: string, name?: string}[]} */ agents) {
  const select = /** @type {HTMLSelectElement} */ (byId('talk-agent'));
  const values = ['', ...agents.map((agent) => agent.id)];
  if ([...select.options].map((o) => o.value).join('\n') === values.join('\n')) return;
  const chosen = select.value;
  select.replaceChildren(
    new Option('root agent (/)', ''),
    ...agents.map((agent) => new Option(`${agent.name ?? agent.id} (/agents/${agent.id})`, agent.id)),
  );
  if (values.includes(chosen)) select.value = chosen;
}

/**
 * Starts the output over with the message just sent.
 * @param {{text: string, binding: 'rest' | 'jsonrpc', stream: boolean, chaos?: string,
 *   continuing?: {taskId: string} | null}} sent
 */
export function showSent(sent) {
  const how = [
    `${BINDINGS[sent.binding]} ${sent.stream ? 'stream' : 'send'}`,
    sent.continuing && `continues task ${sent.continuing.taskId}`,
    sent.chaos && `chaos: ${sent.chaos}`,
  ].filter(Boolean);
  output().replaceChildren(
    h(
      'li',
      { className: 'talk-sent', 'data-testid': 'talk-sent' },
      h('span', { className: 'role', text: 'you' }),
      h('span', { className: 'part-text', text: sent.text }),
      h('span', { className: 'flags', text: how.join(' · ') }),
    ),
  );
  output().scrollTop = 0;
}

/** One answer: the whole answer of a send, or one event of a stream (a chunk joins its artifact). */
export function showAnswer(/** @type {import('../agent.js').Summary} */ answer) {
  if (answer.artifact) {
    follow(() => showChunk(answer, /** @type {NonNullable<typeof answer.artifact>} */ (answer.artifact)));
    return;
  }
  const item = h(
    'li',
    {
      className: 'talk-answer',
      'data-testid': 'talk-answer',
      dataset: { kind: answer.kind, state: answer.state, taskId: answer.taskId, seq: answer.seq },
    },
    h(
      'div',
      { className: 'event-head' },
      h('span', { className: 'what', text: answer.kind }),
      answer.state && badge(answer.state),
      answer.taskId && h('span', { className: 'task-id mono', text: `task ${answer.taskId}` }),
    ),
    ...answer.texts.map((text) => h('p', { className: 'part-text', text })),
  );
  follow(() => {
    output().append(item);
    // A long stream keeps the message sent and its newest events.
    if (output().children.length > MAX_ANSWERS + 1) output().children[1]?.remove();
  });
}

/**
 * A chunk of an artifact: appended to the text its earlier chunks built (or replacing it when it
 * does not append), with the count of chunks so far.
 * @param {import('../agent.js').Summary} answer
 * @param {NonNullable<import('../agent.js').Summary['artifact']>} chunk
 */
function showChunk(answer, chunk) {
  const found = [...output().querySelectorAll('[data-testid="talk-artifact"]')].find(
    (el) => el instanceof HTMLElement && el.dataset['artifactId'] === chunk.id,
  );
  /** @type {HTMLElement} */
  let item;
  if (found instanceof HTMLElement && chunk.append) {
    item = found;
  } else {
    item = h(
      'li',
      {
        className: 'talk-answer talk-artifact',
        'data-testid': 'talk-artifact',
        dataset: { kind: 'artifact', artifactId: chunk.id, taskId: answer.taskId, chunks: 0 },
      },
      h(
        'div',
        { className: 'event-head' },
        h('span', { className: 'what', text: chunk.name ? `artifact ${chunk.name}` : 'artifact' }),
        h('span', { className: 'chunk-count', 'data-testid': 'chunk-count' }),
        answer.taskId && h('span', { className: 'task-id mono', text: `task ${answer.taskId}` }),
      ),
      h('div', { className: 'artifact-text', 'data-testid': 'artifact-text' }),
    );
    if (found) found.replaceWith(item);
    else output().append(item);
  }
  const chunks = Number(item.dataset['chunks'] ?? 0) + 1;
  item.dataset['chunks'] = String(chunks);
  if (chunk.lastChunk) item.dataset['complete'] = 'true';
  const count = `${chunks} chunk${chunks === 1 ? '' : 's'}${chunk.lastChunk ? ', complete' : ''}`;
  /** @type {HTMLElement} */ (item.querySelector('.chunk-count')).textContent = count;
  /** @type {HTMLElement} */ (item.querySelector('.artifact-text')).textContent += chunk.text;
}

/** A stream that ended, with how many events it brought. */
export function showStreamEnd(/** @type {number} */ events) {
  const text = `stream closed after ${events} event${events === 1 ? '' : 's'}`;
  follow(() => output().append(h('li', { className: 'none', 'data-testid': 'talk-end', text })));
}

export function showTalkError(/** @type {unknown} */ error) {
  const text = error instanceof Error ? error.message : String(error);
  follow(() => output().append(h('li', { className: 'talk-error', 'data-testid': 'talk-error', text })));
}

/**
 * A stream cut before its task ended: the fault that cut it, if the fault log has it (with a link
 * that opens the task's fault list), and a button that resumes from the last seq received.
 * @param {{taskId: string, cursor: number, fault?: any, error?: string}} cut
 * @param {() => void} onResume
 * @param {(taskId: string) => void} onOpenTask
 */
export function showCut({ taskId, cursor, fault, error }, onResume, onOpenTask) {
  const detail = Object.entries(fault?.detail ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const what = fault
    ? `Stream cut by chaos: ${fault.kind}${detail ? ` (${detail})` : ''} at seq ${fault.seq}, profile ${fault.profile}.`
    : `Stream cut before the task ended${error ? ` (${error})` : ''}; no chaos fault is recorded for it.`;
  const link = h('a', {
    href: `#task=${encodeURIComponent(taskId)}`,
    'data-testid': 'talk-fault-link',
    text: fault ? `fault #${fault.n} in the task's faults` : 'the task',
  });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    onOpenTask(taskId);
  });
  const resume = h('button', {
    type: 'button',
    className: 'talk-resume',
    'data-testid': 'talk-resume',
    text: `Resume from seq ${cursor}`,
    title: `Subscribe to task ${taskId} again with Last-Event-ID: ${cursor}`,
  });
  resume.addEventListener('click', () => {
    resume.remove();
    onResume();
  });
  follow(() =>
    output().append(
      h(
        'li',
        { className: 'talk-cut', 'data-testid': 'talk-cut', dataset: { kind: fault?.kind, seq: fault?.seq } },
        h('span', { text: `${what} See ` }),
        link,
        h('span', { text: '. The task goes on: ' }),
        resume,
      ),
    ),
  );
}

/** A resume under way, in the same conversation. */
export function showResumed(/** @type {number} */ cursor) {
  const text = `resumed after seq ${cursor} (Last-Event-ID: ${cursor})`;
  follow(() => output().append(h('li', { className: 'none', 'data-testid': 'talk-resumed', text })));
}

/**
 * Where a cancel stands: `asked` once the agent took it while the task still works (a slow cancel),
 * `done` once the task ended canceled, `refused` with the agent's error.
 * @param {'asked' | 'done' | 'refused'} stage
 * @param {string} [detail]
 */
export function showCancel(stage, detail = '') {
  const text = {
    asked: `Cancel asked: the agent took it, and the task is still ${detail || 'working'} until it stops.`,
    done: 'Canceled: the task ended canceled.',
    refused: `Cancel refused: ${detail}`,
  }[stage];
  const existing = output().querySelector('[data-testid="talk-cancel-state"]');
  const item = h('li', {
    className: `talk-cancel talk-cancel-${stage}`,
    'data-testid': 'talk-cancel-state',
    dataset: { stage },
    text,
  });
  follow(() => (existing ? existing.replaceWith(item) : output().append(item)));
}

/** Says which task the next message continues, if any. */
export function showContinuing(/** @type {{taskId: string, state: string} | null} */ continuing) {
  byId('talk-continue').hidden = !continuing;
  byId('talk-continue-text').textContent = continuing
    ? `Task ${continuing.taskId} is ${continuing.state}: your next message continues it.`
    : '';
  /** @type {HTMLInputElement} */ (byId('talk-text')).placeholder = continuing
    ? 'Your answer, e.g. From Oslo to Rome'
    : 'A message, e.g. Book me a flight';
}

/** While a call is out, Send waits; Cancel shows once there is a running task to cancel. */
export function setTalkBusy(/** @type {boolean} */ busy, /** @type {boolean} */ cancellable = false) {
  const button = /** @type {HTMLButtonElement} */ (byId('talk-send'));
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
  const cancel = /** @type {HTMLButtonElement} */ (byId('talk-cancel'));
  cancel.hidden = !(busy && cancellable);
}
