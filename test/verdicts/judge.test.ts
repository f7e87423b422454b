/**
 * The judge over the calls it keeps: which tasks still running its verdicts wait for, and a client
 * that abandoned a task after its stream was cut, judged once the task has ended.
 */
import { describe, expect, it } from 'vitest';
import type { TaskState } from '../../src/domain/types.js';
import { deliveredBytes, Judge } from '../../src/verdicts/judge.js';
import type { Observation } from '../../src/verdicts/observation.js';
import type { TaskFacts } from '../../src/verdicts/rule.js';

const CLIENT = { id: 'phone', by: 'header' as const };

function judgeWith(facts: Record<string, TaskFacts>) {
  return new Judge({ facts: (id) => facts[id] });
}

const cut = (taskId: string, seqs: number[]): Observation => ({
  atMs: 0,
  kind: 'stream',
  taskId,
  delivered: seqs.map((seq) => ({ seq, state: 'working' as TaskState })),
  ended: 'cut',
});

const outcome = (judge: Judge, rule: string) =>
  judge.verdicts('phone')[0]!.verdicts.find((v) => v.rule === rule)!.outcome;

describe('Judge.awaiting', () => {
  it('lists a running task whose stream was cut, until it ends; then no-lost-events fails the client that never came back', () => {
    const facts: Record<string, TaskFacts> = { t1: { state: 'working', latestSeq: 3 } };
    const judge = judgeWith(facts);
    judge.observe(CLIENT, cut('t1', [1, 2]));
    expect(judge.awaiting()).toEqual([{ client: 'phone', taskId: 't1' }]);
    expect(judge.awaiting('someone-else')).toEqual([]);
    expect(outcome(judge, 'no-lost-events')).toBe('not exercised');

    facts['t1'] = { state: 'completed', latestSeq: 6 };
    expect(judge.awaiting()).toEqual([]);
    expect(outcome(judge, 'no-lost-events')).toBe('fail');
  });

  it('leaves out a task paused for the client, and a stream that ended cleanly', () => {
    const judge = judgeWith({
      t1: { state: 'input-required', latestSeq: 3 },
      t2: { state: 'working', latestSeq: 3 },
    });
    judge.observe(CLIENT, cut('t1', [1, 2]));
    judge.observe(CLIENT, { ...cut('t2', [1, 2]), ended: 'closed' });
    expect(judge.awaiting()).toEqual([]);
  });

  it('judges a stream cut before its first event, the client never coming back, once the task ended', () => {
    const judge = judgeWith({ t1: { state: 'completed', latestSeq: 4 } });
    judge.observe(CLIENT, { atMs: 0, kind: 'send', taskId: 't1', state: 'submitted' });
    judge.observe(CLIENT, { atMs: 10, kind: 'subscribe', taskId: 't1', delivered: [], ended: 'cut' });
    expect(outcome(judge, 'no-lost-events')).toBe('fail');
    expect(
      judge.verdicts('phone')[0]!.verdicts.find((v) => v.rule === 'no-lost-events')!.evidence[0]!.detail,
    ).toBe('never delivered 1 event(s) of the task: seq 4');
  });
});

describe('what a client names itself', () => {
  it('counts against the verdicts budget: 1,000 clients with 16 KB names fit 1 MiB by forgetting the oldest', () => {
    const judge = new Judge({ facts: () => undefined, maxBytes: 1024 * 1024 });
    for (let i = 0; i < 1000; i++) {
      judge.observe(
        { id: `${i}-${'n'.repeat(16 * 1024)}`, by: 'header' },
        { atMs: i, kind: 'get', taskId: 't' },
      );
    }
    expect(judge.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(judge.size.clients).toBeLessThan(40);
  });
});

describe('what a stream delivered', () => {
  it('counts against the verdicts budget as the judge keeps it: a seq as its place, facts as an object', () => {
    const chunks = Array.from({ length: 1000 }, (_, i) => i + 2);
    const delivered = [
      { seq: 1, state: 'working' as TaskState },
      ...chunks,
      { seq: 1002, state: 'completed' as TaskState },
    ];
    expect(deliveredBytes(delivered)).toBe(2 * 48 + 1000 * 8);
    expect(deliveredBytes(undefined)).toBe(0);

    const judge = new Judge({ facts: () => undefined });
    judge.observe(CLIENT, { atMs: 0, kind: 'stream', taskId: 't1', delivered, ended: 'clean' });
    const before = judge.bytes;
    judge.updated(CLIENT, delivered);
    expect(judge.bytes - before).toBe(deliveredBytes(delivered));
  });
});
