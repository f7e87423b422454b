/**
 * The simulator in front of a real agent (`--proxy`): messages no local scenario takes (or every
 * message, `--proxy-all`) go to the agent, and its answers come back through the simulator's own
 * store. A proxied task has a log like any other, so GetTask, ListTasks, resume from a cursor, push,
 * the journal, the feed and chaos (which wraps this service) treat it as a scripted one.
 */
import { A2AError, invalidParams } from '../domain/errors.js';
import { isInterrupted, isPaused } from '../domain/lifecycle.js';
import type {
  ListTasksPage,
  ListTasksQuery,
  Message,
  PushConfig,
  PushConfigInput,
  SendRequest,
  SendResult,
  Task,
  TaskView,
} from '../domain/types.js';
import { metadataOf } from '../domain/types.js';
import { messageBytes } from '../domain/size.js';
import type { Clock } from '../lib/clock.js';
import { merge } from '../lib/objects.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioRegistry } from '../scenario/registry.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type {
  CallContext,
  PushConfigPage,
  PushConfigPageQuery,
  TaskService,
  UpstreamAgent,
  UpstreamCall,
  UpstreamItem,
} from './api.js';
import { checkCancelable } from './checks.js';
import { breakable, firstItem, openingTask } from './proxy-answers.js';
import { ProxyRun } from './proxy-run.js';
import type { SimService } from './service.js';
import { messageStream, type TaskStream } from './stream.js';
import { viewOf } from './views.js';

/** The scenario id a proxied task carries in listings, the journal and the dashboard. */
export const PROXIED = '(proxied)';

/** `unmatched`: what no scenario of the simulator's own matches (a fallback scenario does not count). */
export type ProxyMode = 'unmatched' | 'all';

export interface ProxyServiceOptions {
  upstream: UpstreamAgent;
  mode: ProxyMode;
  store: TaskStore;
  clock: Clock;
}

/** What a recorder hears of the conversations that went to the agent. */
export interface ProxyObserver {
  /** A message reached the agent: a new conversation (`taskId` absent) or a task's next turn. */
  turn?(message: Message, atMs: number): void;
  /** A client asked the agent to cancel a task. */
  cancel?(taskId: string, atMs: number): void;
  /** The agent answered a new message with a Message, or refused it, and no task was made. */
  answer?(
    message: Message,
    outcome: { message: Message } | { error: A2AError },
    atMs: number,
    sentAtMs: number,
  ): void;
}

type Started =
  | { kind: 'message'; message: Message }
  | { kind: 'task'; record: TaskRecord; run: ProxyRun; fromSeq: number };

export class ProxyService implements TaskService {
  private readonly runs = new Map<string, ProxyRun>();
  private readonly observers: ProxyObserver[] = [];

  constructor(
    private readonly inner: SimService,
    private readonly options: ProxyServiceOptions,
  ) {
    options.store.onEvict((record) => {
      this.runs.get(record.id)?.stop();
      this.runs.delete(record.id);
    });
  }

  get scenarios(): ScenarioRegistry {
    return this.inner.scenarios;
  }

  useScenarios(registry: ScenarioRegistry): void {
    this.inner.useScenarios(registry);
  }

  observe(observer: ProxyObserver): void {
    this.observers.push(observer);
  }

  async send(request: SendRequest, ctx: CallContext): Promise<SendResult> {
    if (!this.proxies(request, ctx)) return this.inner.send(request, ctx);
    const started = await this.start(request, ctx);
    if (started.kind === 'message') return started;
    const { record, run, fromSeq } = started;
    const historyLength = request.configuration?.historyLength;
    if (!request.configuration?.returnImmediately) await run.untilTurnEnds(fromSeq);
    return { kind: 'task', task: viewOf(record.task, { historyLength }) };
  }

  async stream(request: SendRequest, ctx: CallContext): Promise<TaskStream> {
    if (!this.proxies(request, ctx)) return this.inner.stream(request, ctx);
    const started = await this.start(request, ctx);
    if (started.kind === 'message') return messageStream(Promise.resolve(started.message));
    const { record, run, fromSeq } = started;
    // Served from the task's log, as for a scripted task: chaos and resume see the same events.
    const stream = this.inner.subscribe(record.id, ctx, { afterSeq: fromSeq });
    return breakable(stream, run);
  }

