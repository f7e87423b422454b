// The official SDK's current line: ClientFactory over JSON-RPC.
export const client = {
  id: 'a2a-js-1.3-jsonrpc',
  library: '@a2a-js/sdk',
  version: '1.3.0',
  api: 'ClientFactory, JSON-RPC',
  load: () => import('../lib/a2a-js-1.3.mjs'),
  drive: async (url) => (await import('../lib/a2a-js-1.3.mjs')).driveFactory(url, 'jsonrpc'),
  expect: {
    // A resubscribe that comes after the task has ended is refused, and the script reads the task
    // then: whether one does depends on how fast the client comes back.
    reconnect: {
      'resume-cursor': 'advice',
      'no-lost-events': 'pass',
      'get-after-failed-resume': ['pass', 'not exercised'],
      'input-required-continuation': 'pass',
    },
    polling: { 'no-poll-after-terminal': 'pass' },
    errors: { 'retry-after': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    // It comes back within the 50 ms a resume is kept for, unless the machine is busy.
    'expired-resume': { 'resume-cursor': 'advice', 'get-after-failed-resume': ['pass', 'not exercised'] },
    all: {
      'resume-cursor': 'advice',
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
      "resubscribeTask takes only the task id, and the SDK's SSE parser (parseSseStream, dist/client/index.js) hands on the data but not the `id:` lines, so a resume carries no cursor: on a v1.0 binding, advice, as SubscribeToTask starts with the task as it is.",
    'no-lost-events':
      'After a cut the script calls resubscribeTask, as the SDK offers, until the task ends; the snapshot each subscription opens with leaves nothing lost.',
    'get-after-failed-resume':
      'A refused resubscribe throws; the script reads the task with getTask before it subscribes again.',
    'no-poll-after-terminal': 'One getTask of the completed flight task, and no more.',
    'retry-after':
      "The client neither retries a 503 nor waits: it throws to the caller (a JSON-RPC error keeps the RetryInfo in its `data`), and the script, as the SDK's README does, goes on with its next call at once.",
    'unknown-state': 'The stream goes on past the made-up state, and the script reads on to the real end.',
    'input-required-continuation':
      'The answer to the flight question carries the taskId and contextId of the task that asked.',
  },
};
