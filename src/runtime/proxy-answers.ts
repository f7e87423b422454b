/**
 * How the agent's answer opens a proxied turn: its first item (awaited while the client is still
 * there), the task that item makes, and the client's stream of the task, which ends with the error
 * when the relay can no longer follow the agent.
 */
import { A2AError } from '../domain/errors.js';
import type { Message, Task } from '../domain/types.js';
import { merge } from '../lib/objects.js';
import { isoTime } from '../lib/iso-time.js';
import type { UpstreamItem } from './api.js';
import type { ProxyRun } from './proxy-run.js';
import type { StreamSink, TaskStream } from './stream.js';

/**
 * The agent's first item. Until it comes, a client that leaves (`left`) abandons the call: no task
 * exists here yet, so nothing is lost; once it has come, the relay goes on without the client.
 */
export async function firstItem(
  items: AsyncIterator<UpstreamItem>,
  url: string,
  relay: AbortController,
  left: AbortSignal | undefined,
): Promise<UpstreamItem> {
  const abandon = () => relay.abort();
  left?.addEventListener('abort', abandon, { once: true });
  if (left?.aborted) relay.abort();
  let first: IteratorResult<UpstreamItem>;
  try {
    first = await items.next();
  } finally {
    left?.removeEventListener('abort', abandon);
  }
  if (first.done) {
    relay.abort();
    throw new A2AError(
      'InvalidAgentResponseError',
      `Invalid agent response: the agent at ${url} ended its answer before sending a task or a message.`,
      { httpStatus: 502 },
    );
  }
  return first.value;
}

/**
 * The task as its first item shows it; an agent that opens with an update gets a task made from it.
 * Its history is the client's message: what the agent says happened before is not kept, since the
 * store's byte budget counts a task's messages as they pass through the simulator.
 */
export function openingTask(
  first: Exclude<UpstreamItem, { kind: 'message' }>,
  message: Message,
  nowMs: number,
): Task {
  if (first.kind === 'task') {
    const { task } = first;
    return { ...task, history: [merge(message, { taskId: task.id, contextId: task.contextId })] };
  }
  return {
    id: first.taskId,
    contextId: first.contextId,
    status: { state: 'submitted', timestamp: isoTime(nowMs) },
    artifacts: [],
    history: [merge(message, { taskId: first.taskId, contextId: first.contextId })],
  };
}

/** A stream of the task's log that ends with the error when the agent can no longer be followed. */
export function breakable(stream: TaskStream, run: ProxyRun): TaskStream {
  let stopListening: (() => void) | undefined;
  return {
    ...(stream.taskId !== undefined && { taskId: stream.taskId }),
    start(sink: StreamSink) {
      let ended = false;
      const end = (error?: A2AError) => {
        if (ended) return;
        ended = true;
        stopListening?.();
        sink.end(error);
      };
      stopListening = run.onBreak((error) => {
        stream.stop();
        end(error);
      });
      stream.start({ item: (item) => !ended && sink.item(item), end });
    },
    stop() {
      stopListening?.();
      stream.stop();
    },
  };
}