  async getTask(id: string, historyLength: number | undefined, ctx: CallContext): Promise<TaskView> {
    const run = this.runOf(id, ctx);
    if (run) {
      // The agent is asked, but the simulator answers: an agent that is down still leaves the task
      // readable. While a stream writes the log, the stream is the truth.
      await this.options.upstream.getTask(id, this.callOf(ctx, ctx.connection?.signal)).then(
        (task) => run.idle && run.reconcile(task),
        () => {},
      );
    }
    return this.inner.getTask(id, historyLength, ctx);
  }

  listTasks(query: ListTasksQuery, ctx: CallContext): ListTasksPage {
    return this.inner.listTasks(query, ctx);
  }

  async cancelTask(id: string, ctx: CallContext): Promise<TaskView> {
    const run = this.runOf(id, ctx);
    if (!run) return this.inner.cancelTask(id, ctx);
    checkCancelable(id, run.record.status.state);
    const askedAt = this.options.clock.now();
    for (const observer of this.observers) observer.cancel?.(id, askedAt);
    const task = await this.options.upstream.cancelTask(id, this.callOf(ctx, ctx.connection?.signal));
    if (run.idle) run.reconcile(task);
    return viewOf(task, {});
  }

  subscribe(id: string, ctx: CallContext, resume: { afterSeq?: number } = {}): TaskStream {
    const run = this.runOf(id, ctx);
    // Refused before anything is served: a subscription that came round a proxy loop goes no further.
    if (run) this.callOf(ctx, undefined);
    const stream = this.inner.subscribe(id, ctx, resume);
    if (!run) return stream;
    run.ensureFollowing();
    return breakable(stream, run);
  }

  createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext): PushConfig {
    return this.inner.createPushConfig(taskId, input, ctx);
  }

  getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext): PushConfig {
    return this.inner.getPushConfig(taskId, configId, ctx);
  }

  listPushConfigs(taskId: string, page: PushConfigPageQuery, ctx: CallContext): PushConfigPage {
    return this.inner.listPushConfigs(taskId, page, ctx);
  }

  deletePushConfig(taskId: string, configId: string, ctx: CallContext): void {
    this.inner.deletePushConfig(taskId, configId, ctx);
  }

  currentTask(id: string, ctx: CallContext): Task | undefined {
    return this.inner.currentTask(id, ctx);
  }

  scenarioFor(request: SendRequest, ctx: CallContext): Scenario | undefined {
    return this.proxies(request, ctx) ? undefined : this.inner.scenarioFor(request, ctx);
  }

  scenarioOfTask(id: string, ctx: CallContext): Scenario | undefined {
    return this.runOf(id, ctx) ? undefined : this.inner.scenarioOfTask(id, ctx);
  }

  /** Whether this message goes to the agent. */
  private proxies(request: SendRequest, ctx: CallContext): boolean {
    const { message } = request;
    if (message.taskId !== undefined) return this.runOf(message.taskId, ctx) !== undefined;
    if (this.waitingIn(message, ctx)) return true;
    if (this.options.mode === 'all') return true;
    const selection = this.inner.match(message, metadataOf(request), ctx);
    return selection.kind === 'none' || (selection.kind === 'matched' && selection.by === 'fallback');
  }

  private async start(request: SendRequest, ctx: CallContext): Promise<Started> {
    // The relay's own: the client's leaving aborts it only until the agent has answered.
    const relay = new AbortController();
    const call = this.callOf(ctx, relay.signal);
    const waiting = this.waitingIn(request.message, ctx);
    const message = waiting ? merge(request.message, { taskId: waiting.record.id }) : request.message;
    if (message.role !== 'user') {
      throw invalidParams([{ field: 'message.role', description: 'a client sends messages with role user' }]);
    }
    const push = request.configuration?.pushConfig;
    if (push) this.inner.checkPushConfig(push);
    // As for a scripted task: a store that cannot take the message refuses it before anyone works on it.
    this.options.store.admit(messageBytes(message));
    const sentAt = this.options.clock.now();
    for (const observer of this.observers) observer.turn?.(message, sentAt);
    const forward: SendRequest = {
      message,
      ...(request.metadata && { metadata: request.metadata }),
      ...(request.configuration?.acceptedOutputModes && {
        configuration: { acceptedOutputModes: request.configuration.acceptedOutputModes },
      }),
    };
    if (message.taskId !== undefined) return this.continue(message, forward, call, relay, ctx);
    const items = this.options.upstream.send(forward, call)[Symbol.asyncIterator]();
    let first: UpstreamItem;
    try {
      first = await firstItem(items, this.options.upstream.url, relay, ctx.connection?.signal);
    } catch (error) {
      if (error instanceof A2AError) this.tell(message, { error }, sentAt);
      throw error;
    }
    if (first.kind === 'message') {
      void items.return?.();
      this.tell(message, { message: first.message }, sentAt);
      return { kind: 'message', message: first.message };
    }
    const now = this.options.clock.now();
    const answered = openingTask(first, message, now);
    // A task that arrives done (an agent that does not stream answers when the turn ends) opens as
    // submitted, and what it did follows as events: streams and recordings see the turn end.
    const task =
      isPaused(answered.status.state) || answered.artifacts.length > 0
        ? {
            ...answered,
            status: { state: 'submitted' as const, timestamp: answered.status.timestamp },
            artifacts: [],
          }
        : answered;
    if (this.options.store.has(task.id)) {
      void items.return?.();
      throw new A2AError(
        'InvalidAgentResponseError',
        `Invalid agent response: the agent at ${this.options.upstream.url} named its new task ${task.id}, an id already in use here.`,
        { httpStatus: 502 },
      );
    }
    let record: TaskRecord;
    try {
      record = this.options.store.create(task, ctx.scope, PROXIED, now);
    } catch (error) {
      relay.abort();
      throw error;
    }
    const run = new ProxyRun(record, call, this.options);
    this.runs.set(task.id, run);
    if (push) this.inner.attachPushConfig(record, push, 0, ctx);
    // Relaying from here: what the first item brings counts against the same limits as the rest.
    run.relay(items, call, relay);
    if (first.kind !== 'task') run.apply(first);
    else if (task !== answered) run.reconcile(answered);
    return { kind: 'task', record, run, fromSeq: 0 };
  }

  /** The answer to a task waiting for input: goes to the agent, whose next turn is relayed. */
  private async continue(
    message: Message,
    forward: SendRequest,
    call: UpstreamCall,
    relay: AbortController,
    ctx: CallContext,
  ): Promise<Started> {
    const taskId = message.taskId!;
    const run = this.runOf(taskId, ctx)!;
    const { state } = run.record.status;
    if (!isInterrupted(state)) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Failed to continue task ${taskId}: it is ${state}, not waiting for input.`,
        { metadata: { taskId } },
      );
    }
    const contextId = run.record.contextId;
    const answer = merge(message, { taskId, contextId });
    const items = this.options.upstream
      .send(merge(forward, { message: answer }), call)
      [Symbol.asyncIterator]();
    const first = await firstItem(items, this.options.upstream.url, relay, ctx.connection?.signal);
    const fromSeq = run.record.log.latestSeq;
    run.relay(items, call, relay);
    run.openTurn(answer, first.kind === 'message' ? undefined : first);
    return { kind: 'task', record: run.record, run, fromSeq };
  }

  private tell(message: Message, outcome: { message: Message } | { error: A2AError }, sentAt: number): void {
    const now = this.options.clock.now();
    for (const observer of this.observers) observer.answer?.(message, outcome, now, sentAt);
  }

  private runOf(id: string, ctx: CallContext): ProxyRun | undefined {
    const run = this.runs.get(id);
    return run && this.options.store.get(id, ctx.scope) ? run : undefined;
  }

  /** The gateway's follow-up by context: a proxied task of that context waiting for input. */
  private waitingIn(message: Message, ctx: CallContext): ProxyRun | undefined {
    if (!ctx.continueInContext || message.contextId === undefined || message.taskId !== undefined)
      return undefined;
    return this.options.store
      .inContext(ctx.scope, message.contextId)
      .map((record) => this.runs.get(record.id))
      .findLast((run) => run !== undefined && isInterrupted(run.record.status.state));
  }

  /** The call to the agent on behalf of `ctx`; refused here if it would go round a proxy loop. */
  private callOf(ctx: CallContext, signal: AbortSignal | undefined): UpstreamCall {
    const call: UpstreamCall = {
      ...(ctx.upstreamHeaders && { headers: ctx.upstreamHeaders }),
      ...(signal && { signal }),
    };
    this.options.upstream.checkCall?.(call);
    return call;
  }
}
