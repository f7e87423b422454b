/**
 * A relay's deadlines, on a virtual clock with an agent that is only a generator of items: news
 * keeps the idle deadline away, but not the total one; a turn that ends is never failed by them.
 */
import { expect, it } from 'vitest';
import { ROOT_SCOPE } from '../../src/domain/scope.js';
import type { Task, TaskState } from '../../src/domain/types.js';
import { VirtualClock } from '../../src/lib/clock.js';
import type { UpstreamAgent, UpstreamItem } from '../../src/runtime/api.js';
import { RELAY_IDLE_MS, RELAY_TOTAL_MS } from '../../src/runtime/proxy-limits.js';
import { ProxyRun } from '../../src/runtime/proxy-run.js';
import { TaskStore } from '../../src/store/task-store.js';

const MINUTE = 60_000;

function setup() {
  const clock = new VirtualClock();
  const store = new TaskStore({
    maxTasks: 100,
    terminalTtl: 60 * MINUTE,
    maxEventsPerTask: 10_000,
    eventTtl: 60 * MINUTE,
    maxStoreBytes: 64 * 1024 * 1024,
  });
  const task: Task = {
    id: 't-1',
    contextId: 'c-1',
    status: { state: 'working', timestamp: new Date(clock.now()).toISOString() },
    artifacts: [],
    history: [],
  };
  const record = store.create(task, ROOT_SCOPE, '(proxied)', clock.now());
  const upstream: UpstreamAgent = {
    url: 'http://agent.test',
    streaming: true,
    send: () => none(),
    subscribe: () => none(),
    getTask: () => Promise.reject(new Error('not asked')),
    cancelTask: () => Promise.reject(new Error('not asked')),
  };
  const run = new ProxyRun(record, {}, { upstream, store, clock });
  return { clock, record, run };
}

async function* none(): AsyncGenerator<UpstreamItem> {}

/**
 * A status every `everyMs` of virtual time, each with a new message; with `last`, the third is in
 * that state, and then the stream stays open with nothing more on it.
 */
async function* statuses(
  clock: VirtualClock,
  everyMs: number,
  last?: TaskState,
): AsyncGenerator<UpstreamItem> {
  for (let n = 1; ; n++) {
    await new Promise<void>((resolve) => clock.setTimer(everyMs, resolve));
    const done = last !== undefined && n === 3;
    yield {
      kind: 'status',
      taskId: 't-1',
      contextId: 'c-1',
      status: {
        state: done ? last : 'working',
        timestamp: new Date(clock.now()).toISOString(),
        message: { messageId: `m-${n}`, role: 'agent', parts: [{ kind: 'text', text: `step ${n}` }] },
      },
    };
    if (done) await new Promise(() => {});
  }
}

/** Advances the clock a minute at a time, letting the relay run between steps. */
async function advance(clock: VirtualClock, ms: number): Promise<void> {
  for (let done = 0; done < ms; done += MINUTE) {
    clock.advance(MINUTE);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }
}

it('stops a relay that keeps bringing news at its total deadline, and fails the task', async () => {
  const { clock, record, run } = setup();
  const controller = new AbortController();
  run.relay(statuses(clock, MINUTE), {}, controller);
  await advance(clock, RELAY_IDLE_MS + 2 * MINUTE);
  expect(record.status.state).toBe('working');
  await advance(clock, RELAY_TOTAL_MS);
  expect(record.status.state).toBe('failed');
  expect(JSON.stringify(record.status.message)).toMatch(/the relay ran for 30m, its total deadline/);
  expect(controller.signal.aborted).toBe(true);
  const seq = record.log.latestSeq;
  await advance(clock, 10 * MINUTE);
  expect(record.log.latestSeq).toBe(seq);
});

it('a blocking send waiting on the turn hears why the relay stopped', async () => {
  const { clock, run } = setup();
  run.relay(statuses(clock, 10 * MINUTE), {}, new AbortController());
  const waiting = run.untilTurnEnds(0);
  const failed = expect(waiting).rejects.toThrow(/nothing new from the agent for 5m/);
  await advance(clock, RELAY_IDLE_MS + MINUTE);
  await failed;
});

it('a turn that paused is not failed by them: the stream the agent left open is let go', async () => {
  const { clock, record, run } = setup();
  const controller = new AbortController();
  run.relay(statuses(clock, MINUTE, 'input-required'), {}, controller);
  await advance(clock, RELAY_IDLE_MS + 5 * MINUTE);
  expect(record.status.state).toBe('input-required');
  expect(controller.signal.aborted).toBe(true);
});
