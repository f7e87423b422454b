/**
 * The in-memory task store: creation logs the task as event 1, tasks are scoped, terminal tasks
 * refuse events, listings filter / sort / page with opaque tokens, and retention bounds memory.
 */
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/domain/errors.js';
import { ROOT_SCOPE, scopeOf, type Scope } from '../../src/domain/scope.js';
import type { Task, TaskState, TaskStatus } from '../../src/domain/types.js';
import { TaskStore, type RetentionOptions, type TaskRecord } from '../../src/store/task-store.js';
import { DEFAULT_PAGE_SIZE, decodePageToken } from '../../src/store/task-page.js';

const T0 = Date.UTC(2026, 0, 1);
const SCOPE = scopeOf({ tenant: 'tenant-a' });
const OTHER = scopeOf({ tenant: 'tenant-b' });

function store(retention: Partial<RetentionOptions> = {}): TaskStore {
  return new TaskStore({
    maxTasks: 1000,
    terminalTtl: 3_600_000,
    maxEventsPerTask: 1000,
    eventTtl: 3_600_000,
    maxStoreBytes: 1024 ** 3,
    // The budget's own tests: one scope may take it all (its share is tested on its own).
    scopeShare: 1,
    ...retention,
  });
}

function status(state: TaskState, atMs: number): TaskStatus {
  return { state, timestamp: new Date(atMs).toISOString() };
}

function newTask(id: string, atMs = T0, contextId = 'ctx-1'): Task {
  return { id, contextId, status: status('submitted', atMs), artifacts: [], history: [] };
}

/** Creates a task at `atMs` and, if asked, moves it to `state` at the same time. */
function add(
  s: TaskStore,
  id: string,
  options: { atMs?: number; state?: TaskState; contextId?: string; scope?: Scope } = {},
): TaskRecord {
  const atMs = options.atMs ?? T0;
  const record = s.create(newTask(id, atMs, options.contextId), options.scope ?? SCOPE, 'weather', atMs);
  if (options.state && options.state !== 'submitted') setState(s, record, options.state, atMs);
  return record;
}

function setState(s: TaskStore, record: TaskRecord, state: TaskState, atMs: number) {
  return s.append(record, { kind: 'status', status: status(state, atMs) }, atMs);
}

/** Expects `fn` to throw an A2AError of `type`, and returns it. */
function expectA2AError(fn: () => unknown, type: A2AError['type']): A2AError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).type).toBe(type);
    return error as A2AError;
  }
  throw new Error(`expected an ${type}, but nothing was thrown`);
}

const ids = (records: readonly TaskRecord[]) => records.map((r) => r.id);

describe('TaskStore: create and get', () => {
  it('logs the task snapshot as event 1 at the creation time', () => {
    const s = store();
    const task = newTask('t1', T0 + 5);
    const record = s.create(task, SCOPE, 'weather', T0 + 5);
    expect(record).toMatchObject({ id: 't1', scope: SCOPE, scenarioId: 'weather', task });
    expect(record.log.readAfter(0)).toEqual([
      { seq: 1, taskId: 't1', contextId: 'ctx-1', atMs: T0 + 5, event: { kind: 'task', task } },
    ]);
    expect(s.size).toBe(1);
    expect(s.has('t1')).toBe(true);
  });

  it('a task is visible only in the scope that created it, like an unknown id elsewhere', () => {
    const s = store();
    const record = add(s, 't1', { scope: SCOPE });
    expect(s.get('t1', SCOPE)).toBe(record);
    expect(s.get('t1', OTHER)).toBeUndefined();
    expect(s.get('t1', ROOT_SCOPE)).toBeUndefined();
    expect(s.get('nope', SCOPE)).toBeUndefined();
  });
});

