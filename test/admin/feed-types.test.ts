/**
 * The feed's type list and its "which task" rule, written once in src/admin/dashboard/feed-types.js
 * for the server and the browser: the list is the server's, it holds every event type, and the rule
 * reads each type's task id where that type keeps it.
 */
import { describe, expect, it } from 'vitest';
import { FEED_TYPES as SHARED, taskIdOf } from '../../src/admin/dashboard/feed-types.js';
import type { SimEvent } from '../../src/admin/events.js';
import { FEED_TYPES } from '../../src/admin/feed.js';

/** Every SimEvent type, written out: `npm run typecheck` fails here when events.ts gains one. */
const EVERY_TYPE = {
  'task:created': true,
  'task:event': true,
  'stream:opened': true,
  'stream:closed': true,
  'chaos:fault': true,
  'push:attempt': true,
  'request:received': true,
  'verdict:changed': true,
} satisfies Record<SimEvent['type'], true>;

const event = (body: object) => ({ n: 1, at: '2025-01-01T00:00:00.000Z', ...body }) as SimEvent;

describe('the shared feed types', () => {
  it('are the list the server filters by, frozen', () => {
    expect(FEED_TYPES).toBe(SHARED);
    expect(Object.isFrozen(FEED_TYPES)).toBe(true);
  });

  it('name every event type once', () => {
    expect([...FEED_TYPES].sort()).toEqual(Object.keys(EVERY_TYPE).sort());
  });

  it.each([
    ['task:created', { taskId: 't-1', contextId: 'c-1', scenario: 'weather' }, 't-1'],
    ['task:event', { taskId: 't-1', contextId: 'c-1', event: {} }, 't-1'],
    ['stream:opened', { request: 3, taskId: 't-1' }, 't-1'],
    ['stream:closed', { request: 3 }, undefined],
    ['chaos:fault', { fault: { n: 1, taskId: 't-1' } }, 't-1'],
    ['chaos:fault', { fault: { n: 1 } }, undefined],
    ['push:attempt', { delivery: { n: 1, taskId: 't-1' } }, 't-1'],
    ['request:received', { request: { n: 1, taskId: 't-1' } }, 't-1'],
    ['request:received', { request: { n: 1 } }, undefined],
  ])('taskIdOf a %s event %j is %s', (type, body, taskId) => {
    expect(taskIdOf(event({ type, ...body }))).toBe(taskId);
  });

  it('taskIdOf a message as the feed sends it, with its payload, is the same', () => {
    const message = { n: 2, at: '…', type: 'task:event', taskId: 't-2', contextId: 'c', payload: {} };
    expect(taskIdOf(message as unknown as SimEvent)).toBe('t-2');
  });
});
