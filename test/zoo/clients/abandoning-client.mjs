// A small client as a new user writes one: it takes a cut stream for the end of the task and
// leaves, while the task still runs (the exam's fixture, breaking the rule it was made to break).
import { fileURLToPath } from 'node:url';
import { runScript } from '../lib/script.mjs';

const SCRIPT = fileURLToPath(new URL('../../verdicts/fixtures/exam-client.mjs', import.meta.url));
const id = 'abandoning-client';

export const client = {
  id,
  library: 'none',
  version: '-',
  api: 'fetch, JSON-RPC 1.0; leaves at the first cut',
  // Its script is a process of its own: the curricula's simulators can take it at once.
  concurrent: true,
  drive: (url) => runScript(SCRIPT, url, { BINDING: 'jsonrpc', CLIENT_ID: id, BREAK: 'abandon' }),
  expect: {
    // Without cuts it is the seeds' client; at the first cut it leaves (and does nothing more).
    reconnect: { 'no-lost-events': 'fail' },
    polling: {
      'poll-deadline': 'pass',
      'poll-backoff': 'pass',
      'poll-jitter': 'pass',
      'no-poll-after-terminal': 'pass',
      'card-revalidation': 'pass',
    },
    errors: { 'retry-after': 'pass' },
    quirks: { 'unknown-state': 'pass' },
    all: { 'no-lost-events': 'fail', 'card-revalidation': 'pass' },
  },
  evidence: {
    'no-lost-events': 'Takes the cut for the end of the task and exits while the task runs on.',
    'poll-deadline':
      "Without cuts, it is the seeds' client: it gives up polling the endless task at its deadline.",
    'poll-backoff': 'Doubles its polling interval from 50 ms up to 800 ms.',
    'poll-jitter': 'Draws each wait between 0.3 and 1.7 times the interval.',
    'no-poll-after-terminal': 'Stops polling once GetTask shows a terminal state.',
    'retry-after': 'Waits as long as Retry-After says before it calls again.',
    'unknown-state': 'Reads on past the unknown state to the real end of the task.',
    'card-revalidation': 'Fetches the card again with If-None-Match and the ETag it got.',
  },
};
