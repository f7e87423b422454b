// One script for the official @a2a-js/sdk clients, whichever line (1.3, 0.3) and API (ClientFactory,
// the legacy A2AClient): what the SDK's README shows, with the resubscribe its client offers after a
// cut stream, and GetTask when that is refused. The `sdk` adapter hides the two lines' shapes.
import { step } from './script.mjs';

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
const RESUMES = 20;

/**
 * @param sdk {{
 *   send(text: string, ids?: {taskId?: string, contextId?: string}, returnImmediately?: boolean): Promise<object>,
 *   stream(text: string): AsyncIterable<object>,
 *   resubscribe(taskId: string): AsyncIterable<object>,
 *   get(taskId: string): Promise<object>,
 *   cancel(taskId: string): Promise<object>,
 *   task(answer: object): {id?: string, contextId?: string, state?: string},
 * }}
 */
export async function journey(sdk) {
  await step('send', () => sdk.send('What is the weather today?'));
  await step('stream', () => streamToTheEnd(sdk));
  const asked = await step('ask', async () => sdk.task(await sdk.send('Book me a flight')));
  if (asked?.state === 'input-required') {
    await step('answer', () =>
      sdk.send('From Oslo to Rome', { taskId: asked.id, contextId: asked.contextId }),
    );
    await step('get', () => sdk.get(asked.id));
  }
  const started = await step('start', async () =>
    sdk.task(await sdk.send('Write a long report on climate change', {}, true)),
  );
  if (started?.id) await step('cancel', () => sdk.cancel(started.id));
}

/** Reads a stream; after a cut, resubscribes; a refused resubscribe sends it to GetTask first. */
async function streamToTheEnd(sdk) {
  let events = sdk.stream('Write a long report on climate change');
  let taskId;
  for (let resumes = 0; resumes <= RESUMES; resumes++) {
    let state;
    try {
      for await (const event of events) {
        const seen = sdk.task(event);
        taskId ??= seen.id;
        if (seen.state) state = seen.state;
      }
    } catch (error) {
      if (taskId === undefined) throw error;
      const task = sdk.task(await sdk.get(taskId));
      if (TERMINAL.has(task.state)) return;
    }
    if (TERMINAL.has(state) || taskId === undefined) return;
    events = sdk.resubscribe(taskId);
  }
}

/** The v1.0 proto enum's name, as the 0.3 line spells states. */
export const stateName = (state) =>
  state === undefined
    ? undefined
    : String(state)
        .replace('TASK_STATE_', '')
        .toLowerCase()
        .replace('_', '-')
        .replace('unspecified', 'unknown');

/** Why the official SDK's clients get what they get, by line (`1.3`, `0.3`) and wire. */
export function sdkEvidence(line, wire) {
  return {
    'resume-cursor':
      line === '1.3'
        ? "resubscribeTask takes only the task id, and the SDK's SSE parser (parseSseStream, dist/client/index.js) hands on the data but not the `id:` lines, so a resume carries no cursor: on a v1.0 binding, advice, as SubscribeToTask starts with the task as it is."
        : "resubscribeTask sends tasks/resubscribe with only the task id, and the SDK's SSE parser hands on no `id:` line, so a resume carries no afterSeq: on the v0.3 dialect, which asks for it (seed 002), a MUST failure.",
    'no-lost-events':
      'After a cut the script calls resubscribeTask, as the SDK offers, until the task ends; the snapshot each subscription opens with leaves nothing lost.',
    'get-after-failed-resume':
      'A refused resubscribe throws; the script reads the task with getTask before it subscribes again.',
    'no-poll-after-terminal': 'One getTask of the completed flight task, and no more.',
    'retry-after': `The client neither retries a 503 nor waits: it throws to the caller${wire === 'jsonrpc' ? ' (a JSON-RPC error keeps the RetryInfo in its `data`)' : ''}, and the script, as the SDK's README does, goes on with its next call at once.`,
    'unknown-state': 'The stream goes on past the made-up state, and the script reads on to the real end.',
    'input-required-continuation':
      'The answer to the flight question carries the taskId and contextId of the task that asked.',
  };
}
