/**
 * What the witness keeps of each item a stream delivers: a seq alone for an event that shows the
 * judge nothing new, the facts for every other, and nothing past the cap but the mark that it
 * clipped.
 */
import { describe, expect, it } from 'vitest';
import type { Delivered } from '../../src/calls/exchange.js';
import type { WireItem } from '../../src/calls/wire.js';
import type { Task, TaskEvent, TaskState } from '../../src/domain/types.js';
import { deliveryRecord } from '../../src/verdicts/witness.js';

const status = (state: TaskState): TaskEvent => ({ kind: 'status', status: { state, timestamp: '' } });
const chunk: TaskEvent = {
  kind: 'artifact',
  artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
  append: true,
  lastChunk: false,
};
const task = (state: TaskState): Task => ({
  id: 't',
  contextId: 'c',
  status: { state, timestamp: '' },
  history: [],
  artifacts: [],
});
const event = (
  seq: number,
  body: TaskEvent,
  more: { synthetic?: true; generation?: number } = {},
): WireItem => ({
  kind: 'event',
  event: {
    seq,
    taskId: 't',
    contextId: 'c',
    atMs: 0,
    event: body,
    ...(more.generation !== undefined && { generation: more.generation }),
  },
  ...(more.synthetic && { synthetic: true }),
});

function kept(items: WireItem[]): { delivered: Delivered[]; clipped?: boolean } {
  const record: { delivered?: Delivered[]; deliveredClipped?: boolean } = {};
  const note = deliveryRecord(record);
  items.forEach(note);
  return { delivered: record.delivered!, ...(record.deliveredClipped && { clipped: true }) };
}

describe('the record of what a stream delivered', () => {
  it('keeps a chunk, and a tick that repeats the state shown last, as its seq alone', () => {
    const items = [
      event(1, { kind: 'task', task: task('submitted') }),
      event(2, status('working')),
      event(3, chunk),
      event(4, status('working')),
      event(5, status('input-required')),
      event(6, status('working')),
      event(7, status('completed')),
    ];
    expect(kept(items).delivered).toEqual([
      { seq: 1, state: 'submitted' },
      { seq: 2, state: 'working' },
      3,
      4,
      { seq: 5, state: 'input-required' },
      { seq: 6, state: 'working' },
      { seq: 7, state: 'completed' },
    ]);
  });

  it('keeps every terminal state, a made-up event and a generation as facts, and notes nothing else', () => {
    const items: WireItem[] = [
      { kind: 'snapshot', task: task('working') },
      { kind: 'keep-alive' },
      event(2, status('working')),
      event(0, { kind: 'status', status: { state: 'unknown', timestamp: '' } }, { synthetic: true }),
      event(3, status('working')),
      event(4, chunk, { generation: 5 }),
      event(5, status('completed')),
      event(5, status('completed')), // a duplicate the chaos layer sent again
    ];
    expect(kept(items).delivered).toEqual([
      { state: 'working' },
      2,
      { synthetic: true, state: 'unknown' },
      3,
      { seq: 4, generation: 5 },
      { seq: 5, state: 'completed' },
      { seq: 5, state: 'completed' },
    ]);
  });

  it('stops keeping at its cap and says it clipped', () => {
    const items = Array.from({ length: 20_001 }, (_, i) => event(i + 1, chunk));
    const { delivered, clipped } = kept(items);
    expect(delivered).toHaveLength(20_000);
    expect(delivered.at(-1)).toBe(20_000);
    expect(clipped).toBe(true);
  });
});
