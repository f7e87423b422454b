import { describe, expect, it } from 'vitest';
import { FaultLog, faultBytes } from '../../src/chaos/fault-log.js';
import { scopeOf } from '../../src/domain/scope.js';
import { RingLog } from '../../src/lib/ring-log.js';

type Note = { n: number; text: string };
const notes = (capacity: number, maxBytes: number) =>
  new RingLog<Note>({ capacity, maxBytes, weigh: (note) => note.text.length });
const texts = (log: RingLog<Note>) => log.filter(() => true).map((note) => note.text);

describe('RingLog', () => {
  it('keeps the newest entries within its capacity, numbered in order', () => {
    const log = notes(3, 1024);
    for (const text of ['a', 'b', 'c', 'd', 'e']) log.record({ text });
    expect(log.filter(() => true).map((note) => note.n)).toEqual([3, 4, 5]);
    expect(log.size).toBe(3);
    expect(log.bytes).toBe(3);
  });

  it('keeps what its entries hold within maxBytes, the oldest going first, the newest always', () => {
    const log = notes(100, 10);
    for (const text of ['aaaa', 'bbbb', 'cccc']) log.record({ text });
    expect(texts(log)).toEqual(['bbbb', 'cccc']);
    expect(log.bytes).toBe(8);
    log.record({ text: 'x'.repeat(50) });
    expect(texts(log)).toEqual(['x'.repeat(50)]);
    expect(log.bytes).toBe(50);
  });

  it('stays within both bounds over many entries, compacting as it goes', () => {
    const log = notes(1000, 5000);
    for (let i = 0; i < 20_000; i++) log.record({ text: String(i % 10).repeat(1 + (i % 9)) });
    expect(log.bytes).toBeLessThanOrEqual(5000);
    expect(log.size).toBeLessThanOrEqual(1000);
    const kept = log.filter(() => true);
    expect(kept.at(-1)!.n).toBe(20_000);
    expect(kept.map((note) => note.n)).toEqual(kept.map((_, i) => kept[0]!.n + i));
  });

  it('forgets everything on clear, its numbers going on', () => {
    const log = notes(10, 100);
    log.record({ text: 'a' });
    log.clear();
    expect([log.size, log.bytes]).toEqual([0, 0]);
    expect(log.record({ text: 'b' }).n).toBe(2);
  });
});

describe('FaultLog', () => {
  it("counts a request's scope, whose names are the client's, against its budget", () => {
    const log = new FaultLog(64 * 1024);
    const workspace = 'w'.repeat(16 * 1024);
    const fault = {
      at: new Date(0).toISOString(),
      kind: 'error' as const,
      detail: { status: 503 },
      profile: 'header',
      request: { binding: 'gateway', operation: 'POST /message:send', scope: scopeOf({ workspace }) },
    };
    for (let i = 0; i < 10; i++) log.record(fault);
    expect(faultBytes({ ...fault, n: 1 })).toBeGreaterThan(2 * workspace.length);
    expect(log.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(log.size).toBe(Math.floor((64 * 1024) / faultBytes({ ...fault, n: 1 })));
  });
});
