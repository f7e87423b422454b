/**
 * Task lifecycle rules: state classes, terminal finality and how events change a task.
 */
import { describe, expect, it } from 'vitest';
import { canApply, isInterrupted, isPaused, isTerminal, LiveTask } from '../../src/domain/lifecycle.js';
import {
  TASK_STATES,
  type Artifact,
  type Message,
  type Task,
  type TaskEvent,
  type TaskState,
  type TaskStatus,
} from '../../src/domain/types.js';

const TERMINAL: TaskState[] = ['completed', 'failed', 'canceled', 'rejected'];
const INTERRUPTED: TaskState[] = ['input-required', 'auth-required'];
const ACTIVE: TaskState[] = ['submitted', 'working'];

const text = (t: string) => ({ kind: 'text' as const, text: t });
const message = (id: string, t: string): Message => ({ messageId: id, role: 'agent', parts: [text(t)] });
const status = (state: TaskState, msg?: Message): TaskStatus => ({
  state,
  timestamp: '2026-01-01T00:00:00.000Z',
  ...(msg && { message: msg }),
});
const artifact = (artifactId: string, ...texts: string[]): Artifact => ({
  artifactId,
  name: `Artifact ${artifactId}`,
  parts: texts.map(text),
});
const task = (state: TaskState = 'working', overrides: Partial<Task> = {}): Task => ({
  id: 'task-1',
  contextId: 'ctx-1',
  status: status(state),
  artifacts: [],
  history: [message('m-user', 'hello')],
  ...overrides,
});
const artifactEvent = (a: Artifact, append: boolean, lastChunk = false): TaskEvent => ({
  kind: 'artifact',
  artifact: a,
  append,
  lastChunk,
});

/** The task after `event`, as the store would hold it. */
const applyEvent = (before: Task, event: TaskEvent): Task => {
  const live = new LiveTask(before);
  live.apply(event);
  return live.snapshot();
};

/** One event of each kind, to check rules that must hold whatever the event. */
const EVERY_KIND: TaskEvent[] = [
  { kind: 'task', task: task('working') },
  { kind: 'status', status: status('working') },
  artifactEvent(artifact('a', 'x'), false),
];

describe('state classes', () => {
  it('classes every A2A state as exactly one of active, interrupted or terminal', () => {
    expect([...ACTIVE, ...INTERRUPTED, ...TERMINAL].sort()).toEqual([...TASK_STATES].sort());
  });

  it.each(TERMINAL)('treats %s as terminal and paused, not interrupted', (state) => {
    expect(isTerminal(state)).toBe(true);
    expect(isInterrupted(state)).toBe(false);
    expect(isPaused(state)).toBe(true);
  });

  it.each(INTERRUPTED)('treats %s as interrupted and paused, not terminal', (state) => {
    expect(isInterrupted(state)).toBe(true);
    expect(isTerminal(state)).toBe(false);
    expect(isPaused(state)).toBe(true);
  });

  it.each([...ACTIVE, 'unknown' as const])(
    'treats %s as neither terminal, interrupted nor paused',
    (state) => {
      expect(isTerminal(state)).toBe(false);
      expect(isInterrupted(state)).toBe(false);
      expect(isPaused(state)).toBe(false);
    },
  );
});

describe('canApply', () => {
  it.each(TERMINAL)('refuses every kind of event once the task is %s', (state) => {
    for (const event of EVERY_KIND) expect(canApply(task(state), event)).toBe(false);
  });

  it.each([...ACTIVE, ...INTERRUPTED])('accepts every kind of event while the task is %s', (state) => {
    for (const event of EVERY_KIND) expect(canApply(task(state), event)).toBe(true);
  });
});