describe('TaskStore: append', () => {
  it('applies events to the task and logs them with consecutive seqs', () => {
    const s = store();
    const record = add(s, 't1');
    const working = setState(s, record, 'working', T0 + 10);
    const artifact = s.append(
      record,
      {
        kind: 'artifact',
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
        append: false,
        lastChunk: true,
      },
      T0 + 20,
    );
    expect([working.seq, artifact.seq]).toEqual([2, 3]);
    expect(artifact.atMs).toBe(T0 + 20);
    expect(record.task.status.state).toBe('working');
    expect(record.task.artifacts).toEqual([{ artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] }]);
    expect(record.log.latestSeq).toBe(3);
  });

  it('replaces the task object instead of mutating it, so earlier snapshots stay true', () => {
    const s = store();
    const record = add(s, 't1');
    const before = record.task;
    setState(s, record, 'working', T0 + 10);
    expect(before.status.state).toBe('submitted');
    expect(record.task).not.toBe(before);
  });

  it.each(['completed', 'failed', 'canceled', 'rejected'] as const)(
    'refuses any event once the task is %s, and logs nothing',
    (terminal) => {
      const s = store();
      const record = add(s, 't1');
      setState(s, record, 'working', T0 + 1);
      setState(s, record, terminal, T0 + 2);
      const seq = record.log.latestSeq;
      const error = expectA2AError(() => setState(s, record, 'working', T0 + 3), 'UnsupportedOperationError');
      expect(error.details.metadata).toEqual({ taskId: 't1' });
      expectA2AError(
        () => s.append(record, { kind: 'task', task: { ...record.task, history: [] } }, T0 + 3),
        'UnsupportedOperationError',
      );
      expect(record.log.latestSeq).toBe(seq);
      expect(record.task.status.state).toBe(terminal);
    },
  );

  it('interrupted states are not terminal: a paused task accepts the next turn', () => {
    const s = store();
    const record = add(s, 't1');
    setState(s, record, 'input-required', T0 + 1);
    expect(() => setState(s, record, 'working', T0 + 2)).not.toThrow();
    expect(record.task.status.state).toBe('working');
  });
});

describe('TaskStore: list', () => {
  /** Five tasks in two contexts with status times T0+1000 .. T0+5000 (t5 newest). */
  function populated() {
    const s = store();
    add(s, 't1', { atMs: T0 + 1000, contextId: 'ctx-a', state: 'completed' });
    add(s, 't2', { atMs: T0 + 2000, contextId: 'ctx-b', state: 'working' });
    add(s, 't3', { atMs: T0 + 3000, contextId: 'ctx-a', state: 'working' });
    add(s, 't4', { atMs: T0 + 4000, contextId: 'ctx-b', state: 'completed' });
    add(s, 't5', { atMs: T0 + 5000, contextId: 'ctx-a', state: 'input-required' });
    add(s, 'other-scope', { atMs: T0 + 6000, scope: OTHER });
    return s;
  }

  it('lists the tasks of the scope only, most recent status first', () => {
    const page = populated().list(SCOPE, {});
    expect(ids(page.records)).toEqual(['t5', 't4', 't3', 't2', 't1']);
    expect(page).toMatchObject({ totalSize: 5, nextPageToken: '', pageSize: DEFAULT_PAGE_SIZE });
  });

  it('a status update moves a task to the top', () => {
    const s = populated();
    setState(s, s.get('t2', SCOPE)!, 'completed', T0 + 9000);
    expect(ids(s.list(SCOPE, {}).records)[0]).toBe('t2');
  });

  it('equal status times list the most recently changed task first', () => {
    const s = store();
    const a = add(s, 'a', { atMs: T0 });
    add(s, 'b', { atMs: T0 });
    expect(ids(s.list(SCOPE, {}).records)).toEqual(['b', 'a']);
    setState(s, a, 'working', T0);
    expect(ids(s.list(SCOPE, {}).records)).toEqual(['a', 'b']);
  });

  it('filters by contextId, status and statusTimestampAfter (inclusive), together', () => {
    const s = populated();
    expect(ids(s.list(SCOPE, { contextId: 'ctx-a' }).records)).toEqual(['t5', 't3', 't1']);
    expect(ids(s.list(SCOPE, { status: 'working' }).records)).toEqual(['t3', 't2']);
    expect(ids(s.list(SCOPE, { statusTimestampAfter: T0 + 3000 }).records)).toEqual(['t5', 't4', 't3']);
    expect(ids(s.list(SCOPE, { statusTimestampAfter: T0 + 3001 }).records)).toEqual(['t5', 't4']);
    const combined = s.list(SCOPE, {
      contextId: 'ctx-a',
      status: 'working',
      statusTimestampAfter: T0 + 2000,
    });
    expect(ids(combined.records)).toEqual(['t3']);
    expect(combined.totalSize).toBe(1);
    expect(s.list(SCOPE, { contextId: 'nope' })).toMatchObject({
      records: [],
      totalSize: 0,
      nextPageToken: '',
    });
  });

  it('pages through every task exactly once with opaque tokens; the last page has no token', () => {
    const s = populated();
    const seen: string[] = [];
    const tokens: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = s.list(SCOPE, { pageSize: 2, ...(pageToken && { pageToken }) });
      expect(page.pageSize).toBe(2);
      expect(page.totalSize).toBe(5);
      expect(page.records.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page.records));
      pageToken = page.nextPageToken || undefined;
      if (pageToken) tokens.push(pageToken);
    } while (pageToken);
    expect(seen).toEqual(['t5', 't4', 't3', 't2', 't1']);
    expect(tokens).toHaveLength(2);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodePageToken(token)).toHaveLength(2);
    }
  });

  it('a token keeps working with the same filters and pages within them', () => {
    const s = populated();
    const first = s.list(SCOPE, { contextId: 'ctx-a', pageSize: 1 });
    expect(ids(first.records)).toEqual(['t5']);
    const second = s.list(SCOPE, { contextId: 'ctx-a', pageSize: 1, pageToken: first.nextPageToken });
    expect(ids(second.records)).toEqual(['t3']);
    const third = s.list(SCOPE, { contextId: 'ctx-a', pageSize: 1, pageToken: second.nextPageToken });
    expect(ids(third.records)).toEqual(['t1']);
    expect(third.nextPageToken).toBe('');
  });

  it('an exact page fit has no next token', () => {
    expect(populated().list(SCOPE, { pageSize: 5 }).nextPageToken).toBe('');
  });

  it.each([
    ['not base64 JSON', 'not-a-token!'],
    ['an object', Buffer.from('{"a":1}').toString('base64url')],
    ['a one-element array', Buffer.from('[1]').toString('base64url')],
    ['a non-numeric pair', Buffer.from('[1,"x"]').toString('base64url')],
    ['empty JSON', Buffer.from('null').toString('base64url')],
  ])('rejects a page token that is %s with InvalidParamsError on pageToken', (_what, token) => {
    const s = populated();
    const error = expectA2AError(() => s.list(SCOPE, { pageToken: token }), 'InvalidParamsError');
    expect(error.details.fieldViolations?.map((v) => v.field)).toEqual(['pageToken']);
  });
});

