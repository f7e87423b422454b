// The client the seeds describe, written for this suite (test/verdicts/fixtures/exam-client.mjs):
// it resumes after the last event it got, polls with backoff, jitter and a deadline, honours
// Retry-After, follows unknown states, answers input-required on its task, and revalidates the card.
import { fileURLToPath } from 'node:url';
import { runScript } from '../lib/script.mjs';

const SCRIPT = fileURLToPath(new URL('../../verdicts/fixtures/exam-client.mjs', import.meta.url));
const id = 'seeds-client';

export const client = {
  id,
  library: 'none',
  version: '-',
  api: 'fetch, HTTP+JSON (test/verdicts/fixtures/exam-client.mjs)',
  // Its script is a process of its own: the curricula's simulators can take it at once.
  concurrent: true,
  drive: (url) => runScript(SCRIPT, url, { BINDING: 'rest', CLIENT_ID: id }),
  expect: {
    reconnect: { 'resume-cursor': 'pass', 'no-lost-events': 'pass', 'input-required-continuation': 'pass' },
    polling: {
      'poll-deadline': 'pass',
      'poll-backoff': 'pass',
      'poll-jitter': 'pass',
      'no-poll-after-terminal': 'pass',
      'card-revalidation': 'pass',
    },
    errors: { 'retry-after': 'pass' },
    quirks: { 'unknown-state': 'pass' },
    'expired-resume': { 'resume-cursor': 'pass', 'get-after-failed-resume': 'pass' },
    all: {
      'resume-cursor': 'pass',
      'no-lost-events': 'pass',
      'poll-deadline': 'pass',
      'poll-backoff': 'pass',
      'poll-jitter': 'pass',
      'no-poll-after-terminal': 'pass',
      'retry-after': 'pass',
      'unknown-state': 'pass',
      'input-required-continuation': 'pass',
      'card-revalidation': 'pass',
    },
  },
  evidence: {
    'resume-cursor': 'Resubscribes with Last-Event-ID set to the last SSE id it read.',
    'no-lost-events': 'Resumes after every cut until the task ends, so every event reaches it.',
    'get-after-failed-resume': 'A refused resume sends it to GetTask before it subscribes again.',
    'poll-deadline': 'Gives up polling the endless task after its deadline (500 ms, at least three polls).',
    'poll-backoff': 'Doubles its polling interval from 50 ms up to 800 ms.',
    'poll-jitter': 'Draws each wait between 0.3 and 1.7 times the interval.',
    'no-poll-after-terminal': 'Stops polling once GetTask shows a terminal state.',
    'retry-after': 'Waits as long as Retry-After says before it calls again.',
    'unknown-state': 'Reads on past the unknown state to the real end of the task.',
    'input-required-continuation':
      'Answers the flight question with the taskId and contextId of the task that asked.',
    'card-revalidation': 'Fetches the card again with If-None-Match and the ETag it got.',
  },
};