describe('LiveTask', () => {
  it('replaces the whole task on a task event', () => {
    const replacement = task('submitted', { id: 'task-1', history: [], artifacts: [artifact('z', 'z')] });
    expect(applyEvent(task('working'), { kind: 'task', task: replacement })).toEqual(replacement);
  });

  it('sets the status and appends its message to the history', () => {
    const before = task('submitted');
    const reply = message('m-agent', 'on it');
    const after = applyEvent(before, { kind: 'status', status: status('working', reply) });
    expect(after.status).toEqual(status('working', reply));
    expect(after.history).toEqual([...before.history, reply]);
  });

  it('keeps the history as it is when the status carries no message', () => {
    const before = task('submitted');
    const after = applyEvent(before, { kind: 'status', status: status('working') });
    expect(after.status.state).toBe('working');
    expect(after.history).toEqual(before.history);
  });

  it('never mutates the task it is given', () => {
    const before = task('working', { artifacts: [artifact('a', 'one')] });
    const snapshot = structuredClone(before);
    applyEvent(before, { kind: 'status', status: status('completed', message('m-2', 'done')) });
    applyEvent(before, artifactEvent(artifact('a', 'two'), true));
    applyEvent(before, artifactEvent(artifact('b', 'new'), false));
    expect(before).toEqual(snapshot);
  });

  it('adds an artifact with a new id after the existing ones', () => {
    const before = task('working', { artifacts: [artifact('a', 'one')] });
    const after = applyEvent(before, artifactEvent(artifact('b', 'two'), false));
    expect(after.artifacts.map((a) => a.artifactId)).toEqual(['a', 'b']);
  });

  it('appends the parts of an append chunk to the artifact with the same id, in place', () => {
    const before = task('working', { artifacts: [artifact('a', 'one'), artifact('b', 'other')] });
    const after = applyEvent(before, artifactEvent({ artifactId: 'a', parts: [text('two')] }, true));
    expect(after.artifacts).toEqual([
      { ...artifact('a', 'one'), parts: [text('one'), text('two')] },
      artifact('b', 'other'),
    ]);
  });

  it('builds the full artifact from a streamed sequence of chunks', () => {
    let current = task('working');
    const chunks = ['Intro. ', 'Body. ', 'End.'];
    chunks.forEach((chunk, i) => {
      current = applyEvent(current, artifactEvent(artifact('report', chunk), i > 0, i === chunks.length - 1));
    });
    expect(current.artifacts).toHaveLength(1);
    expect(current.artifacts[0]!.parts).toEqual(chunks.map(text));
  });

  it('replaces an artifact with the same id when the chunk does not append', () => {
    const before = task('working', { artifacts: [artifact('a', 'one', 'two')] });
    const replacement = artifact('a', 'fresh');
    expect(applyEvent(before, artifactEvent(replacement, false)).artifacts).toEqual([replacement]);
  });

  it('adds an append chunk whose id is not known yet as a new artifact', () => {
    const after = applyEvent(task('working'), artifactEvent(artifact('late', 'x'), true));
    expect(after.artifacts).toEqual([artifact('late', 'x')]);
  });

  it('merges the same way whether or not the chunk is the last one', () => {
    const before = task('working', { artifacts: [artifact('a', 'one')] });
    const chunk = artifact('a', 'two');
    expect(applyEvent(before, artifactEvent(chunk, true, true))).toEqual(
      applyEvent(before, artifactEvent(chunk, true, false)),
    );
  });

  it('never changes a snapshot or a logged event after handing it out', () => {
    const first = artifact('a', 'one');
    const live = new LiveTask(task('working'));
    live.apply(artifactEvent(first, false));
    const early = live.snapshot();
    const copy = structuredClone(early);
    live.apply(artifactEvent(artifact('a', 'two'), true));
    live.apply({ kind: 'status', status: status('working', message('m-2', 'more')) });
    expect(early).toEqual(copy);
    expect(first).toEqual(artifact('a', 'one'));
    expect(live.snapshot().artifacts[0]!.parts).toEqual([text('one'), text('two')]);
    expect(live.snapshot().history).toHaveLength(2);
  });

  it('grows a copy, never the logged chunk, when an artifact it replaced is appended to again', () => {
    const live = new LiveTask(task('working'));
    live.apply(artifactEvent(artifact('a', 'one'), false));
    live.apply(artifactEvent(artifact('a', 'two'), true));
    const replacement = artifact('a', 'fresh');
    live.apply(artifactEvent(replacement, false));
    live.apply(artifactEvent(artifact('a', 'more'), true));
    expect(replacement).toEqual(artifact('a', 'fresh'));
    expect(live.snapshot().artifacts).toEqual([artifact('a', 'fresh', 'more')]);
  });

  it('leaves the history of the task it was created from as it was, however many messages follow', () => {
    const created = task('submitted');
    const history = [...created.history];
    const live = new LiveTask(created);
    live.apply({ kind: 'status', status: status('working', message('m-2', 'one')) });
    live.apply({ kind: 'status', status: status('working', message('m-3', 'two')) });
    expect(created.history).toEqual(history);
    expect(live.snapshot().history.map((m) => m.messageId)).toEqual([
      ...history.map((m) => m.messageId),
      'm-2',
      'm-3',
    ]);
  });

  it('leaves the status and history alone on an artifact event', () => {
    const before = task('working');
    const after = applyEvent(before, artifactEvent(artifact('a', 'x'), false));
    expect(after.status).toEqual(before.status);
    expect(after.history).toEqual(before.history);
  });
});
