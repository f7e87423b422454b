/**
 * SimService: the one API every binding calls. Bindings decode, call, and encode; every A2A rule
 * about tasks (§3 of the protocol digest: ids, blocking, history, listing, cancel, subscribe) is
 * enforced here, once, for every wire.
 */
import { createHash } from 'node:crypto';
import { A2AError, invalidParams, taskNotFound } from '../domain/errors.js';
import { isPaused, isTerminal } from '../domain/lifecycle.js';
import { messageBytes } from '../domain/size.js';
import type {
  JsonObject,
  ListTasksPage,
  ListTasksQuery,
  LoggedEvent,
  Message,
  PushConfig,
  PushConfigInput,
  PushDialect,
  SendRequest,
  SendResult,
  Task,
  TaskView,
} from '../domain/types.js';
import { planError, planReply, startTurn, textOf, type TurnInput } from '../engine/plan.js';
import type { DeliveryChaos } from '../chaos/plan.js';
import type { Clock } from '../lib/clock.js';
import { loadFaker } from '../lib/fake-data.js';
import { merge } from '../lib/objects.js';
import { Random, taskStreams } from '../lib/random.js';
import type { Scenario } from '../scenario/model.js';
import type { MatchInput, ScenarioRegistry } from '../scenario/registry.js';
import { MAX_PAGE_SIZE, type TaskRecord, type TaskStore } from '../store/task-store.js';
import { checkInputModes, checkOutputModes } from './modes.js';
import { TaskRun } from './runner.js';
import { followTask, messageStream, type TaskStream } from './stream.js';

/** Who is calling: tasks are visible only within the scope that created them (e.g. a tenant). */
export interface CallContext {
  scope: string;
  /**
   * A message with a `contextId` but no `taskId` continues that context's task waiting for input,
   * if there is one (the gateway dialect's follow-up); otherwise it starts a new task in the context.
   */
  continueInContext?: boolean;
  /** The wire request behind the call: what chaos keys on and what its records name. */
  request?: WireRequest;
  /** How the webhooks this call creates misbehave (set by the chaos layer). */
  deliveryChaos?: DeliveryChaos;
}

/**
 * Distinct requests whose repeat count is remembered, the least recently repeated forgotten first:
 * twice the default task cap, so a request whose tasks are still stored is rarely forgotten.
 */
const MAX_REMEMBERED_REQUESTS = 20_000;

/** Webhooks per task, at most: a client bug must not turn into unbounded deliveries. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;

export interface WireRequest {
  /** e.g. `REST`, `JSON-RPC 1.0`, `JSON-RPC 0.3`, `gateway`. */
  binding: string;
  /** The A2A version of its shapes: webhooks made on it receive the same. */
  version: PushDialect;
  /** e.g. `POST /message:stream`, `SendMessage`, `tasks/resubscribe`. */
  operation: string;
  /** The JSON-RPC request id, if any. */
  id?: string | number | null;
  /** The `X-Sim-Chaos` header, as sent. */
  chaos?: string;
  /** The scope the call acts in. */
  scope?: string;
  /** The task the call turned out to be about, once the service knows it. */
  taskId?: string;
}

type Awaitable<T> = T | Promise<T>;

/** What the bindings call: the simulator itself, or the chaos layer in front of it. */
export interface A2AService {
  send(request: SendRequest, ctx: CallContext): Promise<SendResult>;
  stream(request: SendRequest, ctx: CallContext): Promise<TaskStream>;
  getTask(id: string, historyLength: number | undefined, ctx: CallContext): Awaitable<TaskView>;
  listTasks(query: ListTasksQuery, ctx: CallContext): Awaitable<ListTasksPage>;
  cancelTask(id: string, ctx: CallContext): Awaitable<TaskView>;
  subscribe(id: string, ctx: CallContext, resume?: { afterSeq?: number }): Awaitable<TaskStream>;
  createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext): Awaitable<PushConfig>;
  /** Without `configId`, the task's first config (v0.3 `tasks/pushNotificationConfig/get` by task id). */
  getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext): Awaitable<PushConfig>;
  listPushConfigs(taskId: string, page: PushConfigPageQuery, ctx: CallContext): Awaitable<PushConfigPage>;
  /** Idempotent: deleting a config that is not there succeeds. */
  deletePushConfig(taskId: string, configId: string, ctx: CallContext): Awaitable<void>;
}

