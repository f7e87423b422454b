/**
 * What a call's record keeps once the journal forgets it: the judge may hold the record for many
 * more calls, so a forgotten, complete call keeps only what the verdicts read, and the path a client
 * made long is clipped. A call still in progress when it is forgotten keeps its place and path until
 * its completion has been reported; a call that completes after the journal was cleared is not counted.
 */
import { describe, expect, it } from 'vitest';
import { Exchange, MAX_SLIM_PATH_CHARS } from '../../src/calls/exchange.js';
import { RequestJournal } from '../../src/admin/journal.js';
import { scopeOf } from '../../src/domain/scope.js';
import { Judge } from '../../src/verdicts/judge.js';

const LONG_PATH = `/tasks/${'x'.repeat(10_000)}`;
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function open(journal: RequestJournal, path = LONG_PATH): Exchange {
  const exchange = journal.open({ atMs: 0, method: 'GET', path, headers: { traceparent: TRACEPARENT } });
  exchange.readAs({ binding: 'REST', operation: 'GET /tasks/{id}', scope: scopeOf({ workspace: 'ws-1' }) });
  return exchange;
}

function complete(journal: RequestJournal, exchange: Exchange): void {
  exchange.status = 404;
  journal.complete(exchange);
}

describe('a call the journal forgot', () => {
  it('keeps its place and whole path until its completion is reported, then only what the verdicts read', () => {
    const journal = new RequestJournal(1);
    const seen: { path: string; workspace?: string; traced: boolean }[] = [];
    journal.onComplete((e) =>
      seen.push({ path: e.path, workspace: e.read?.scope?.workspace, traced: e.trace !== undefined }),
    );
    const first = open(journal);
    open(journal, '/tasks'); // the journal keeps one: the first is forgotten while in progress
    expect(first.headers).toEqual({});
    expect(first.path).toBe(LONG_PATH);
    complete(journal, first);
    expect(seen).toEqual([{ path: LONG_PATH, workspace: 'ws-1', traced: true }]);
    expect(first.path).toBe(
      `${LONG_PATH.slice(0, MAX_SLIM_PATH_CHARS)}… (${LONG_PATH.length - MAX_SLIM_PATH_CHARS} more characters)`,
    );
    expect(first.read).toEqual({ binding: 'REST', operation: 'GET /tasks/{id}' });
    expect(first.trace).toBeUndefined();
  });

  it('with a journal of size 0: its listeners still see the place, and the record is slim after', () => {
    const journal = new RequestJournal(0);
    let workspace: string | undefined;
    journal.onComplete((e) => (workspace = e.read?.scope?.workspace));
    const exchange = open(journal);
    complete(journal, exchange);
    expect(workspace).toBe('ws-1');
    expect(exchange.path.length).toBeLessThan(MAX_SLIM_PATH_CHARS + 40);
    expect(exchange.read?.scope).toBeUndefined();
  });

  it('leaves a complete call the journal shows whole, and slims a complete one once as it goes', () => {
    const journal = new RequestJournal(1);
    const first = open(journal);
    complete(journal, first);
    expect(first.path).toBe(LONG_PATH);
    expect(first.read?.scope?.workspace).toBe('ws-1');
    open(journal, '/tasks');
    const clipped = first.path;
    expect(clipped.length).toBeLessThan(MAX_SLIM_PATH_CHARS + 40);
    journal.clear();
    expect(first.path).toBe(clipped);
  });

  it('counts nothing for a call that completes after the journal was cleared', () => {
    const journal = new RequestJournal(10);
    const exchange = open(journal);
    journal.clear();
    expect(journal.bytes).toBe(0);
    complete(journal, exchange);
    expect(journal.bytes).toBe(0);
    expect(journal.size).toBe(0);
  });
});

describe('a call the judge keeps', () => {
  it('counts its path as the record keeps it once the journal lets it go: 2,000 calls of 16 KB paths in 1 MiB', () => {
    const judge = new Judge({ facts: () => undefined, maxBytes: 1024 * 1024 });
    const journal = new RequestJournal(10);
    const calls: Exchange[] = [];
    for (let i = 0; i < 2000; i++) {
      const exchange = open(journal, `/${'p'.repeat(16 * 1024)}`);
      judge.observe({ id: 'phone', by: 'header' }, exchange);
      complete(journal, exchange);
      calls.push(exchange);
    }
    expect(judge.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(judge.size.calls).toBeGreaterThan(1000);
    const whole = calls.filter((call) => call.path.length > MAX_SLIM_PATH_CHARS + 40);
    expect(whole).toEqual(calls.slice(-10));
  });
});
