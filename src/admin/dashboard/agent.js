/**
 * The A2A calls the page makes as a client of an agent (v1.0: `A2A-Version: 1.0`), over REST or
 * JSON-RPC, and what an answer says in a line: its task, state and texts. No DOM here.
 */
import { readSse } from './sse.js';

/** @typedef {'rest' | 'jsonrpc'} Binding */

/**
 * What the page shows of one answer or stream event.
 * @typedef {{kind: string, taskId?: string, contextId?: string, state?: string, texts: string[]}} Summary
 */

let rpcId = 0;

/** The client name the page's calls carry (`X-Sim-Client`); src/verdicts/judge.ts leaves it unjudged. */
export const DASHBOARD_CLIENT = 'a2a-sim-dashboard';

const newMessageId = () => `dash-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * The URL and body of a send: to the root agent (`agent` empty) or a defined one, at the server
 * root beside `/_sim/` (relative, so a path prefix in front of both works too).
 * @param {{agent: string, binding: Binding, stream: boolean, text: string,
 *   continuing?: {taskId: string, contextId: string} | null}} choice
 */
export function buildSend({ agent, binding, stream, text, continuing }) {
  const base = agent ? `../agents/${encodeURIComponent(agent)}/` : '../';
  const message = {
    role: 'ROLE_USER',
    parts: [{ text }],
    messageId: newMessageId(),
    ...(continuing && { taskId: continuing.taskId, contextId: continuing.contextId }),
  };
  if (binding === 'rest') {
    return { url: new URL(`${base}message:${stream ? 'stream' : 'send'}`, location.href), body: { message } };
  }
  const method = stream ? 'SendStreamingMessage' : 'SendMessage';
  return {
    url: new URL(base, location.href),
    body: { jsonrpc: '2.0', id: ++rpcId, method, params: { message } },
  };
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`, as the task list writes states. */
export const shortState = (/** @type {string | undefined} */ s) =>
  s
    ?.replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');

/** States where the task waits for the user: the next message continues it. */
export const WAITING = new Set(['input-required', 'auth-required']);

/** The texts of a message's or artifact's parts: text as it is, data as JSON, files by name. */
function partTexts(/** @type {any[] | undefined} */ parts) {
  return (parts ?? []).map((part) => {
    if (typeof part.text === 'string') return part.text;
    if (part.data !== undefined) return JSON.stringify(part.data);
    if (part.url !== undefined) return `${part.filename ?? 'file'}: ${part.url}`;
    return `${part.filename ?? 'file'} (${part.mediaType ?? 'bytes'})`;
  });
}

const artifactTexts = (/** @type {any} */ artifact) =>
  partTexts(artifact?.parts).map((text) => (artifact?.name ? `${artifact.name}: ${text}` : text));

/**
 * A v1.0 SendMessageResponse or StreamResponse (`{task}`, `{message}`, `{statusUpdate}`,
 * `{artifactUpdate}`) in a line.
 * @returns {Summary}
 */
export function summarize(/** @type {any} */ answer) {
  if (answer?.task) {
    const { task } = answer;
    return {
      kind: 'task',
      taskId: task.id,
      contextId: task.contextId,
      state: shortState(task.status?.state),
      texts: [...(task.artifacts ?? []).flatMap(artifactTexts), ...partTexts(task.status?.message?.parts)],
    };
  }
  if (answer?.statusUpdate) {
    const update = answer.statusUpdate;
    return {
      kind: 'status',
      taskId: update.taskId,
      contextId: update.contextId,
      state: shortState(update.status?.state),
      texts: partTexts(update.status?.message?.parts),
    };
  }
  if (answer?.artifactUpdate) {
    const update = answer.artifactUpdate;
    return {
      kind: 'artifact',
      taskId: update.taskId,
      contextId: update.contextId,
      texts: artifactTexts(update.artifact),
    };
  }
  if (answer?.message) {
    const { message } = answer;
    return {
      kind: 'message',
      taskId: message.taskId,
      contextId: message.contextId,
      texts: partTexts(message.parts),
    };
  }
  return { kind: 'unknown', texts: [JSON.stringify(answer)] };
}

/**
 * Sends `choice`; calls `onAnswer` with each answer (one for a send, each event for a stream).
 * Throws an Error with the agent's message when it answers with an error.
 * @param {Parameters<typeof buildSend>[0]} choice
 * @param {(summary: Summary) => void} onAnswer
 */
export async function sendToAgent(choice, onAnswer) {
  const { url, body } = buildSend(choice);
  // The page's own calls name their client, which the judge leaves out of the verdicts: a demo
  // from the page is not a client under test.
  const headers = {
    'Content-Type': 'application/json',
    'A2A-Version': '1.0',
    'X-Sim-Client': DASHBOARD_CLIENT,
  };
  if (choice.stream) Object.assign(headers, { Accept: 'text/event-stream' });
  // An A2A call, not an admin one: it needs no admin token, and goes in the journal like any other.
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    cache: 'no-store',
  });
  const unwrap = (/** @type {any} */ data) => {
    const error = data?.error;
    if (!error) return choice.binding === 'jsonrpc' ? data.result : data;
    const what =
      choice.binding === 'jsonrpc'
        ? `JSON-RPC error ${error.code}`
        : `HTTP ${response.status}${error.status ? ` ${error.status}` : ''}`;
    throw new Error(`${what}: ${error.message}`);
  };
  if (/^text\/event-stream/.test(response.headers.get('content-type') ?? '')) {
    await readSse(response, (data) => onAnswer(summarize(unwrap(data))));
    return;
  }
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  if (!response.ok && !data?.error) throw new Error(`HTTP ${response.status}`);
  onAnswer(summarize(unwrap(data)));
}
