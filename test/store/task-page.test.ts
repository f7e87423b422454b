import { describe, expect, it } from 'vitest';
import { ROOT_SCOPE, scopeOf } from '../../src/domain/scope.js';
import type { TaskState } from '../../src/domain/types.js';
import { A2AError } from '../../src/domain/errors.js';
import { pageOf, type Listed } from '../../src/store/task-page.js';
import { Random } from '../../src/lib/random.js';

const OTHER = scopeOf({ tenant: 'other' });
const STATES: TaskState[] = ['working', 'completed', 'failed'];

/** Tasks with few distinct times, so that ties are common, in both scopes. */
function tasks(count: number, random: Random): (Listed & { id: string })[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `t${i}`,
    scope: random.next() < 0.8 ? ROOT_SCOPE : OTHER,
    contextId: `c${random.int(0, 3)}`,
    status: { state: random.pick(STATES), timestamp: '' },
    statusOrder: i + 1,
    statusTimeMs: 1_000 + random.int(0, 40),
  }));
}

/** The listing as a sort of every match would give it. */
function reference(all: Listed[], query: { contextId?: string; status?: TaskState }): Listed[] {
  return all
    .filter((t) => t.scope === ROOT_SCOPE)
    .filter((t) => query.contextId === undefined || t.contextId === query.contextId)
    .filter((t) => query.status === undefined || t.status.state === query.status)
    .sort((a, b) => b.statusTimeMs - a.statusTimeMs || b.statusOrder - a.statusOrder);
}

describe('pageOf', () => {
  it('walks every matching task once, most recently updated first, page by page', () => {
    const random = new Random('task-page');
    for (let run = 0; run < 40; run++) {
      const all = tasks(random.int(0, 300), random);
      const query = {
        pageSize: random.int(1, 30),
        ...(random.next() < 0.3 && { contextId: `c${random.int(0, 3)}` }),
        ...(random.next() < 0.3 && { status: random.pick(STATES) }),
      };
      const expected = reference(all, query);
      const walked: Listed[] = [];
      let pageToken: string | undefined;
      do {
        const page = pageOf(all, ROOT_SCOPE, { ...query, ...(pageToken && { pageToken }) });
        expect(page.totalSize).toBe(expected.length);
        expect(page.records.length).toBeLessThanOrEqual(query.pageSize);
        walked.push(...page.records);
        pageToken = page.nextPageToken || undefined;
      } while (pageToken);
      expect(walked).toEqual(expected);
    }
  });

  it('refuses a token it did not issue, quoting only its start', () => {
    const forged = 'x'.repeat(1024 * 1024);
    let refused: unknown;
    try {
      pageOf([], ROOT_SCOPE, { pageToken: forged });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(A2AError);
    expect((refused as A2AError).type).toBe('InvalidParamsError');
    expect((refused as A2AError).message).toContain(`pageToken "${'x'.repeat(64)}…"`);
    expect((refused as A2AError).message.length).toBeLessThan(200);
  });
});