describe('TaskStore: retention', () => {
  it('past maxTasks, a terminal task is evicted before older active ones', () => {
    const s = store({ maxTasks: 3 });
    const evicted: string[] = [];
    s.onEvict((r) => evicted.push(r.id));
    add(s, 'active-old', { atMs: T0, state: 'working' });
    add(s, 'done', { atMs: T0 + 1, state: 'completed' });
    add(s, 'active', { atMs: T0 + 2, state: 'working' });
    add(s, 'new', { atMs: T0 + 3 });
    expect(evicted).toEqual(['done']);
    expect(s.size).toBe(3);
    expect(s.has('done')).toBe(false);
    expect(s.has('active-old')).toBe(true);
  });

  it('terminal tasks go in the order they ended, not the order they were created', () => {
    const s = store({ maxTasks: 3 });
    const evicted: string[] = [];
    s.onEvict((r) => evicted.push(r.id));
    const first = add(s, 'first', { atMs: T0 });
    const second = add(s, 'second', { atMs: T0 });
    add(s, 'third', { atMs: T0, state: 'working' });
    setState(s, second, 'failed', T0 + 1);
    setState(s, first, 'completed', T0 + 2);
    add(s, 'fourth', { atMs: T0 + 3 });
    expect(evicted).toEqual(['second']);
    add(s, 'fifth', { atMs: T0 + 4 });
    expect(evicted).toEqual(['second', 'first']);
  });

  it('with only active tasks at the cap, the oldest created one is evicted', () => {
    const s = store({ maxTasks: 2 });
    const evicted: string[] = [];
    s.onEvict((r) => evicted.push(r.id));
    add(s, 'a', { state: 'working' });
    add(s, 'b', { state: 'input-required' });
    add(s, 'c');
    expect(evicted).toEqual(['a']);
    expect(ids(s.list(SCOPE, {}).records).sort()).toEqual(['b', 'c']);
  });

  it('a terminal task expires terminalTtl after it ended, checked when a task is created', () => {
    const s = store({ terminalTtl: 1000 });
    const evicted: string[] = [];
    s.onEvict((r) => evicted.push(r.id));
    const done = add(s, 'done', { atMs: T0 });
    setState(s, done, 'completed', T0 + 100);
    add(s, 'active', { atMs: T0, state: 'working' });

    add(s, 'probe-1', { atMs: T0 + 1099 });
    expect(s.has('done')).toBe(true);
    add(s, 'probe-2', { atMs: T0 + 1100 });
    expect(evicted).toEqual(['done']);
    // Active tasks never expire by age.
    add(s, 'probe-3', { atMs: T0 + 10_000_000 });
    expect(s.has('active')).toBe(true);
  });

  it('eviction closes the task log, ending its followers', () => {
    const s = store({ maxTasks: 1 });
    const record = add(s, 'a', { state: 'working' });
    let closed = false;
    record.log.follow(record.log.latestSeq, { onEvent: () => {}, onClose: () => (closed = true) });
    let evicted: TaskRecord | undefined;
    s.onEvict((r) => (evicted = r));
    add(s, 'b');
    expect(evicted).toBe(record);
    expect(closed).toBe(true);
    expect(record.log.followerCount).toBe(0);
  });

  it('maxEventsPerTask bounds the retained log, not the seq or the task state', () => {
    const s = store({ maxEventsPerTask: 4 });
    const record = add(s, 't1');
    for (let i = 1; i <= 20; i++) {
      s.append(
        record,
        {
          kind: 'artifact',
          artifact: { artifactId: 'a', parts: [{ kind: 'text', text: `${i}` }] },
          append: i > 1,
          lastChunk: false,
        },
        T0 + i,
      );
    }
    expect(record.log.latestSeq).toBe(21);
    const retained = record.log.readAfter(0);
    expect(retained.length).toBeGreaterThanOrEqual(4);
    expect(retained.length).toBeLessThanOrEqual(5);
    expect(retained.at(-1)!.seq).toBe(21);
    expect(record.task.artifacts[0]!.parts).toHaveLength(20);
  });

  it('clear removes every task, reporting each one to onEvict', () => {
    const s = store();
    const evicted: string[] = [];
    s.onEvict((r) => evicted.push(r.id));
    add(s, 'a');
    add(s, 'b', { state: 'completed' });
    add(s, 'c', { scope: OTHER });
    s.clear();
    expect(evicted.sort()).toEqual(['a', 'b', 'c']);
    expect(s.size).toBe(0);
    expect(s.list(SCOPE, {}).totalSize).toBe(0);
  });
});

