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
