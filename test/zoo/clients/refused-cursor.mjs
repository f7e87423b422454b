// A small client as a new user writes one: after a cut it resubscribes with the cursor it kept,
// which is `undefined` (its SSE reader dropped the `id:` lines), three times, and gives up.
import { events, stream, subscribe, taskOf } from '../lib/rest.mjs';
import { step } from '../lib/script.mjs';

export const client = {
  id: 'refused-cursor',
  library: 'none',
  version: '-',
  api: 'fetch, HTTP+JSON; Last-Event-ID: undefined',
  drive: async (url) => {
    let taskId;
    for await (const { event } of events(await stream(url, 'Write a long report on climate change'))) {
      taskId ??= taskOf(event).id;
    }
    let cursor; // never set: the id lines were not read
    for (let i = 0; i < 3; i++) {
      await step('resubscribe', async () => {
        const response = await subscribe(url, taskId, { 'last-event-id': String(cursor) });
        for await (const _ of events(response));
      });
    }
  },
  expect: {
    reconnect: { 'resume-cursor': 'advice', 'no-lost-events': 'fail', 'get-after-failed-resume': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    'expired-resume': { 'resume-cursor': 'advice', 'get-after-failed-resume': 'fail' },
    all: { 'resume-cursor': 'advice', 'no-lost-events': 'fail', 'get-after-failed-resume': 'fail' },
  },
  evidence: {
    'resume-cursor': 'Resubscribes with Last-Event-ID "undefined", which the simulator refuses with 400.',
    'no-lost-events':
      'Never resumes with a cursor the server takes, so the events after the cut never reach it.',
    'get-after-failed-resume':
      'Gives up after three refused resubscribes, without reading the task with GetTask.',
    'unknown-state': 'Reads its stream to the end, past the made-up state.',
  },
};
