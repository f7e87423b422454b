/**
 * The A2A calls the page makes as a client of an agent (v1.0: `A2A-Version: 1.0`), over REST or
 * JSON-RPC, and what an answer says in a line: its task, state and texts. No DOM here.
 */
import { readSse } from './sse.js';

/** @typedef {'rest' | 'jsonrpc'} Binding */

/**
 * What the page shows of one answer or stream event: `seq` is its SSE `id:` (a stream's events only),
 * `artifact` the chunk an artifact update brings, to be joined with the chunks before it.
 * @typedef {{kind: string, taskId?: string, contextId?: string, state?: string, texts: string[],
 *   seq?: number, artifact?: {id: string, name?: string, append: boolean, lastChunk: boolean,
 *   text: string}}} Summary
 */

/**
 * Where a call goes and how: the agent (empty for the root one), the binding, and the
 * conversation's own chaos (`X-Sim-Chaos` pairs or a profile name; empty for none).
 * @typedef {{agent: string, binding: Binding, chaos?: string}} Target
 */

/** An error the agent answered with (its protocol's error shape), as opposed to a connection lost. */
export class AgentError extends Error {}

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
  const base = baseOf(agent);
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

const baseOf = (/** @type {string} */ agent) => (agent ? `../agents/${encodeURIComponent(agent)}/` : '../');

/**
 * A call about task `taskId` (`SubscribeToTask`, `CancelTask`): REST `POST /tasks/{id}:{verb}`,
 * JSON-RPC the method with `{id}`.
 * @param {Target} target
 * @param {'subscribe' | 'cancel'} verb
 * @param {string} taskId
 */
export function buildTaskCall({ agent, binding }, verb, taskId) {
  const base = baseOf(agent);
  if (binding === 'rest') {
    return { url: new URL(`${base}tasks/${encodeURIComponent(taskId)}:${verb}`, location.href), body: {} };
  }
  const method = verb === 'subscribe' ? 'SubscribeToTask' : 'CancelTask';
  return {
    url: new URL(base, location.href),
    body: { jsonrpc: '2.0', id: ++rpcId, method, params: { id: taskId } },
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

/** States after which a stream closes: a stream that ends before one was cut. */
export const STREAM_ENDS = new Set([...WAITING, 'completed', 'failed', 'canceled', 'rejected']);

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
      artifact: {
        id: update.artifact?.artifactId ?? '',
        name: update.artifact?.name,
        append: update.append === true,
        lastChunk: update.lastChunk === true,
        text: partTexts(update.artifact?.parts).join(''),
      },
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
 * The conversation's chaos goes on its messages only. Throws an AgentError with the agent's message
 * when it answers with an error; a stream cut short just ends (or throws a TypeError, for a reset).
 * @param {Parameters<typeof buildSend>[0] & Target} choice
 * @param {(summary: Summary) => void} onAnswer
 */
export const sendToAgent = (choice, onAnswer) =>
  a2aCall(buildSend(choice), choice.binding, { stream: choice.stream, chaos: choice.chaos }, onAnswer);

/**
 * Resubscribes to `taskId` after seq `cursor` (`Last-Event-ID`, on both bindings: docs/resume.md).
 * @param {Target} target
 * @param {string} taskId
 * @param {number} cursor
 * @param {(summary: Summary) => void} onAnswer
 */
export const subscribeToTask = (target, taskId, cursor, onAnswer) =>
  a2aCall(buildTaskCall(target, 'subscribe', taskId), target.binding, { stream: true, cursor }, onAnswer);

/**
 * Asks the agent to cancel `taskId`; resolves with the task as the answer has it (still working
 * when the agent takes time to stop).
 * @param {Target} target
 * @param {string} taskId
 * @returns {Promise<Summary | undefined>}
 */
export async function cancelTask(target, taskId) {
  /** @type {Summary | undefined} */
  let answer;
  await a2aCall(
    buildTaskCall(target, 'cancel', taskId),
    target.binding,
    { stream: false },
    (a) => (answer = a),
  );
  return answer;
}

/**
 * @param {{url: URL, body: unknown}} request
 * @param {Binding} binding
 * @param {{stream: boolean, chaos?: string, cursor?: number}} how
 * @param {(summary: Summary) => void} onAnswer
 */
async function a2aCall({ url, body }, binding, { stream, chaos, cursor }, onAnswer) {
  // The page's own calls name their client, which the judge leaves out of the verdicts: a demo
  // from the page is not a client under test.
  /** @type {Record<string, string>} */
  const headers = {
    'Content-Type': 'application/json',
    'A2A-Version': '1.0',
    'X-Sim-Client': DASHBOARD_CLIENT,
  };
  if (stream) headers['Accept'] = 'text/event-stream';
  if (chaos) headers['X-Sim-Chaos'] = chaos;
  if (cursor !== undefined) headers['Last-Event-ID'] = String(cursor);
  // An A2A call, not an admin one: it needs no admin token, and goes in the journal like any other.
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    cache: 'no-store',
  });
  const unwrap = (/** @type {any} */ data) => {
    const error = data?.error;
    if (!error) return binding === 'jsonrpc' ? data.result : data;
    const what =
      binding === 'jsonrpc'
        ? `JSON-RPC error ${error.code}`
        : `HTTP ${response.status}${error.status ? ` ${error.status}` : ''}`;
    throw new AgentError(`${what}: ${error.message}`);
  };
  if (/^text\/event-stream/.test(response.headers.get('content-type') ?? '')) {
    await readSse(response, (data, id) => {
      const summary = summarize(unwrap(data));
      if (id !== undefined && /^\d+$/.test(id)) summary.seq = Number(id);
      onAnswer(summary);
    });
    return;
  }
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AgentError(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  if (!response.ok && !data?.error) throw new AgentError(`HTTP ${response.status}`);
  onAnswer(summarize(unwrap(data)));
}
