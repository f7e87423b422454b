// The official SDK's 0.3 line: ClientFactory, which picks the card's preferred transport.
export const client = {
  id: 'a2a-js-0.3-factory',
  library: '@a2a-js/sdk',
  version: '0.3.14',
  api: "ClientFactory (the card's preferred transport)",
  load: () => import('../lib/a2a-js-0.3.mjs'),
  drive: async (url) => (await import('../lib/a2a-js-0.3.mjs')).driveFactory(url),
  expect: {
    // A resubscribe that comes after the task has ended is refused, and the script reads the task
    // then: whether one does depends on how fast the client comes back.
    reconnect: {
      'resume-cursor': 'fail',
      'no-lost-events': 'pass',
      'get-after-failed-resume': ['pass', 'not exercised'],
      'input-required-continuation': 'pass',
    },
    polling: { 'no-poll-after-terminal': 'pass' },
    errors: { 'retry-after': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    // It comes back within the 50 ms a resume is kept for, unless the machine is busy.
    'expired-resume': { 'resume-cursor': 'fail', 'get-after-failed-resume': ['pass', 'not exercised'] },
    all: {
      'resume-cursor': 'fail',
      'no-lost-events': 'pass',
      'get-after-failed-resume': ['pass', 'not exercised'],
      'no-poll-after-terminal': 'pass',
      'retry-after': 'fail',
      'unknown-state': ['pass', 'not exercised'],
      'input-required-continuation': 'pass',
    },
  },
  evidence: {
    'resume-cursor':
      "resubscribeTask sends tasks/resubscribe with only the task id, and the SDK's SSE parser hands on no `id:` line, so a resume carries no afterSeq: on the v0.3 dialect, which asks for it (seed 002), a MUST failure.",
    'no-lost-events':
      'After a cut the script calls resubscribeTask, as the SDK offers, until the task ends; the snapshot each subscription opens with leaves nothing lost.',
    'get-after-failed-resume':
      'A refused resubscribe throws; the script reads the task with getTask before it subscribes again.',
    'no-poll-after-terminal': 'One getTask of the completed flight task, and no more.',
    'retry-after':
      "The client neither retries a 503 nor waits: it throws to the caller, and the script, as the SDK's README does, goes on with its next call at once.",
    'unknown-state': 'The stream goes on past the made-up state, and the script reads on to the real end.',
    'input-required-continuation':
      'The answer to the flight question carries the taskId and contextId of the task that asked.',
  },
};
