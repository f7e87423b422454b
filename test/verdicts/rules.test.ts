/**
 * Each rule on calls made by hand: what makes it pass, fail (with evidence) or not apply. The
 * calls are what the witness records; the facts are the tasks as the store knows them.
 */
import { describe, expect, it } from 'vitest';
import type { TaskState } from '../../src/domain/types.js';
import type { Delivered, Observation } from '../../src/verdicts/observation.js';
import type { TaskFacts } from '../../src/verdicts/rule.js';
import { RULES } from '../../src/verdicts/rules.js';
import { DEFAULT_THRESHOLDS } from '../../src/verdicts/thresholds.js';

const FACTS: Record<string, TaskFacts> = {
  t1: { state: 'completed', latestSeq: 5 },
  t2: { state: 'working', latestSeq: 3 },
};

function judge(ruleId: string, calls: Observation[], facts = FACTS) {
  const rule = RULES.find((r) => r.id === ruleId)!;
  const {
    exercised,
    failures,
    advice = [],
  } = rule.judge({
    calls,
    facts: (id) => facts[id],
    thresholds: DEFAULT_THRESHOLDS,
  });
  return failures.length ? 'fail' : advice.length ? 'advice' : exercised ? 'pass' : 'not exercised';
}

// Events that showed no state, kept as the witness keeps them: their seq alone.
const seqs = (...list: number[]): Delivered[] => list;
const states = (...list: TaskState[]): Delivered[] => list.map((state, i) => ({ seq: i + 1, state }));
const stream = (atMs: number, delivered: Delivered[], extra: Partial<Observation> = {}): Observation => ({
  atMs,
  kind: 'stream',
  taskId: 't1',
  delivered,
  ended: 'clean',
  ...extra,
});
const subscribe = (atMs: number, cursor: number | undefined, delivered: Delivered[]): Observation => ({
  atMs,
  kind: 'subscribe',
  taskId: 't1',
  delivered,
  ended: 'clean',
  ...(cursor !== undefined && { cursor }),
});
const get = (atMs: number, state: TaskState = 'working', taskId = 't2'): Observation => ({
  atMs,
  kind: 'get',
  taskId,
  state,
});
const polls = (intervals: number[], state: TaskState = 'working') => {
  let at = 0;
  return [get(0, state), ...intervals.map((d) => get((at += d), state))];
};

