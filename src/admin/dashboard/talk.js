/**
 * Talking to an agent from the page, as a client would: the panel's form sends a message over the
 * binding chosen, with the conversation's own chaos if one is chosen, and shows the answer or each
 * streamed event. A running stream can be canceled; a stream cut before its task ended names the
 * fault and resumes from the last seq received. When the task waits for input the next message
 * continues it. The task shows up in the list through the feed, like anyone's.
 */
import { AgentError, cancelTask, sendToAgent, STREAM_ENDS, subscribeToTask, WAITING } from './agent.js';
import * as api from './api.js';
import { selectTask } from './tasks.js';
import { byId } from './views/dom.js';
import { CHAOS_PAIRS, showChaosPairs, showChaosProfiles, showScenarios } from './views/talk-choices.js';
import {
  setTalkBusy,
  showAgents,
  showAnswer,
  showCancel,
  showContinuing,
  showCut,
  showResumed,
  showSent,
  showStreamEnd,
  showTalkError,
} from './views/talk.js';

/**
 * The task the next message continues: one that waits for input, on the agent it runs on.
 * @type {{agent: string, taskId: string, contextId: string, state: string} | null}
 */
let continuing = null;

/**
 * The conversation on show: where its calls go, its task as far as its answers told, the last seq
 * received (where a resume starts after), and whether a cancel was asked.
 * @typedef {{target: import('./agent.js').Target, stream: boolean, taskId?: string,
 *   contextId?: string, state?: string, cursor?: number, events: number, resuming: boolean,
 *   cancelAsked: boolean}} Conversation
 * @type {Conversation | null}
 */
let conversation = null;

/** @type {{scenarios?: any[], agents?: any[], chaosProfiles?: string[]}} */
let catalog = {};

const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (byId(id));

/** Fills the agent choice, the scenarios it plays and the chaos profiles from the catalog. */
export async function loadAgents() {
  catalog = await api.getCatalog();
  showAgents(catalog.agents ?? []);
  showChaosProfiles(catalog.chaosProfiles ?? []);
  showAgentScenarios();
}

const showAgentScenarios = () =>
  showScenarios(catalog, field('talk-agent').value, (prompt) => {
    field('talk-text').value = prompt;
    field('talk-text').focus();
  });

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
  byId('talk-agent').addEventListener('change', () => {
    setContinuing(null);
    showAgentScenarios();
  });
  byId('talk-chaos').addEventListener('change', () => showChaosPairs());
  byId('talk-cancel').addEventListener('click', () => void cancel());
  setContinuing(null);
}

function setContinuing(/** @type {typeof continuing} */ next) {
  continuing = next;
  showContinuing(next);
}

/** The conversation's own chaos, sent as `X-Sim-Chaos` on its messages: a profile, pairs, or none. */
function chosenChaos() {
  const choice = field('talk-chaos').value;
  const chaos = choice === CHAOS_PAIRS ? field('talk-chaos-pairs').value.trim() : choice;
  return chaos || undefined;
}

async function send() {
  const input = field('talk-text');
  const text = input.value.trim();
  if (!text) return;
  const agent = field('talk-agent').value;
  const choice = {
    agent,
    binding: /** @type {'rest' | 'jsonrpc'} */ (field('talk-binding').value),
    stream: field('talk-stream').checked,
    text,
    chaos: chosenChaos(),
    continuing: continuing?.agent === agent ? continuing : null,
  };
  // Only what was sent leaves the field: what the user types while the answer comes stays.
  input.value = '';
  const { binding, chaos } = choice;
  conversation = {
    target: { agent, binding, chaos },
    stream: choice.stream,
    events: 0,
    resuming: false,
    cancelAsked: false,
  };
  showSent(choice);
  const sent = await play(conversation, (onAnswer) => sendToAgent(choice, onAnswer));
  if (!sent && !input.value) input.value = text;
}

