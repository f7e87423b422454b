// A small client as a new user writes one: a multi-turn conversation over message:stream. It asks
// for a flight, answers the question on the same task over a stream, then starts a new
// conversation once that task has completed; a cut stream it resumes with Last-Event-ID.
import { events, stream, subscribe, taskOf } from '../lib/rest.mjs';
import { step } from '../lib/script.mjs';

const PAUSED = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);
const ENDED = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/**
 * Streams a message until the task ends or waits for input; after a cut, resubscribes with the
 * last event id it read. Returns the task's id, context and last state.
 */
async function streamed(url, text, ids) {
  const seen = {};
  let response = await stream(url, text, ids);
  for (let resumes = 0; resumes < 20; resumes++) {
    let last;
    for await (const { id, event } of events(response)) {
      const task = taskOf(event);
      seen.id ??= task.id;
      seen.contextId ??= task.contextId;
      if (task.state) seen.state = task.state;
      last = id ?? last;
    }
    if (seen.id === undefined || PAUSED.has(seen.state) || ENDED.has(seen.state)) return seen;
    response = await subscribe(url, seen.id, last === undefined ? {} : { 'last-event-id': last });
  }
  return seen;
}

export const client = {
  id: 'streaming-multi-turn',
  library: 'none',
  version: '-',
  api: 'fetch, HTTP+JSON message:stream',
  drive: async (url) => {
    const asked = await step('ask', () => streamed(url, 'Book me a flight'));
    if (asked?.state === 'TASK_STATE_INPUT_REQUIRED') {
      await step('answer', () =>
        streamed(url, 'From Oslo to Rome', { taskId: asked.id, contextId: asked.contextId }),
      );
    }
    await step('new conversation', () => streamed(url, 'What is the weather today?'));
  },
  expect: {
    reconnect: { 'resume-cursor': 'pass', 'no-lost-events': 'pass', 'input-required-continuation': 'pass' },
    quirks: { 'unknown-state': 'pass' },
    // A refused resume ends its script: it never reads the task. It comes back within the 50 ms a
    // resume is kept for, unless the machine is busy.
    'expired-resume': { 'resume-cursor': 'pass', 'get-after-failed-resume': ['fail', 'not exercised'] },
    all: {
      'resume-cursor': 'pass',
      'no-lost-events': 'pass',
      // Only a stream that reaches the task's end uncut shows how it takes the made-up state.
      'unknown-state': ['pass', 'not exercised'],
      'input-required-continuation': 'pass',
    },
  },
  evidence: {
    'resume-cursor': 'Resubscribes after a cut with Last-Event-ID set to the last id it read.',
    'no-lost-events': 'Resumes each cut stream until the task ends or waits for input.',
    'get-after-failed-resume': 'A refused resubscribe throws out of its script: it never reads the task.',
    'unknown-state': 'Reads on past a state it does not know, to the end of the task.',
    'input-required-continuation':
      'Answers on the task that asked, over a stream, and starts the next conversation only once it has completed.',
  },
};