describe('every rule', () => {
  it.each(RULES.map((r) => [r.id, r] as const))('%s names the requirement it rests on', (_id, rule) => {
    expect(rule.source).toMatch(/Seeds? 00[23]|A2A v1\.[01](\.\d)?( draft)? §\d|RFC \d+ §/);
    if (rule.advice) expect(rule.advice.source).toMatch(/A2A v1\.0 §\d|A2A #\d+/);
  });
});

describe('the stream rules', () => {
  it('resume-cursor: a reconnect after a drop resumes from the last event delivered, no further', () => {
    const cut = stream(0, seqs(1, 2), { ended: 'cut' });
    expect(judge('resume-cursor', [cut, subscribe(10, 2, seqs(3, 4, 5))])).toBe('pass');
    expect(judge('resume-cursor', [cut, subscribe(10, undefined, seqs(3, 4, 5))])).toBe('fail');
    expect(judge('resume-cursor', [cut, subscribe(10, 4, seqs(5))])).toBe('fail');
    expect(judge('resume-cursor', [stream(0, seqs(1, 2, 3, 4, 5))])).toBe('not exercised');
  });

  it('resume-cursor: a MUST through the gateway and v0.3, advice on the v1.0 bindings (§3.1.6, A2A #1986)', () => {
    const on = (version: '1.0' | '0.3', call: Observation): Observation => ({
      ...call,
      read: { binding: version === '1.0' ? 'REST' : 'gateway', version, operation: 'resubscribe' },
    });
    const cut = stream(0, seqs(1, 2), { ended: 'cut' });
    const bare = subscribe(10, undefined, seqs(3, 4, 5));
    expect(judge('resume-cursor', [cut, on('0.3', bare)])).toBe('fail');
    // v1.0's SubscribeToTask starts with the task as it is: a client may rebuild from it.
    expect(judge('resume-cursor', [cut, on('1.0', bare)])).toBe('advice');
    expect(judge('resume-cursor', [cut, on('1.0', subscribe(10, 4, seqs(5)))])).toBe('advice');
    expect(judge('resume-cursor', [cut, on('1.0', subscribe(10, 2, seqs(3, 4, 5)))])).toBe('pass');
  });

  it('no-lost-events: every event of the task, across connections, once it has ended', () => {
    const cut = stream(0, seqs(1, 2), { ended: 'cut' });
    expect(judge('no-lost-events', [cut, subscribe(10, 2, seqs(3, 4, 5))])).toBe('pass');
    expect(judge('no-lost-events', [cut, subscribe(10, 3, seqs(4, 5))])).toBe('fail');
    expect(judge('no-lost-events', [cut])).toBe('fail');
    expect(judge('no-lost-events', [{ ...cut, taskId: 't2' }])).toBe('not exercised');
  });

  it('get-after-failed-resume: GetTask is the next call after a refused resume', () => {
    const refused: Observation = {
      atMs: 10,
      kind: 'subscribe',
      taskId: 't1',
      cursor: 1,
      error: { type: 'InvalidParamsError', reason: 'EVENTS_EXPIRED' },
    };
    expect(judge('get-after-failed-resume', [refused, get(20, 'completed', 't1')])).toBe('pass');
    expect(judge('get-after-failed-resume', [refused, subscribe(20, undefined, [])])).toBe('fail');
    expect(judge('get-after-failed-resume', [refused])).toBe('fail');
    expect(judge('get-after-failed-resume', [get(0, 'completed', 't1')])).toBe('not exercised');
  });

  it('unknown-state: after an unknown state the client still reaches the real end', () => {
    const unknown: Delivered = { synthetic: true, state: 'unknown' };
    expect(judge('unknown-state', [stream(0, [unknown, ...states('working', 'completed')])])).toBe('pass');
    expect(
      judge('unknown-state', [stream(0, [unknown], { ended: 'clean' }), get(10, 'completed', 't1')]),
    ).toBe('pass');
    expect(judge('unknown-state', [stream(0, [unknown, ...states('working')])])).toBe('fail');
    expect(judge('unknown-state', [stream(0, states('working', 'completed'))])).toBe('not exercised');
  });

  it('unknown-state: a stream cut right after the unknown state is not charged to it (no-lost-events judges the cut)', () => {
    const unknown: Delivered = { synthetic: true, state: 'unknown' };
    // The client gave up after the cut: one fault, judged by no-lost-events only.
    const cut = stream(0, [{ seq: 1, state: 'submitted' }, unknown], { ended: 'cut' });
    expect(judge('unknown-state', [cut])).toBe('not exercised');
    expect(judge('no-lost-events', [cut])).toBe('fail');
    // A later stream with the quirk and real events after it is judged.
    const resumed = subscribe(10, 1, [unknown, { seq: 2, state: 'working' }]);
    expect(judge('unknown-state', [cut, { ...resumed, ended: 'clean' }])).toBe('fail');
    const finished = subscribe(10, 1, [
      unknown,
      { seq: 2, state: 'working' },
      { seq: 5, state: 'completed' },
    ]);
    expect(judge('unknown-state', [cut, finished])).toBe('pass');
  });

  it('unknown-state: a stream cut later, after real events, is not charged to it either', () => {
    const unknown: Delivered = { synthetic: true, state: 'unknown' };
    // The client read on past the made-up state until chaos cut the stream, and left: it lost the
    // rest to the cut, which no-lost-events judges; it showed nothing of how it takes the state.
    const cut = stream(0, [{ seq: 1, state: 'submitted' }, unknown, { seq: 2, state: 'working' }], {
      ended: 'cut',
    });
    expect(judge('unknown-state', [cut])).toBe('not exercised');
    expect(judge('no-lost-events', [cut])).toBe('fail');
  });
});

describe('the polling rules', () => {
  it('poll-deadline: polling an unfinished task stops within the maximum count', () => {
    expect(judge('poll-deadline', polls([100, 200, 400]))).toBe('pass');
    expect(judge('poll-deadline', polls(Array.from({ length: 40 }, () => 10)))).toBe('fail');
    expect(judge('poll-deadline', polls([100, 200], 'completed'))).toBe('not exercised');
  });

  it('poll-backoff: intervals grow', () => {
    expect(judge('poll-backoff', polls([100, 210, 390, 820, 1500, 2900]))).toBe('pass');
    expect(judge('poll-backoff', polls([25, 50, 100, 200, 200, 210, 190, 200, 205]))).toBe('pass');
    expect(judge('poll-backoff', polls([100, 110, 90, 105, 95, 100]))).toBe('fail');
    expect(judge('poll-backoff', polls([100, 200, 400]))).toBe('not exercised');
  });

  it('poll-jitter: intervals stray from a fixed cadence', () => {
    expect(judge('poll-jitter', polls([100, 260, 330, 950, 1200, 2900]))).toBe('pass');
    expect(judge('poll-jitter', polls([100, 200, 400, 800, 1600, 3200]))).toBe('fail');
    expect(judge('poll-jitter', polls([50, 100, 200, 400, 400, 400, 400]))).toBe('fail');
    // One interval a slow network stretched does not make a cadence jittered.
    expect(judge('poll-jitter', polls([100, 200, 480, 800, 1600, 3200]))).toBe('fail');
    expect(judge('poll-jitter', polls([100, 100, 100, 100, 100, 100]))).toBe('fail');
  });

  it('no-poll-after-terminal: no GetTask once the end was delivered', () => {
    expect(judge('no-poll-after-terminal', [get(0, 'working', 't1'), get(10, 'completed', 't1')])).toBe(
      'pass',
    );
    expect(judge('no-poll-after-terminal', [get(0, 'completed', 't1'), get(10, 'completed', 't1')])).toBe(
      'fail',
    );
    expect(judge('no-poll-after-terminal', [stream(0, states('working', 'completed'))])).toBe(
      'not exercised',
    );
  });

  it('no-poll-after-terminal: one GetTask after a stream or send showed the end is a read, not polling (§3.1.3)', () => {
    const streamed = stream(0, states('working', 'completed'));
    expect(judge('no-poll-after-terminal', [streamed, get(10, 'completed', 't1')])).toBe('pass');
    const sent: Observation = { atMs: 0, kind: 'send', taskId: 't1', state: 'completed' };
    expect(judge('no-poll-after-terminal', [sent, get(10, 'completed', 't1')])).toBe('pass');
    // A read refused with 503 and retried is still one read.
    const refused: Observation = {
      ...get(10, 'completed', 't1'),
      error: { type: 'UnavailableError', reason: 'X' },
    };
    expect(judge('no-poll-after-terminal', [sent, refused, get(1010, 'completed', 't1')])).toBe('pass');
    expect(
      judge('no-poll-after-terminal', [streamed, get(10, 'completed', 't1'), get(20, 'completed', 't1')]),
    ).toBe('fail');
  });
});

describe('the call rules', () => {
  const throttled: Observation = {
    atMs: 0,
    endedAtMs: 5,
    kind: 'send',
    error: { type: 'UnavailableError', reason: 'UNAVAILABLE', retryAfterMs: 1000 },
  };

  it('retry-after: the next request waits as long as Retry-After said', () => {
    expect(judge('retry-after', [throttled, { atMs: 1010, kind: 'send' }])).toBe('pass');
    expect(judge('retry-after', [throttled, { atMs: 300, kind: 'send' }])).toBe('fail');
    expect(
      judge('retry-after', [
        { atMs: 0, kind: 'send' },
        { atMs: 1, kind: 'send' },
      ]),
    ).toBe('not exercised');
  });

  it('input-required-continuation: the answer continues the waiting task', () => {
    const asked: Observation = { atMs: 0, kind: 'send', taskId: 't1', state: 'input-required' };
    expect(
      judge('input-required-continuation', [
        asked,
        { atMs: 10, kind: 'send', continues: 't1', taskId: 't1' },
      ]),
    ).toBe('pass');
    // Through the gateway: the context continued the task, which the answer shows.
    expect(
      judge('input-required-continuation', [
        asked,
        { atMs: 10, kind: 'send', taskId: 't1', state: 'completed' },
      ]),
    ).toBe('pass');
    expect(judge('input-required-continuation', [asked, { atMs: 10, kind: 'send', taskId: 't9' }])).toBe(
      'fail',
    );
    expect(judge('input-required-continuation', [asked])).toBe('not exercised');
  });

  it('input-required-continuation: a streamed follow-up that continued the task leaves nothing waiting', () => {
    // Book me a flight over message:stream, the answer over message:stream with the same taskId
    // (its opening Task still shows input-required), then a new conversation.
    const asked = stream(0, states('submitted', 'input-required'));
    const answered = stream(10, [
      { seq: 3, state: 'input-required' },
      { seq: 4, state: 'working' },
      { seq: 5, state: 'completed' },
    ]);
    const next: Observation = { atMs: 20, kind: 'stream', taskId: 't9', delivered: states('submitted') };
    const calls = [asked, { ...answered, continues: 't1' }, next];
    expect(judge('input-required-continuation', calls)).toBe('pass');
    // The same follow-up without the task's id started a new task instead.
    expect(judge('input-required-continuation', [asked, { ...next, atMs: 10 }])).toBe('fail');
  });

  it('card-revalidation: a card fetched again is asked for conditionally', () => {
    const card = (atMs: number, conditional: boolean): Observation => ({ atMs, kind: 'card', conditional });
    expect(judge('card-revalidation', [card(0, false), card(10, true)])).toBe('pass');
    expect(judge('card-revalidation', [card(0, false), card(10, false)])).toBe('fail');
    expect(judge('card-revalidation', [card(0, false)])).toBe('not exercised');
  });
});

describe('rules on inputs a hostile client can make large (F3, F4)', () => {
  it('no-lost-events judges a stream of 150,000 events without throwing', () => {
    const many = Array.from({ length: 150_000 }, (_, i) => i + 1);
    const facts = { t1: { state: 'completed', latestSeq: 150_000 } as TaskFacts };
    const delivered = (list: number[]): Delivered[] => list.map((seq) => ({ seq }));
    const cut = stream(0, delivered(many.slice(0, 1000)), { ended: 'cut' });
    const resumed = subscribe(10, undefined, delivered(many.slice(1000)));
    expect(judge('no-lost-events', [cut, resumed], facts)).toBe('pass');
  });

  it('poll-jitter and poll-backoff judge 20,000 polls of one task: a cadence shows in its first intervals', () => {
    const cadence = Array.from({ length: 20_000 }, () => 1000);
    expect(judge('poll-jitter', polls(cadence))).toBe('fail');
    expect(judge('poll-backoff', polls(cadence))).toBe('fail');
    const jittered = Array.from({ length: 20_000 }, (_, i) => 1000 + ((i * 7919) % 13) * 40);
    expect(judge('poll-jitter', polls(jittered))).toBe('pass');
  });

  it('a refusal between two polls leaves that interval out, found by a search among 10,000 refusals', () => {
    const calls: Observation[] = [];
    for (let i = 0; i < 10_000; i++) {
      calls.push({
        atMs: i * 10,
        kind: 'get',
        taskId: 't2',
        error: { type: 'UnavailableError', reason: 'X' },
      });
    }
    calls.push(
      ...polls(Array.from({ length: 5_000 }, () => 1000)).map((c) => ({ ...c, atMs: c.atMs + 200_000 })),
    );
    expect(judge('poll-jitter', calls)).toBe('fail');
  });
});
