/** The "Talk to an agent" panel: the agents to pick, the message sent, and each answer as it comes. */
import { badge, byId, h } from './dom.js';

const BINDINGS = { rest: 'REST', jsonrpc: 'JSON-RPC' };

/** Answers shown of one stream: the newest (after the message sent). */
const MAX_ANSWERS = 300;

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
 * @param {{text: string, binding: 'rest' | 'jsonrpc', stream: boolean,
 *   continuing?: {taskId: string} | null}} sent
 */
export function showSent(sent) {
  const how = [
    `${BINDINGS[sent.binding]} ${sent.stream ? 'stream' : 'send'}`,
    sent.continuing && `continues task ${sent.continuing.taskId}`,
  ].filter(Boolean);
  byId('talk-output').replaceChildren(
    h(
      'li',
      { className: 'talk-sent', 'data-testid': 'talk-sent' },
      h('span', { className: 'role', text: 'you' }),
      h('span', { className: 'part-text', text: sent.text }),
      h('span', { className: 'flags', text: how.join(' · ') }),
    ),
  );
}

/** One answer: the whole answer of a send, or one event of a stream. */
export function showAnswer(/** @type {import('../agent.js').Summary} */ answer) {
  const item = h(
    'li',
    {
      className: 'talk-answer',
      'data-testid': 'talk-answer',
      dataset: { kind: answer.kind, state: answer.state, taskId: answer.taskId },
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
  const output = byId('talk-output');
  output.append(item);
  // A long stream keeps the message sent and its newest events.
  if (output.children.length > MAX_ANSWERS + 1) output.children[1]?.remove();
}

/** A stream that ended, with how many events it brought. */
export function showStreamEnd(/** @type {number} */ events) {
  const text = `stream closed after ${events} event${events === 1 ? '' : 's'}`;
  byId('talk-output').append(h('li', { className: 'none', 'data-testid': 'talk-end', text }));
}

export function showTalkError(/** @type {unknown} */ error) {
  const text = error instanceof Error ? error.message : String(error);
  byId('talk-output').append(h('li', { className: 'talk-error', 'data-testid': 'talk-error', text }));
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

export function setTalkBusy(/** @type {boolean} */ busy) {
  const button = /** @type {HTMLButtonElement} */ (byId('talk-send'));
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
}
