// What a client gets that resubscribes after every cut with no cursor, reads the task with GetTask
// when a resubscribe is refused, reads a task once it has ended, and calls again at once after a
// 503: the official SDKs and Mastra's clients, as the zoo's scripts drive them. On a v1.0 binding a
// resume with no cursor is advice; on the v0.3 dialect, a MUST failure (PROTOCOL.md §13).
export function resumingClientExpect(binding) {
  const cursor = binding === 'v0.3' ? 'fail' : 'advice';
  // A resubscribe that comes after the task has ended is refused, and the script reads the task
  // then; one that comes later than the 50 ms a resume is kept for, likewise: whether one does
  // depends on how fast the client comes back, which a busy machine slows.
  const raced = ['pass', 'not exercised'];
  return {
    reconnect: {
      'resume-cursor': cursor,
      'no-lost-events': 'pass',
      'get-after-failed-resume': raced,
      'input-required-continuation': 'pass',
    },
    polling: { 'no-poll-after-terminal': 'pass' },
    errors: { 'retry-after': 'fail' },
    quirks: { 'unknown-state': 'pass' },
    'expired-resume': { 'resume-cursor': cursor, 'get-after-failed-resume': raced },
    all: {
      'resume-cursor': cursor,
      'no-lost-events': 'pass',
      'get-after-failed-resume': raced,
      'no-poll-after-terminal': 'pass',
      'retry-after': 'fail',
      // Only a subscription that reaches the task's end uncut shows how it takes the made-up state.
      'unknown-state': raced,
      'input-required-continuation': 'pass',
    },
  };
}
