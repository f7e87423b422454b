// A plain HTTP+JSON (A2A v1.0) client in a few lines, as a new user writes one with fetch and a
// hand-written SSE reader: what the zoo's small clients are made of.
const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

export const message = (text, ids = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids },
});

export async function send(url, text, ids) {
  const response = await fetch(`${url}/message:send`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(message(text, ids)),
  });
  if (!response.ok) throw new Error(`message:send: HTTP ${response.status}`);
  return (await response.json()).task;
}

/** The stream's events (each a StreamResponse with its SSE id), until it ends or is cut. */
export async function* events(response) {
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: ?(.*)$/m.exec(frame)?.[1];
        const data = /^data: ?(.*)$/m.exec(frame)?.[1];
        if (data) yield { id, event: JSON.parse(data) };
      }
    }
  } catch {
    // cut: what came whole has been read
  }
}

export const stream = (url, text, ids) =>
  fetch(`${url}/message:stream`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(message(text, ids)),
  });

export const subscribe = (url, taskId, headers = {}) =>
  fetch(`${url}/tasks/${taskId}:subscribe`, { method: 'POST', headers: { ...HEADERS, ...headers } });

/** The task an event speaks of, and its state if it says one. */
export function taskOf(event) {
  const task = event.task ?? event.statusUpdate ?? event.artifactUpdate;
  const id = event.task?.id ?? task?.taskId;
  const state = (event.task?.status ?? event.statusUpdate?.status)?.state;
  return { id, contextId: task?.contextId, state };
}