export interface PushConfigPageQuery {
  pageSize?: number;
  pageToken?: string;
}

export interface PushConfigPage {
  configs: PushConfig[];
  /** `""` on the last page. */
  nextPageToken: string;
}

/** Delivers a task's events to its webhooks; the simulator's is in `src/push/`. */
export interface PushDelivery {
  /** Refuses a URL the deliveries may not go to (the SSRF filter); throws InvalidParams. */
  checkUrl(url: string): void;
  /** Starts delivering the events after `afterSeq` to `config`. */
  start(record: TaskRecord, config: PushConfig, afterSeq: number, ctx: CallContext): void;
  stop(config: PushConfig): void;
}

export interface ServiceOptions {
  registry: ScenarioRegistry;
  store: TaskStore;
  clock: Clock;
  seed: string;
  speed: number;
  /** Media types accepted in message parts; `type/*` wildcards allowed. */
  inputModes: readonly string[];
  /** Whether a stream ends when its task pauses in auth-required (it always ends at input-required). */
  closeStreamOnAuthRequired: boolean;
  /** Webhook delivery; absent, push is off and every push call is PushNotificationNotSupportedError. */
  push?: PushDelivery;
}

export class SimService implements A2AService {
  private registry: ScenarioRegistry;
  private readonly runs = new Map<string, TaskRun>();
  /** How many tasks each distinct request has started: the next one's occurrence. */
  private readonly occurrences = new Map<string, number>();

  constructor(private readonly options: ServiceOptions) {
    this.registry = options.registry;
    options.store.onEvict((record) => {
      this.runs.get(record.id)?.stop();
      this.runs.delete(record.id);
    });
  }

  get scenarios(): ScenarioRegistry {
    return this.registry;
  }

  /** Swaps the scenario set; running tasks keep the version they started with. */
  useScenarios(registry: ScenarioRegistry): void {
    this.registry = registry;
  }

  /** SendMessage: answers once the task is terminal or interrupted, unless `returnImmediately`. */
  async send(request: SendRequest, ctx: CallContext): Promise<SendResult> {
    const started = await this.start(request, ctx);
    if (started.kind === 'reply') {
      const message = await started.message;
      return { kind: 'message', message };
    }
    const { record, fromSeq } = started;
    const historyLength = request.configuration?.historyLength;
    if (request.configuration?.returnImmediately)
      return { kind: 'task', task: this.view(record.task, { historyLength }) };
    await untilTurnEnds(record, fromSeq);
    return { kind: 'task', task: this.view(record.task, { historyLength }) };
  }

  /** SendStreamingMessage: a Message, or the turn's events from its opening Task snapshot on. */
  async stream(request: SendRequest, ctx: CallContext): Promise<TaskStream> {
    const started = await this.start(request, ctx);
    if (started.kind === 'reply') return messageStream(started.message);
    return followTask(started.record, {
      afterSeq: started.fromSeq,
      closeOnAuthRequired: this.options.closeStreamOnAuthRequired,
    });
  }

  getTask(id: string, historyLength: number | undefined, ctx: CallContext): TaskView {
    checkHistoryLength(historyLength, 'historyLength');
    return this.view(this.find(id, ctx).task, { historyLength });
  }

  listTasks(query: ListTasksQuery, ctx: CallContext): ListTasksPage {
    checkHistoryLength(query.historyLength, 'historyLength');
    if (
      query.pageSize !== undefined &&
      !(Number.isInteger(query.pageSize) && query.pageSize >= 1 && query.pageSize <= MAX_PAGE_SIZE)
    ) {
      throw invalidParams([
        {
          field: 'pageSize',
          description: `must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${query.pageSize}`,
        },
      ]);
    }
    const page = this.options.store.list(ctx.scope, query);
    return {
      tasks: page.records.map((r) =>
        this.view(r.task, {
          historyLength: query.historyLength,
          includeArtifacts: query.includeArtifacts ?? false,
        }),
      ),
      nextPageToken: page.nextPageToken,
      pageSize: page.pageSize,
      totalSize: page.totalSize,
    };
  }