/**
 * Runs one call of `talk` and shows what it brings; says whether the agent took it (an error it
 * answered with is shown, and a stream cut before the task ended offers to resume).
 * @param {Conversation} talk
 * @param {(onAnswer: (answer: import('./agent.js').Summary) => void) => Promise<void>} call
 */
async function play(talk, call) {
  setTalkBusy(true, talk.stream && talk.taskId !== undefined);
  /** @type {unknown} */
  let lost;
  try {
    await call((answer) => onAnswer(talk, answer));
  } catch (error) {
    if (error instanceof AgentError || !talk.stream || talk.taskId === undefined) {
      showTalkError(error);
      setTalkBusy(false);
      return false;
    }
    lost = error;
  }
  setTalkBusy(false);
  if (conversation !== talk) return true;
  const { taskId, contextId, state } = talk;
  if (talk.stream && taskId && !(state && STREAM_ENDS.has(state))) {
    await offerResume(talk, taskId, lost);
    return true;
  }
  if (talk.stream) showStreamEnd(talk.events);
  const agent = talk.target.agent;
  setContinuing(
    taskId && contextId && state && WAITING.has(state) ? { agent, taskId, contextId, state } : null,
  );
  return true;
}

function onAnswer(/** @type {Conversation} */ talk, /** @type {import('./agent.js').Summary} */ answer) {
  if (conversation !== talk) return;
  // A resume replays from the cursor: an event seen already (or a chaos duplicate) is skipped, and
  // so is the task snapshot a resubscribe may open with, which the conversation has shown already.
  if (answer.seq !== undefined && talk.cursor !== undefined && answer.seq <= talk.cursor) return;
  if (talk.resuming && answer.kind === 'task') return;
  if (answer.seq !== undefined) talk.cursor = answer.seq;
  talk.events += 1;
  const known = talk.taskId !== undefined;
  talk.taskId = answer.taskId ?? talk.taskId;
  talk.contextId = answer.contextId ?? talk.contextId;
  talk.state = answer.state ?? talk.state;
  if (!known && talk.taskId && talk.stream) setTalkBusy(true, true);
  showAnswer(answer);
  if (talk.cancelAsked && answer.state === 'canceled') showCancel('done');
}

/** Names the fault that cut the stream (the task's newest in the fault log) and offers to resume. */
async function offerResume(
  /** @type {Conversation} */ talk,
  /** @type {string} */ taskId,
  /** @type {unknown} */ lost,
) {
  /** @type {any} */
  let fault;
  try {
    const { faults } = await api.listFaults(taskId);
    fault = [...faults].reverse().find((/** @type {any} */ f) => f.kind === 'drop') ?? faults.at(-1);
  } catch {
    fault = undefined;
  }
  const cursor = talk.cursor ?? 0;
  const error = lost instanceof Error ? lost.message : undefined;
  showCut({ taskId, cursor, fault, ...(error && { error }) }, () => void resume(talk, taskId), selectTask);
}

async function resume(/** @type {Conversation} */ talk, /** @type {string} */ taskId) {
  if (conversation !== talk) return;
  const cursor = talk.cursor ?? 0;
  talk.resuming = true;
  showResumed(cursor);
  await play(talk, (onAnswer) => subscribeToTask(talk.target, taskId, cursor, onAnswer));
}

/** Asks the agent to cancel the conversation's task; the stream says when it ended canceled. */
async function cancel() {
  const talk = conversation;
  if (!talk?.taskId) return;
  const button = /** @type {HTMLButtonElement} */ (byId('talk-cancel'));
  button.disabled = true;
  talk.cancelAsked = true;
  try {
    const answer = await cancelTask(talk.target, talk.taskId);
    if (talk.state !== 'canceled') {
      if (answer?.state === 'canceled') showCancel('done');
      else showCancel('asked', answer?.state);
    }
  } catch (error) {
    talk.cancelAsked = false;
    showCancel('refused', error instanceof Error ? error.message : String(error));
  } finally {
    button.disabled = false;
  }
}