/** A task whose opening message carries `chars` characters of text. */
function heavyTask(id: string, chars: number): Task {
  return {
    ...newTask(id),
    history: [{ messageId: `m-${id}`, role: 'user', parts: [{ kind: 'text', text: 'x'.repeat(chars) }] }],
  };
}

describe('TaskStore: byte budget', () => {
  it('counts what each task holds, and forgets it when the task goes', () => {
    const s = store();
    const record = s.create(heavyTask('big', 100_000), SCOPE, 'weather', T0);
    expect(record.bytes).toBeGreaterThan(100_000);
    expect(record.bytes).toBeLessThan(101_000);
    setState(s, record, 'working', T0);
    expect(s.bytes).toBe(record.bytes);
    expect(record.bytes).toBeGreaterThan(100_000);
    s.clear();
    expect(s.bytes).toBe(0);
  });

  it('forgets a scope with its last task: a client may name as many tenants as it likes', () => {
    const s = store({ maxTasks: 10 });
    for (let i = 0; i < 100; i++) {
      add(s, `t${i}`, { scope: scopeOf({ tenant: `tenant-${i}-${'x'.repeat(1000)}` }), state: 'completed' });
    }
    expect(s.size).toBe(10);
    expect(s.scopes).toBe(10);
    add(s, 'a', { scope: SCOPE });
    add(s, 'b', { scope: SCOPE });
    s.removeWhere((record) => record.scope !== SCOPE);
    expect(s.scopes).toBe(1);
    s.clear();
    expect(s.scopes).toBe(0);
  });

  it('makes room by evicting ended tasks, oldest first', () => {
    const s = store({ maxStoreBytes: 250_000 });
    const first = s.create(heavyTask('first', 100_000), SCOPE, 'weather', T0);
    setState(s, first, 'completed', T0);
    const second = s.create(heavyTask('second', 100_000), SCOPE, 'weather', T0);
    setState(s, second, 'completed', T0);
    s.create(heavyTask('third', 100_000), SCOPE, 'weather', T0);
    expect(s.has('first')).toBe(false);
    expect(s.has('second')).toBe(true);
    expect(s.bytes).toBeLessThanOrEqual(250_000);
  });

  it('refuses new work, never a task in progress, when only running tasks fill the budget', () => {
    const s = store({ maxStoreBytes: 250_000 });
    s.create(heavyTask('a', 100_000), SCOPE, 'weather', T0);
    s.create(heavyTask('b', 100_000), SCOPE, 'weather', T0);
    const error = expectA2AError(
      () => s.create(heavyTask('c', 100_000), SCOPE, 'weather', T0),
      'ResourceExhaustedError',
    );
    expect(error.details.reason).toBe('STORE_FULL');
    expect(error.message).toMatch(/--max-store-bytes/);
    expect([s.has('a'), s.has('b'), s.has('c')]).toEqual([true, true, false]);
  });
});

