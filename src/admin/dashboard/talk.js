/**
 * Talking to an agent from the page, as a client would: the panel's form sends a message over the
 * binding chosen, shows the answer or each streamed event, and when the task waits for input the
 * next message continues it. The task shows up in the list through the feed, like anyone's.
 */
import { sendToAgent, WAITING } from './agent.js';
import * as api from './api.js';
import { byId } from './views/dom.js';
import {
  setTalkBusy,
  showAgents,
  showAnswer,
  showContinuing,
  showSent,
  showStreamEnd,
  showTalkError,
} from './views/talk.js';

/**
 * The task the next message continues: one that waits for input, on the agent it runs on.
 * @type {{agent: string, taskId: string, contextId: string, state: string} | null}
 */
let continuing = null;

const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (byId(id));

/** Fills the agent choice from the catalog. */
export async function loadAgents() {
  const catalog = await api.getCatalog();
  showAgents(catalog.agents ?? []);
}

export function setupTalk() {
  byId('talk-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });
  byId('talk-new').addEventListener('click', () => {
    setContinuing(null);
    field('talk-text').focus();
  });
  // A task is visible only on its own agent: another agent starts a new conversation.
  byId('talk-agent').addEventListener('change', () => setContinuing(null));
  setContinuing(null);
}

function setContinuing(/** @type {typeof continuing} */ next) {
  continuing = next;
  showContinuing(next);
}

async function send() {
  const text = field('talk-text').value.trim();
  if (!text) return;
  const agent = field('talk-agent').value;
  const choice = {
    agent,
    binding: /** @type {'rest' | 'jsonrpc'} */ (field('talk-binding').value),
    stream: field('talk-stream').checked,
    text,
    continuing: continuing?.agent === agent ? continuing : null,
  };
  setTalkBusy(true);
  showSent(choice);
  /** @type {{taskId?: string, contextId?: string, state?: string}} */
  const last = {};
  let answers = 0;
  try {
    await sendToAgent(choice, (answer) => {
      answers += 1;
      showAnswer(answer);
      last.taskId = answer.taskId ?? last.taskId;
      last.contextId = answer.contextId ?? last.contextId;
      last.state = answer.state ?? last.state;
    });
    if (choice.stream) showStreamEnd(answers);
    field('talk-text').value = '';
    const { taskId, contextId, state } = last;
    setContinuing(
      taskId && contextId && state && WAITING.has(state) ? { agent, taskId, contextId, state } : null,
    );
  } catch (error) {
    showTalkError(error);
  } finally {
    setTalkBusy(false);
  }
}
