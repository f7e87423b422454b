/**
 * SimService and the runner, without HTTP: built the way createSimulator builds them, on a
 * VirtualClock with the built-in scenarios. Time only moves when a test advances the clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { A2AError } from '../../src/domain/errors.js';
import type {
  LoggedEvent,
  Message,
  Part,
  SendRequest,
  SendResult,
  TaskView,
} from '../../src/domain/types.js';
import { VirtualClock } from '../../src/lib/clock.js';
import { loadFaker } from '../../src/lib/fake-data.js';
import type { CallContext } from '../../src/runtime/api.js';
import { scopeOf } from '../../src/domain/scope.js';
import { tenantCalls } from '../../src/bindings/shared/context.js';
import { createShared, serveAgent } from '../../src/compose/agents.js';
import { resolveSettings } from '../../src/compose/settings.js';
import {
  BUILTIN_SCENARIO_DIR,
  formatIssue,
  loadScenarioDirs,
  parseScenario,
} from '../../src/scenario/load.js';
import { ScenarioRegistry } from '../../src/scenario/registry.js';
import type { RetentionSettings } from '../../src/config.js';

let registry: ScenarioRegistry;

beforeAll(async () => {
  const loaded = await loadScenarioDirs([BUILTIN_SCENARIO_DIR]);
  expect(loaded.issues.map(formatIssue)).toEqual([]);
  registry = new ScenarioRegistry(loaded.scenarios);
  // The service loads faker on first use of a faker scenario; do it up front so a send only
  // needs microtasks, not real I/O, before its turn starts.
  await loadFaker();
});

const CTX: CallContext = { scope: scopeOf({ tenant: 'tenant-a' }) };

interface SetupOptions {
  registry?: ScenarioRegistry;
  seed?: string;
  speed?: number;
  retention?: Partial<RetentionSettings>;
}

/** The root agent's service, composed as createSimulator composes it, minus HTTP and push. */
function setup(options: SetupOptions = {}) {
  const clock = new VirtualClock();
  const settings = resolveSettings({
    clock,
    logLevel: 'silent',
    push: { enabled: false },
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.speed !== undefined && { speed: options.speed }),
    ...(options.retention && { retention: options.retention }),
  });
  const shared = createShared(settings, new Map());
  const { store } = shared;
  const { service } = serveAgent(settings, shared, {
    scenarios: (options.registry ?? registry).list(),
    seed: settings.seed,
    card: settings.card,
    callContext: tenantCalls,
  });
  const start = clock.now();
  return {
    clock,
    store,
    service,
    start,
    /** Every logged event of a task, oldest first. */
    events: (taskId: string): LoggedEvent[] => store.get(taskId, CTX.scope)!.log.readAfter(0),
    state: (taskId: string) => store.get(taskId, CTX.scope)!.task.status.state,
  };
}

type Sim = ReturnType<typeof setup>;

function request(
  text: string,
  extra: Partial<Message> = {},
  configuration?: SendRequest['configuration'],
): SendRequest {
  return {
    message: { messageId: `m-${text}`, role: 'user', parts: [{ kind: 'text', text }], ...extra },
    ...(configuration && { configuration }),
  };
}

/** Lets pending promise callbacks run, without moving the virtual clock. */
async function flush(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Wraps a promise so a test can ask whether it has settled yet. */
function track<T>(promise: Promise<T>) {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { promise, settled: () => settled };
}

/** Awaits `work`, jumping the clock to each next timer while it is pending. */
async function drive<T>(clock: VirtualClock, work: Promise<T>, maxSteps = 10_000): Promise<T> {
  const tracked = track(work);
  for (let step = 0; step < maxSteps; step++) {
    await flush();
    if (tracked.settled()) return work;
    const next = clock.nextAt();
    if (next === undefined) throw new Error('drive: the work is pending but no timer is scheduled');
    clock.advance(next - clock.now());
  }
  throw new Error(`drive: still pending after ${maxSteps} steps`);
}

function taskOf(result: SendResult): TaskView {
  if (result.kind !== 'task') throw new Error(`expected a task, got a ${result.kind}`);
  return result.task;
}

/** Starts a task without waiting for its turn; time has not moved when this returns. */
async function startTask(sim: Sim, text: string, extra: Partial<Message> = {}): Promise<TaskView> {
  return taskOf(await sim.service.send(request(text, extra, { returnImmediately: true }), CTX));
}

async function sendAndDrive(sim: Sim, req: SendRequest): Promise<TaskView> {
  return taskOf(await drive(sim.clock, sim.service.send(req, CTX)));
}

function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? []).flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
}