describe('TaskStore: one scope cannot lock the others out', () => {
  const OTHER = scopeOf({ tenant: 'tenant-b' });

  it('refuses a scope past its share of the budget while another scope still gets in', () => {
    const s = store({ maxStoreBytes: 400_000, scopeShare: 0.5 });
    s.create(heavyTask('a1', 90_000), SCOPE, 'weather', T0);
    s.create(heavyTask('a2', 90_000), SCOPE, 'weather', T0);
    const error = expectA2AError(
      () => s.create(heavyTask('a3', 90_000), SCOPE, 'weather', T0),
      'ResourceExhaustedError',
    );
    expect(error.details.reason).toBe('STORE_FULL');
    expect(error.message).toMatch(/one scope may hold \(50% of --max-store-bytes/);
    expect(s.create(heavyTask('b1', 90_000), OTHER, 'weather', T0).id).toBe('b1');
  });

  it("makes room in a scope's share from its own ended tasks, never another scope's", () => {
    const s = store({ maxStoreBytes: 400_000, scopeShare: 0.5 });
    const ended = s.create(heavyTask('a1', 90_000), SCOPE, 'weather', T0);
    setState(s, ended, 'completed', T0 + 1);
    const theirs = s.create(heavyTask('b1', 90_000), OTHER, 'weather', T0);
    setState(s, theirs, 'completed', T0 + 1);
    s.create(heavyTask('a2', 90_000), SCOPE, 'weather', T0 + 2);
    s.create(heavyTask('a3', 90_000), SCOPE, 'weather', T0 + 2);
    expect([s.has('a1'), s.has('b1'), s.has('a2'), s.has('a3')]).toEqual([false, true, true, true]);
  });
});

describe('TaskStore: tasks waiting for input', () => {
  it('forgets a task that waited for input longer than the input TTL, and keeps a newer one', () => {
    const s = store({ inputTtl: 60_000 });
    const old = s.create(newTask('old'), SCOPE, 'flight', T0);
    setState(s, old, 'input-required', T0 + 1);
    const fresh = s.create(newTask('fresh'), SCOPE, 'flight', T0 + 50_000);
    setState(s, fresh, 'input-required', T0 + 50_000);
    s.create(newTask('later'), SCOPE, 'flight', T0 + 70_000);
    expect([s.has('old'), s.has('fresh'), s.has('later')]).toEqual([false, true, true]);
  });

  it('keeps a task that got its follow-up: the TTL counts from the latest pause', () => {
    const s = store({ inputTtl: 60_000 });
    const task = s.create(newTask('t'), SCOPE, 'flight', T0);
    setState(s, task, 'input-required', T0 + 1);
    setState(s, task, 'working', T0 + 59_000);
    s.create(newTask('later'), SCOPE, 'flight', T0 + 120_000);
    expect(s.has('t')).toBe(true);
  });
});

describe('inContext', () => {
  it("lists a context's tasks in its scope, oldest first, until they are evicted", () => {
    const s = store({ maxTasks: 4 });
    add(s, 'a', { contextId: 'shared', state: 'completed' });
    add(s, 'b', { contextId: 'other' });
    add(s, 'c', { contextId: 'shared', atMs: T0 + 1 });
    add(s, 'd', { contextId: 'shared', scope: OTHER });
    expect(s.inContext(SCOPE, 'shared').map((r) => r.id)).toEqual(['a', 'c']);
    expect(s.inContext(OTHER, 'shared').map((r) => r.id)).toEqual(['d']);
    add(s, 'e', { contextId: 'shared', atMs: T0 + 2 }); // past the cap: the ended task a goes
    expect(s.has('a')).toBe(false);
    expect(s.inContext(SCOPE, 'shared').map((r) => r.id)).toEqual(['c', 'e']);
    expect(s.inContext(SCOPE, 'nobody')).toEqual([]);
  });

  it('keeps scopes apart whatever their names hold', () => {
    const s = store();
    add(s, 'x', { contextId: 'b\nc', scope: scopeOf({ tenant: 'a' }) });
    add(s, 'y', { contextId: 'c', scope: scopeOf({ tenant: 'a\nb' }) });
    expect(s.inContext(scopeOf({ tenant: 'a' }), 'b\nc').map((r) => r.id)).toEqual(['x']);
    expect(s.inContext(scopeOf({ tenant: 'a\nb' }), 'c').map((r) => r.id)).toEqual(['y']);
  });
});
