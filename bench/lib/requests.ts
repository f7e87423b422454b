/**
 * The A2A requests the bench makes itself, outside the load generator and the stream clients: the
 * task a workload reads, warm-up streams; and the message every send workload carries. In a body,
 * `[<id>]` stands for a fresh id per request.
 */

export const WEATHER = 'What is the weather today?';
export const V1_HEADERS = { 'Content-Type': 'application/json', 'A2A-Version': '1.0' };
export const V1_MESSAGE = { role: 'ROLE_USER', parts: [{ text: WEATHER }], messageId: 'bench-[<id>]' };
export const REST_SEND_BODY = JSON.stringify({ message: V1_MESSAGE });

export const freshId = () => Math.random().toString(36).slice(2, 12);

/** A body with its `[<id>]` made `id`. */
export const withId = (body: string, id: string) => body.replaceAll('[<id>]', id);

export async function requestJson(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** One REST message:send; resolves to the created task's id. */
export async function createTask(url: string): Promise<string> {
  const answer = (await requestJson(`${url}/message:send`, {
    method: 'POST',
    headers: V1_HEADERS,
    body: withId(REST_SEND_BODY, freshId()),
  })) as { task?: { id?: string } };
  if (typeof answer.task?.id !== 'string') throw new Error(`message:send at ${url} created no task`);
  return answer.task.id;
}

/**
 * One stream of a bench scenario read up to its `events`-th event, so the run does not count
 * first-use costs as per-stream or per-event ones. With `cancel`, its task is canceled after that,
 * so that it does not go on costing CPU inside the run's windows.
 */
export async function warmStream(
  url: string,
  scenario: string,
  events: number,
  cancel = false,
): Promise<void> {
  const abort = new AbortController();
  const response = await fetch(`${url}/message:stream`, {
    method: 'POST',
    headers: V1_HEADERS,
    body: JSON.stringify({
      message: {
        role: 'ROLE_USER',
        parts: [{ text: `${scenario} warm-up ${freshId()}` }],
        messageId: `${scenario}-warm-${freshId()}`,
      },
    }),
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  let seen = 0;
  let text = '';
  const decoder = new TextDecoder();
  while (seen < events) {
    const { value, done } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    if (text.length < 200) text += chunk;
    seen += chunk.split('\n\n').length - 1;
  }
  abort.abort();
  const taskId = /"task":\{"id":"([^"]+)"/.exec(text)?.[1];
  if (cancel && taskId) {
    await requestJson(`${url}/tasks/${taskId}:cancel`, { method: 'POST', headers: V1_HEADERS });
  }
}