  /** CancelTask: accepted at once, effective after the scenario's cancel delay (0 by default). */
  cancelTask(id: string, ctx: CallContext): TaskView {
    const record = this.find(id, ctx);
    const state = record.status.state;
    if (isTerminal(state)) {
      throw new A2AError('TaskNotCancelableError', `Failed to cancel task ${id}: it is already ${state}.`, {
        metadata: { taskId: id },
      });
    }
    const run = this.runs.get(id);
    if (!run || !run.scenario.cancel.allowed) {
      throw new A2AError(
        'TaskNotCancelableError',
        `Failed to cancel task ${id}: scenario "${record.scenarioId}" does not allow cancel (cancel.allowed: false).`,
        { metadata: { taskId: id } },
      );
    }
    run.requestCancel();
    return this.view(record.task, {});
  }

  /**
   * SubscribeToTask: the current Task first, then its live events until it ends or pauses again.
   *
   * With a cursor (`afterSeq`, the last seq the client has), it replays the retained events after
   * it instead of the snapshot, then goes on live: nothing lost, nothing repeated. A cursor the log
   * can no longer serve is an error, never a silent gap.
   */
  subscribe(id: string, ctx: CallContext, resume: { afterSeq?: number } = {}): TaskStream {
    const record = this.find(id, ctx);
    const state = record.status.state;
    const { afterSeq } = resume;
    if (afterSeq === undefined) {
      if (isTerminal(state)) {
        throw new A2AError(
          'UnsupportedOperationError',
          `Failed to subscribe to task ${id}: it is already ${state}.`,
          {
            metadata: { taskId: id },
          },
        );
      }
      return followTask(record, {
        afterSeq: record.log.latestSeq,
        closeOnAuthRequired: this.options.closeStreamOnAuthRequired,
        snapshot: record.task,
      });
    }
    this.checkCursor(record, afterSeq);
    return followTask(record, { afterSeq, closeOnAuthRequired: this.options.closeStreamOnAuthRequired });
  }

  createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext): PushConfig {
    this.checkPushConfig(input);
    const record = this.find(taskId, ctx);
    return this.attachPush(record, input, record.log.latestSeq, ctx);
  }

  getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext): PushConfig {
    this.pushOrRefuse();
    const configs = this.find(taskId, ctx).pushConfigs;
    const config = configId === undefined ? configs.values().next().value : configs.get(configId);
    if (!config) {
      throw new A2AError(
        'TaskNotFoundError',
        `Push notification config not found: task ${taskId} has ${configId === undefined ? 'none' : `no config "${configId}"`}.`,
        { metadata: { taskId, ...(configId !== undefined && { configId }) } },
      );
    }
    return config;
  }

  listPushConfigs(taskId: string, page: PushConfigPageQuery, ctx: CallContext): PushConfigPage {
    this.pushOrRefuse();
    const configs = [...this.find(taskId, ctx).pushConfigs.values()];
    const size = page.pageSize || MAX_PUSH_CONFIGS_PER_TASK;
    if (!Number.isInteger(size) || size < 0) {
      throw invalidParams([
        { field: 'pageSize', description: `must be a positive integer, got ${page.pageSize}` },
      ]);
    }
    const start = page.pageToken ? configs.findIndex((c) => c.id === page.pageToken) : 0;
    if (start < 0) {
      throw invalidParams([
        {
          field: 'pageToken',
          description: "use the nextPageToken of a previous list of this task's configs",
        },
      ]);
    }
    return { configs: configs.slice(start, start + size), nextPageToken: configs[start + size]?.id ?? '' };
  }

  deletePushConfig(taskId: string, configId: string, ctx: CallContext): void {
    this.pushOrRefuse();
    const record = this.find(taskId, ctx);
    const config = record.pushConfigs.get(configId);
    if (!config) return;
    record.pushConfigs.delete(configId);
    this.options.push!.stop(config);
  }

  /** The task as it is now, whole, if the caller can see it. */
  currentTask(id: string, ctx: CallContext): Task | undefined {
    return this.options.store.get(id, ctx.scope)?.task;
  }

  /** The scenario a task plays, if the task is visible to the caller. */
  scenarioOfTask(id: string, ctx: CallContext): Scenario | undefined {
    const record = this.options.store.get(id, ctx.scope);
    return record && (this.runs.get(id)?.scenario ?? this.registry.get(record.scenarioId));
  }

  /** The scenario a message would play: its task's for a follow-up, else the one it matches. */
  scenarioFor(request: SendRequest, ctx: CallContext): Scenario | undefined {
    const { message } = request;
    if (message.taskId !== undefined) return this.scenarioOfTask(message.taskId, ctx);
    const selection = this.registry.select({
      text: textOf(message),
      messageId: message.messageId,
      metadata: { ...request.metadata, ...message.metadata },
    });
    return selection.kind === 'matched' ? selection.scenario : undefined;
  }

  private pushOrRefuse(): PushDelivery {
    if (!this.options.push) {
      throw new A2AError(
        'PushNotificationNotSupportedError',
        'Push notifications are turned off on this simulator (capabilities.pushNotifications is false).',
      );
    }
    return this.options.push;
  }

  private checkPushConfig(input: PushConfigInput): void {
    const push = this.pushOrRefuse();
    let url: URL | undefined;
    try {
      url = new URL(input.url);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw invalidParams([
        { field: 'url', description: `must be an absolute http(s) URL, got "${input.url}"` },
      ]);
    }
    push.checkUrl(input.url);
  }

  /** Stores a config on the task and starts delivering the events after `afterSeq` to it. */
  private attachPush(
    record: TaskRecord,
    input: PushConfigInput,
    afterSeq: number,
    ctx: CallContext,
  ): PushConfig {
    const { pushConfigs } = record;
    const replaces = input.id !== undefined && pushConfigs.has(input.id);
    if (!replaces && pushConfigs.size >= MAX_PUSH_CONFIGS_PER_TASK) {
      throw invalidParams([
        {
          field: 'url',
          description: `task ${record.id} already has ${MAX_PUSH_CONFIGS_PER_TASK} push configs; delete one first`,
        },
      ]);
    }
    const seed = this.runs.get(record.id)?.seed ?? record.id;
    const config: PushConfig = {
      ...input,
      id: input.id ?? new Random(`${seed}/push/${record.log.latestSeq}/${pushConfigs.size}`).uuid(),
      taskId: record.id,
      dialect: ctx.request?.version ?? '1.0',
    };
    const previous = pushConfigs.get(config.id);
    if (previous) this.options.push!.stop(previous);
    pushConfigs.set(config.id, config);
    this.options.push!.start(record, config, afterSeq, ctx);
    return config;
  }

  private checkCursor(record: TaskRecord, afterSeq: number): void {
    const { log, id } = record;
    record.log.expire(this.options.clock.now());
    const { latestSeq, oldestSeq } = log;
    const seqs = { taskId: id, afterSeq, oldestSeq, latestSeq };
    if (!Number.isInteger(afterSeq) || afterSeq < 0 || afterSeq > latestSeq) {
      throw invalidParams([
        {
          field: 'afterSeq',
          description: `must be an event seq of task ${id}, from 0 to its latest, ${latestSeq}; got ${afterSeq}`,
        },
      ]);
    }
    if (afterSeq + 1 < oldestSeq) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Failed to resume task ${id} after seq ${afterSeq}: events up to ${oldestSeq - 1} are no longer retained (retained: ${oldestSeq > latestSeq ? 'none' : `${oldestSeq}-${latestSeq}`}). Get the task with GetTask and subscribe without a cursor.`,
        { reason: 'EVENTS_EXPIRED', metadata: seqs },
      );
    }
    const state = record.status.state;
    if (afterSeq === latestSeq && isTerminal(state)) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Failed to resume task ${id} after seq ${afterSeq}: it is already ${state} and has no newer events.`,
        { metadata: seqs },
      );
    }
  }

  private find(id: string, ctx: CallContext): TaskRecord {
    const record = this.options.store.get(id, ctx.scope);
    if (!record) throw taskNotFound(id);
    if (ctx.request) ctx.request.taskId = id;
    return record;
  }

  /** Creates a task or continues one, and starts its turn. */
  private async start(
    request: SendRequest,
    ctx: CallContext,
  ): Promise<
    { kind: 'task'; record: TaskRecord; fromSeq: number } | { kind: 'reply'; message: Promise<Message> }
  > {
    const { message } = request;
    if (message.role !== 'user') {
      throw invalidParams([{ field: 'message.role', description: 'a client sends messages with role user' }]);
    }
    checkHistoryLength(request.configuration?.historyLength, 'configuration.historyLength');
    checkInputModes(message, this.options.inputModes);
    // Checked on every message, though only a message that creates a task attaches it.
    const push = request.configuration?.pushConfig;
    if (push) this.checkPushConfig(push);
    const metadata: JsonObject = { ...request.metadata, ...message.metadata };
    const accepted = request.configuration?.acceptedOutputModes;
    const turn = { metadata, ...(accepted && { acceptedOutputModes: accepted }) };
    if (message.taskId !== undefined) return this.resume(message, turn, ctx);
    const waiting =
      ctx.continueInContext && message.contextId !== undefined && this.waitingIn(message.contextId, ctx);
    if (waiting) return this.resume(merge(message, { taskId: waiting.id }), turn, ctx);

    const scenario = this.select({ text: textOf(message), messageId: message.messageId, metadata });
    checkOutputModes(scenario, accepted);
    if (scenario.usesFaker) await loadFaker();
    const clock = this.options.clock;
    const { seed, ids, taskId } = this.claimTaskSeed(scenario, message, ctx);
    const contextId = message.contextId ?? ids.uuid();

    if (scenario.script.kind !== 'steps') {
      const input = {
        ...turn,
        scenario,
        message,
        contextId,
        nowMs: clock.now(),
        streams: taskStreams(`${seed}/turn-1`),
      };
      if (scenario.script.kind === 'reply') {
        const reply = planReply(input);
        return { kind: 'reply', message: after(clock, reply.atMs, this.options.speed, reply.message) };
      }
      const answer = planError(input);
      await after(clock, answer.atMs, this.options.speed, undefined);
      throw new A2AError(answer.type, answer.message, { metadata: { scenario: scenario.id } });
    }

    const now = clock.now();
    const userMessage: Message = merge(message, { taskId, contextId });
    const task: Task = {
      id: taskId,
      contextId,
      status: { state: 'submitted', timestamp: new Date(now).toISOString() },
      artifacts: [],
      history: [userMessage],
    };
    const record = this.options.store.create(task, ctx.scope, scenario.id, now);
    if (ctx.request) ctx.request.taskId = taskId;
    const run = new TaskRun(record, scenario, seed, this.options);
    this.runs.set(taskId, run);
    // Before the turn plays: the webhook gets every event from the task's creation on.
    if (push) this.attachPush(record, push, 0, ctx);
    run.play(
      startTurn({
        ...turn,
        scenario,
        message: userMessage,
        taskId,
        contextId,
        nowMs: now,
        streams: run.nextTurnStreams(),
      }),
      now,
    );
    return { kind: 'task', record, fromSeq: 0 };
  }

  /** A follow-up message: continues the task's script where it paused, never re-matched. */
  private async resume(message: Message, turn: TurnOptions, ctx: CallContext) {
    const taskId = message.taskId!;
    const record = this.find(taskId, ctx);
    const { state } = record.status;
    if (isTerminal(state)) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Failed to continue task ${taskId}: it is already ${state}. To follow up, send a new message without taskId in context ${record.contextId}.`,
        { metadata: { taskId } },
      );
    }
    if (message.contextId !== undefined && message.contextId !== record.contextId) {
      throw invalidParams([
        {
          field: 'message.contextId',
          description: `task ${taskId} belongs to context ${record.contextId}, not ${message.contextId}`,
        },
      ]);
    }
    const run = this.runs.get(taskId);
    if (!run?.pause || run.cancelPending) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Failed to continue task ${taskId}: it is ${state}${run?.cancelPending ? ' and being canceled' : ''}, not waiting for input.`,
        { metadata: { taskId } },
      );
    }
    checkOutputModes(run.scenario, turn.acceptedOutputModes);
    if (run.scenario.usesFaker) await loadFaker();
    const now = this.options.clock.now();
    const userMessage: Message = merge(message, { taskId, contextId: record.contextId });
    const fromSeq = record.log.latestSeq;
    this.options.store.admit(messageBytes(userMessage));
    // The turn opens with the task as it is, the question included: a snapshot is a fresh copy.
    const snapshot = record.task;
    snapshot.history.push(userMessage);
    this.options.store.append(record, { kind: 'task', task: snapshot }, now);
    run.play(
      startTurn({
        ...turn,
        scenario: run.scenario,
        message: userMessage,
        taskId,
        contextId: record.contextId,
        nowMs: now,
        streams: run.nextTurnStreams(),
        resumeFrom: run.pause,
      }),
      now,
    );
    return { kind: 'task' as const, record, fromSeq };
  }

  /** The most recent task of `contextId` that waits for the user's input. */
  private waitingIn(contextId: string, ctx: CallContext): TaskRecord | undefined {
    return this.options.store.inContext(ctx.scope, contextId).findLast((record) => {
      const run = this.runs.get(record.id);
      return run?.pause !== undefined && !run.cancelPending;
    });
  }

  private select(input: MatchInput): Scenario {
    const selection = this.registry.select(input);
    switch (selection.kind) {
      case 'matched':
        return selection.scenario;
      case 'unknown-id':
        throw invalidParams([
          {
            field: 'message.metadata.scenario',
            description: `no scenario "${selection.id}" is loaded; loaded: ${this.registry
              .list()
              .map((s) => s.id)
              .join(', ')}`,
          },
        ]);
      case 'none':
        throw invalidParams([
          {
            field: 'message',
            description: 'no scenario matches this message and no fallback scenario is loaded',
          },
        ]);
    }
  }

  /**
   * A task's seed depends only on the root seed, the caller's scope, the scenario and what the
   * request says, so the same question gets the same answer in every run, whatever else runs
   * meanwhile (in other tenants and workspaces too). Asking the same question again gets the next
   * occurrence: counted, so the thousandth repeat costs what the first does. Returns the seed with
   * the task's id stream, which has drawn the task id.
   */
  private claimTaskSeed(
    scenario: Scenario,
    message: Message,
    ctx: CallContext,
  ): { seed: string; ids: Random; taskId: string } {
    const digest = createHash('sha256')
      .update(JSON.stringify([ctx.scope, message.contextId ?? '', message.parts]))
      .digest('base64url')
      .slice(0, 16);
    const base = `${this.options.seed}/${scenario.id}/${digest}`;
    // The count only saves work: forgetting it (to bound memory) falls back to probing the store.
    const counted = this.occurrences.get(base);
    this.occurrences.delete(base);
    if (this.occurrences.size >= MAX_REMEMBERED_REQUESTS) {
      this.occurrences.delete(this.occurrences.keys().next().value!);
    }
    for (let occurrence = counted ?? 0; ; occurrence++) {
      const seed = `${base}#${occurrence}`;
      const ids = new Random(seed).fork('task');
      const taskId = ids.uuid();
      if (!this.options.store.has(taskId)) {
        this.occurrences.set(base, occurrence + 1);
        return { seed, ids, taskId };
      }
    }
  }

  /**
   * The task as the caller asked to see it. `artifacts` is listed when there are some, or always
   * when `includeArtifacts` is set (ListTasks: never unless asked).
   */
  private view(
    task: Task,
    options: { historyLength?: number | undefined; includeArtifacts?: boolean },
  ): TaskView {
    const { historyLength, includeArtifacts } = options;
    // Field by field rather than from a rest spread: see lib/objects.ts.
    const view: TaskView = { id: task.id, contextId: task.contextId, status: task.status };
    if (task.metadata !== undefined) view.metadata = task.metadata;
    if (includeArtifacts ?? task.artifacts.length > 0) view.artifacts = task.artifacts;
    if (historyLength !== 0) {
      view.history = historyLength === undefined ? task.history : task.history.slice(-historyLength);
    }
    return view;
  }
}

/** What the request adds to a turn besides its message. */
type TurnOptions = Pick<TurnInput, 'metadata' | 'acceptedOutputModes'>;

/** Resolves once the turn that began after `fromSeq` ends: a terminal or interrupted status. */
function untilTurnEnds(record: TaskRecord, fromSeq: number): Promise<void> {
  return new Promise((resolve) => {
    let ended = false;
    const end = () => {
      ended = true;
      stop?.();
      resolve();
    };
    // The replay inside follow() may end the turn before follow() returns: stop is then unset.
    let stop: (() => void) | undefined;
    stop = record.log.follow(fromSeq, {
      onEvent: (logged: LoggedEvent) => {
        if (!ended && logged.event.kind === 'status' && isPaused(logged.event.status.state)) end();
      },
      onClose: end,
    });
    if (ended) stop();
  });
}

function after<T>(clock: Clock, atMs: number, speed: number, value: T): Promise<T> {
  const delay = speed === 0 ? 0 : atMs / speed;
  if (delay === 0) return Promise.resolve(value);
  return new Promise((resolve) => clock.setTimer(delay, () => resolve(value)));
}

function checkHistoryLength(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
    throw invalidParams([{ field, description: `must be a non-negative integer, got ${value}` }]);
  }
}