function statusStates(events: readonly LoggedEvent[]): string[] {
  return events.flatMap((e) => (e.event.kind === 'status' ? [e.event.status.state] : []));
}

/** Events without their clock times, to compare content across speeds. */
function timeless(events: readonly LoggedEvent[]) {
  return events.map(({ atMs: _atMs, ...rest }) => {
    const event = rest.event;
    if (event.kind === 'status')
      return { ...rest, event: { ...event, status: { ...event.status, timestamp: '' } } };
    if (event.kind === 'task')
      return {
        ...rest,
        event: { ...event, task: { ...event.task, status: { ...event.task.status, timestamp: '' } } },
      };
    return rest;
  });
}

/** Expects `fn` to reject or throw an A2AError of `type`, and returns it. */
async function expectA2AError(fn: () => unknown, type: A2AError['type']): Promise<A2AError> {
  let caught: unknown;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${type}`).toBeInstanceOf(A2AError);
  expect((caught as A2AError).type).toBe(type);
  return caught as A2AError;
}

describe('SimService.send: blocking and returnImmediately', () => {
  it('a blocking send resolves only when the turn ends, after virtual time passes', async () => {
    const sim = setup();
    const sent = track(sim.service.send(request('What is the weather today?'), CTX));
    await flush();
    expect(sent.settled()).toBe(false);
    // weather: working within 100-300 ms, the artifact at least 200 ms later, then completed.
    sim.clock.advance(299);
    await flush();
    expect(sent.settled()).toBe(false);
    sim.clock.advance(10_000 - 299);
    await flush();
    expect(sent.settled()).toBe(true);

    const task = taskOf(await sent.promise);
    expect(task.status.state).toBe('completed');
    expect(task.artifacts).toHaveLength(1);
    expect(textOf(task.artifacts![0]!.parts)).toMatch(/^Today will be /);
    const completed = sim.events(task.id).at(-1)!;
    expect(completed.event).toMatchObject({ kind: 'status', status: { state: 'completed' } });
    expect(completed.atMs - sim.start).toBeGreaterThanOrEqual(300);
    expect(completed.atMs - sim.start).toBeLessThanOrEqual(1000);
    expect(sim.clock.pending).toBe(0);
  });

  it('returnImmediately answers with the submitted task before any time passes; the turn still plays', async () => {
    const sim = setup();
    const task = await startTask(sim, 'What is the weather today?');
    expect(sim.clock.now()).toBe(sim.start);
    expect(task.status.state).toBe('submitted');
    expect(task.history?.map((m) => m.role)).toEqual(['user']);
    expect(task.history?.[0]).toMatchObject({ taskId: task.id, contextId: task.contextId });
    expect(sim.clock.pending).toBe(1);

    sim.clock.advance(10_000);
    expect(sim.state(task.id)).toBe('completed');
    expect(statusStates(sim.events(task.id))).toEqual(['working', 'completed']);
    expect(sim.events(task.id).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('a blocking send on a multi-turn task resolves when it pauses for input', async () => {
    const sim = setup();
    const task = await sendAndDrive(sim, request('Book me a flight'));
    expect(task.status.state).toBe('input-required');
    expect(textOf(task.status.message?.parts)).toContain('Where would you like to fly from and to?');
    expect(sim.clock.now() - sim.start).toBe(450);
  });

  it('a reply scenario answers with a Message after its delay, and creates no task', async () => {
    const sim = setup();
    const sent = track(sim.service.send(request('Hello'), CTX));
    sim.clock.advance(99);
    await flush();
    expect(sent.settled()).toBe(false);
    sim.clock.advance(1);
    await flush();
    const result = await sent.promise;
    expect(result.kind).toBe('message');
    if (result.kind !== 'message') return;
    expect(result.message.role).toBe('agent');
    expect(textOf(result.message.parts)).toMatch(/^Hello!/);
    expect(sim.store.size).toBe(0);
  });

  it('historyLength limits the history in the answer (0 leaves it out)', async () => {
    const sim = setup();
    const full = await sendAndDrive(sim, request('Book me a flight'));
    expect(full.history!.length).toBe(2);
    const none = taskOf(
      await sim.service.send(
        request('Book me a flight', {}, { historyLength: 0, returnImmediately: true }),
        CTX,
      ),
    );
    expect(none.history).toBeUndefined();
  });
});

describe('speed', () => {
  async function weatherRun(speed: number) {
    const sim = setup({ speed, seed: 'speed-test' });
    const task = await sendAndDrive(sim, request('What is the weather today?'));
    const events = sim.events(task.id);
    return { sim, task, events, offsets: events.map((e) => e.atMs - sim.start) };
  }

  it('speed 2 halves every delay and changes no content', async () => {
    const normal = await weatherRun(1);
    const fast = await weatherRun(2);
    expect(normal.offsets.at(-1)).toBeGreaterThan(0);
    expect(fast.offsets).toEqual(normal.offsets.map((ms) => ms / 2));
    expect(timeless(fast.events)).toEqual(timeless(normal.events));
  });

  it('speed 0 plays the whole turn at once: no delays, no timers, and a blocking send needs no clock advance', async () => {
    const normal = await weatherRun(1);
    const sim = setup({ speed: 0, seed: 'speed-test' });
    const sent = track(sim.service.send(request('What is the weather today?'), CTX));
    await flush();
    expect(sent.settled()).toBe(true);
    const task = taskOf(await sent.promise);
    expect(task.status.state).toBe('completed');
    expect(sim.clock.pending).toBe(0);
    const events = sim.events(task.id);
    expect(events.every((e) => e.atMs === sim.start)).toBe(true);
    expect(timeless(events)).toEqual(timeless(normal.events));
  });

  it('speed 0 also answers a reply scenario at once', async () => {
    const sim = setup({ speed: 0 });
    const sent = track(sim.service.send(request('Hello'), CTX));
    await flush();
    expect(sent.settled()).toBe(true);
    expect((await sent.promise).kind).toBe('message');
  });
});

describe('the runner', () => {
  it('keeps at most one timer per running task, however long the script', async () => {
    const sim = setup();
    const task = await startTask(sim, 'Write a long report on climate change');
    let steps = 0;
    while (sim.clock.nextAt() !== undefined) {
      expect(sim.clock.pending).toBe(1);
      sim.clock.advance(sim.clock.nextAt()! - sim.clock.now());
      steps++;
    }
    // working and the first chunk share one instant (300 ms): 15 distinct due times, one timer each.
    expect(steps).toBe(15);
    expect(sim.state(task.id)).toBe('completed');
  });

  it('applies each event at its planned time, so logged atMs are non-decreasing and match the script', async () => {
    const sim = setup();
    const task = await startTask(sim, 'Write a long report on climate change');
    sim.clock.advance(60_000);
    const events = sim.events(task.id);
    const offsets = events.map((e) => e.atMs - sim.start);
    expect(offsets).toEqual([0, 300, ...Array.from({ length: 14 }, (_, i) => 300 + i * 2000), 27_300]);
    const artifactEvents = events.filter((e) => e.event.kind === 'artifact');
    expect(sim.store.get(task.id, CTX.scope)!.task.artifacts).toHaveLength(1);
    expect(sim.store.get(task.id, CTX.scope)!.task.artifacts[0]!.parts).toHaveLength(artifactEvents.length);
  });

  it('an evicted task stops playing, and a blocking send waiting on it returns', async () => {
    const sim = setup({ retention: { maxTasks: 1 } });
    const report = track(sim.service.send(request('Write a long report on climate change'), CTX));
    await flush();
    sim.clock.advance(5_000);
    expect(report.settled()).toBe(false);
    const reportId = sim.store.list(CTX.scope, {}).records[0]!.id;

    await startTask(sim, 'What is the weather today?');
    await flush();
    expect(report.settled()).toBe(true);
    expect(taskOf(await report.promise).id).toBe(reportId);
    expect(sim.store.has(reportId)).toBe(false);
    // Only the weather task's timer is left; playing it out appends nothing for the evicted task.
    expect(sim.clock.pending).toBe(1);
    expect(() => sim.clock.advance(60_000)).not.toThrow();
    expect(sim.clock.pending).toBe(0);
  });
});

describe('a scenario that fails to render', () => {
  it('fails its task with the reason when a later step cannot be rendered, and the simulator goes on', async () => {
    const { scenario, issues } = await parseScenario(
      'broken-later',
      'broken-later.yaml',
      `
description: fails on its second entry
match:
  - keywords: [broken]
steps:
  - status: working
    message: "looking"
  - after: 1s
    status: completed
    message: "{{faker.number.int min=10 max=1}}"
`,
    );
    expect(issues.map(formatIssue)).toEqual([]);
    const sim = setup({ registry: new ScenarioRegistry([scenario!, ...registry.list()]) });
    const task = await sendAndDrive(sim, request('this one is broken'));
    expect(task.status.state).toBe('failed');
    expect(textOf(task.status.message?.parts)).toMatch(/failed to render scenario "broken-later": .*max/i);
    expect(statusStates(sim.events(task.id))).toEqual(['working', 'failed']);
    expect((await sendAndDrive(sim, request('What is the weather today?'))).status.state).toBe('completed');
  });
});

describe('SimService.cancelTask', () => {
  const REPORT = 'Write a long report on climate change';

  /** Starts the report, cancels it after `cancelAfterMs`, and plays on until it is canceled. */
  async function cancelledReport(seed: string, cancelAfterMs = 5_000) {
    const sim = setup({ seed });
    const task = await startTask(sim, REPORT);
    sim.clock.advance(cancelAfterMs);
    const cancelAt = sim.clock.now();
    const accepted = await sim.service.cancelTask(task.id, CTX);
    return { sim, task, cancelAt, accepted };
  }

  it('slow-cancel: accepted at once while the task keeps working, canceled after the seeded 2-4 s delay', async () => {
    const { sim, task, cancelAt, accepted } = await cancelledReport('cancel-seed');
    expect(accepted.status.state).toBe('working');
    const seqAtCancel = sim.events(task.id).at(-1)!.seq;

    // The cancel delay is at least 2 s: meanwhile the task keeps streaming its report.
    sim.clock.advance(1_999);
    expect(sim.state(task.id)).toBe('working');
    const meanwhile = sim.events(task.id).filter((e) => e.seq > seqAtCancel);
    expect(meanwhile.length).toBeGreaterThan(0);
    expect(meanwhile.every((e) => e.event.kind === 'artifact')).toBe(true);

    sim.clock.advance(2_001);
    expect(sim.state(task.id)).toBe('canceled');
    const canceled = sim.events(task.id).at(-1)!;
    expect(canceled.atMs - cancelAt).toBeGreaterThanOrEqual(2_000);
    expect(canceled.atMs - cancelAt).toBeLessThanOrEqual(4_000);
    expect(canceled.event.kind).toBe('status');
    if (canceled.event.kind !== 'status') return;
    expect(textOf(canceled.event.status.message?.parts)).toBe(
      'Report generation canceled; the sections written so far are kept.',
    );
    expect(canceled.event.status.message).toMatchObject({
      role: 'agent',
      taskId: task.id,
      contextId: task.contextId,
    });

    // Nothing more is played.
    expect(sim.clock.pending).toBe(0);
    const count = sim.events(task.id).length;
    sim.clock.advance(60_000);
    expect(sim.events(task.id)).toHaveLength(count);
  });

  it('the cancel delay and message are seeded: the same seed cancels at the same moment with the same message', async () => {
    const run = async (seed: string) => {
      const { sim, task } = await cancelledReport(seed);
      sim.clock.advance(10_000);
      return sim.events(task.id).at(-1)!;
    };
    const [a, b] = [await run('same-seed'), await run('same-seed')];
    expect(a.event).toMatchObject({ kind: 'status', status: { state: 'canceled' } });
    expect(b).toEqual(a);
  });

  it('a second cancel while one is pending does not reschedule it', async () => {
    const once = await cancelledReport('double');
    once.sim.clock.advance(10_000);
    const twice = await cancelledReport('double');
    twice.sim.clock.advance(1_000);
    expect((await twice.sim.service.cancelTask(twice.task.id, CTX)).status.state).toBe('working');
    twice.sim.clock.advance(9_000);
    expect(twice.sim.events(twice.task.id).at(-1)).toEqual(once.sim.events(once.task.id).at(-1));
  });

  it('a scenario without a cancel delay is canceled before cancelTask returns', async () => {
    const sim = setup();
    const task = await startTask(sim, 'What is the weather today?');
    const view = await sim.service.cancelTask(task.id, CTX);
    expect(view.status.state).toBe('canceled');
    expect(sim.clock.pending).toBe(0);
  });

  it('canceling a terminal task is refused with TaskNotCancelableError', async () => {
    const sim = setup();
    const task = await sendAndDrive(sim, request('What is the weather today?'));
    const error = await expectA2AError(() => sim.service.cancelTask(task.id, CTX), 'TaskNotCancelableError');
    expect(error.details.metadata).toEqual({ taskId: task.id });
  });

  it('a paused task being canceled refuses a follow-up until the cancel lands', async () => {
    const sim = setup();
    const task = await sendAndDrive(sim, request('Book me a flight'));
    sim.service.cancelTask(task.id, CTX);
    await expectA2AError(
      () => sim.service.send(request('From Rome to Paris', { taskId: task.id }), CTX),
      'UnsupportedOperationError',
    );
    sim.clock.advance(500);
    expect(sim.state(task.id)).toBe('canceled');
    expect(textOf(sim.store.get(task.id, CTX.scope)!.task.status.message?.parts)).toBe(
      'The flight search was canceled.',
    );
  });

  // BUG (src/runtime/runner.ts, TaskRun.requestCancel): the cancel timer is not dropped when the
  // script reaches a terminal state first. Cancel slow-cancel at 26.5 s (its last chunk is at
  // 26.3 s, completed at 27.3 s; the cancel delay is 2-4 s): when the timer fires, the store
  // refuses the "canceled" status on the completed task and the A2AError escapes from the timer
  // callback (here out of VirtualClock.advance; with RealClock, an uncaught exception).
  it('a cancel accepted just before the script completes does not throw when the task has already completed', async () => {
    const sim = setup();
    const task = await startTask(sim, REPORT);
    sim.clock.advance(26_500);
    expect(sim.state(task.id)).toBe('working');
    expect((await sim.service.cancelTask(task.id, CTX)).status.state).toBe('working');
    expect(() => sim.clock.advance(10_000)).not.toThrow();
    expect(sim.state(task.id)).toBe('completed');
    expect(sim.clock.pending).toBe(0);
  });
});

describe('follow-up messages', () => {
  it('a follow-up with the taskId continues the script where it paused', async () => {
    const sim = setup();
    const first = await sendAndDrive(sim, request('Book me a flight'));
    const seqBefore = sim.events(first.id).at(-1)!.seq;

    const second = await sendAndDrive(
      sim,
      request('From Lisbon to Oslo', { taskId: first.id, contextId: first.contextId }),
    );
    expect(second.id).toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(second.status.state).toBe('completed');
    expect(textOf(second.artifacts?.[0]?.parts)).toContain('Found 2 flights from Lisbon to Oslo.');
    expect(second.history!.filter((m) => m.role === 'user').map((m) => textOf(m.parts))).toEqual([
      'Book me a flight',
      'From Lisbon to Oslo',
    ]);

    // The new turn opens with a Task snapshot, seqs keep counting across turns.
    const turn2 = sim.events(first.id).filter((e) => e.seq > seqBefore);
    expect(turn2[0]!.seq).toBe(seqBefore + 1);
    expect(turn2[0]!.event.kind).toBe('task');
    expect(statusStates(turn2)).toEqual(['working', 'completed']);
  });

  it('a follow-up without a contextId joins the task context', async () => {
    const sim = setup();
    const first = await sendAndDrive(sim, request('Book me a flight'));
    const second = await sendAndDrive(sim, request('never mind', { taskId: first.id }));
    expect(second.status.state).toBe('canceled');
    expect(second.history!.at(-2)).toMatchObject({
      role: 'user',
      contextId: first.contextId,
      taskId: first.id,
    });
  });

  it('a contextId that does not match the task is InvalidParams, and the task is unchanged', async () => {
    const sim = setup();
    const first = await sendAndDrive(sim, request('Book me a flight'));
    const before = sim.store.get(first.id, CTX.scope)!.task;
    const seq = sim.events(first.id).at(-1)!.seq;

    const error = await expectA2AError(
      () =>
        sim.service.send(
          request('From Lisbon to Oslo', { taskId: first.id, contextId: 'some-other-context' }),
          CTX,
        ),
      'InvalidParamsError',
    );
    expect(error.details.fieldViolations?.map((v) => v.field)).toEqual(['message.contextId']);
    expect(sim.store.get(first.id, CTX.scope)!.task).toEqual(before);
    expect(sim.events(first.id).at(-1)!.seq).toBe(seq);
    expect(sim.clock.pending).toBe(0);

    // The task still accepts a correct follow-up.
    const second = await sendAndDrive(sim, request('From Lisbon to Oslo', { taskId: first.id }));
    expect(second.status.state).toBe('completed');
  });

  it('a follow-up while the task is still working is refused', async () => {
    const sim = setup();
    const task = await startTask(sim, 'Write a long report on climate change');
    sim.clock.advance(1_000);
    await expectA2AError(
      () => sim.service.send(request('faster please', { taskId: task.id }), CTX),
      'UnsupportedOperationError',
    );
  });

  it('a follow-up to a terminal task is refused', async () => {
    const sim = setup();
    const task = await sendAndDrive(sim, request('What is the weather today?'));
    await expectA2AError(
      () => sim.service.send(request('and tomorrow?', { taskId: task.id }), CTX),
      'UnsupportedOperationError',
    );
  });
});

describe('task visibility', () => {
  it('an unknown task id is TaskNotFound for send, getTask, cancelTask and subscribe', async () => {
    const sim = setup();
    const error = await expectA2AError(
      () => sim.service.send(request('hello?', { taskId: 'no-such-task' }), CTX),
      'TaskNotFoundError',
    );
    expect(error.details.metadata).toEqual({ taskId: 'no-such-task' });
    await expectA2AError(() => sim.service.getTask('no-such-task', undefined, CTX), 'TaskNotFoundError');
    await expectA2AError(() => sim.service.cancelTask('no-such-task', CTX), 'TaskNotFoundError');
    await expectA2AError(() => sim.service.subscribe('no-such-task', CTX), 'TaskNotFoundError');
  });

  it('a task of another scope is indistinguishable from an unknown one', async () => {
    const sim = setup();
    const task = await startTask(sim, 'Write a long report on climate change');
    const other: CallContext = { scope: scopeOf({ tenant: 'tenant-b' }) };
    expect(sim.service.getTask(task.id, undefined, CTX).id).toBe(task.id);
    await expectA2AError(() => sim.service.getTask(task.id, undefined, other), 'TaskNotFoundError');
    await expectA2AError(() => sim.service.cancelTask(task.id, other), 'TaskNotFoundError');
    await expectA2AError(
      () => sim.service.send(request('more', { taskId: task.id }), other),
      'TaskNotFoundError',
    );
    expect(sim.service.listTasks({}, other).tasks).toEqual([]);
    // And the refused cancel did not touch it.
    sim.clock.advance(60_000);
    expect(sim.state(task.id)).toBe('completed');
  });
});

describe('determinism', () => {
  it('a task gets the same id and events whether it runs alone or alongside other tasks', async () => {
    const alone = setup({ seed: 'concurrency' });
    const a1 = await startTask(alone, 'What is the weather today?');
    expect(a1.status.state).toBe('submitted');
    alone.clock.advance(60_000);

    const crowded = setup({ seed: 'concurrency' });
    // Other tasks start first, at the same instant, and keep drawing timers around the weather task.
    await startTask(crowded, 'Write a long report on climate change');
    await startTask(crowded, 'Book me a flight');
    await startTask(crowded, 'Please fail this task');
    const a2 = await startTask(crowded, 'What is the weather today?');
    crowded.clock.advance(60_000);

    expect(a2.id).toBe(a1.id);
    expect(a2.contextId).toBe(a1.contextId);
    expect(crowded.events(a2.id)).toEqual(alone.events(a1.id));
    expect(crowded.state(a2.id)).toBe('completed');
  });

  it('the same seed replays the same multi-turn task; another seed gives other ids and content', async () => {
    const run = async (seed: string) => {
      const sim = setup({ seed });
      const first = await sendAndDrive(sim, request('Book me a flight'));
      await sendAndDrive(sim, request('From Lisbon to Oslo', { taskId: first.id }));
      return sim.events(first.id);
    };
    const [a, b, c] = [await run('seed-1'), await run('seed-1'), await run('seed-2')];
    expect(b).toEqual(a);
    expect(c[0]!.taskId).not.toBe(a[0]!.taskId);
    const artifactOf = (events: LoggedEvent[]) =>
      events.flatMap((e) => (e.event.kind === 'artifact' ? [e.event.artifact] : []))[0]!;
    expect(artifactOf(c).artifactId).not.toBe(artifactOf(a).artifactId);
    expect(artifactOf(c).parts).not.toEqual(artifactOf(a).parts);
  });

  it('asking the same question again while the first task is stored starts a distinct task', async () => {
    const sim = setup();
    const a = await startTask(sim, 'What is the weather today?');
    const b = await startTask(sim, 'What is the weather today?');
    expect(b.id).not.toBe(a.id);
    expect(b.contextId).not.toBe(a.contextId);
  });
});
