/**
 * SimService: the one API every binding calls. Bindings decode, call, and encode; every A2A rule
 * about tasks (§3 of the protocol digest: ids, blocking, history, listing, cancel, subscribe) is
 * enforced here, once, for every wire.
 */
import { A2AError, invalidParams, taskNotFound } from '../domain/errors.js';
import { isTerminal } from '../domain/lifecycle.js';
import { messageBytes } from '../domain/size.js';
import {
  metadataOf,
  type JsonObject,
  type ListTasksPage,
  type ListTasksQuery,
  type Message,
  type PushConfig,
  type PushConfigInput,
  type SendRequest,
  type SendResult,
  type Task,
  type TaskView,
} from '../domain/types.js';
import { planError, planReply, textOf } from '../engine/plan.js';
import type { Clock } from '../lib/clock.js';
import { loadFaker } from '../lib/fake-data.js';
import { isoTime } from '../lib/iso-time.js';
import { merge } from '../lib/objects.js';
import { taskStreams } from '../lib/random.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioRegistry } from '../scenario/registry.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type {
  CallContext,
  PushConfigPage,
  PushConfigPageQuery,
  PushDelivery,
  ScenarioSelection,
  TaskService,
} from './api.js';
import { checkCancelable, checkCursor, checkHistoryLength, checkPageSize } from './checks.js';
import { checkInputModes, checkOutputModes } from './modes.js';
import { PushConfigs } from './push-configs.js';
import type { SharedPlays, TaskPlayer } from './plays.js';
import type { TaskRun } from './runner.js';
import { TaskRuns, turnRequest, type TurnOptions } from './task-runs.js';
import { followTask, messageStream, untilTurnEnds, type TaskStream } from './stream.js';
import { selectedScenario, viewOf } from './views.js';
import { TaskSeeds } from './task-seeds.js';

export interface ServiceOptions {
  registry: ScenarioRegistry;
  store: TaskStore;
  clock: Clock;
  /** What templates see as now, for a clock time (lib/content-time.ts). */
  contentTime: (nowMs: number) => number;
  seed: string;
  speed: number;
  /** Media types accepted in message parts; `type/*` wildcards allowed. */
  inputModes: readonly string[];
  /** Whether a stream ends when its task pauses in auth-required (it always ends at input-required). */
  closeStreamOnAuthRequired: boolean;
  /** Webhook delivery; absent, push is off and every push call is PushNotificationNotSupportedError. */
  push?: PushDelivery;
  /** Present when replicas share the tasks (src/replica/). */
  plays?: SharedPlays;
}

export class SimService implements TaskService {
  private registry: ScenarioRegistry;
  private readonly runs: TaskRuns;
  private readonly seeds: TaskSeeds;
  private readonly pushConfigs: PushConfigs;

  constructor(private readonly options: ServiceOptions) {
    this.registry = options.registry;
    this.runs = new TaskRuns({ ...options, scenarioOf: (record) => this.registry.get(record.scenarioId) });
    this.seeds = new TaskSeeds(options.seed, (taskId) => options.store.has(taskId));
    this.pushConfigs = new PushConfigs(options, (record) => this.runs.seedOf(record));
  }

  /** Who plays this service's tasks, for the replica that hands tasks over (src/replica/). */
  get player(): TaskPlayer {
    return this.runs;
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
      return { kind: 'task', task: viewOf(record.task, { historyLength }) };
    await untilTurnEnds(record, fromSeq);
    return { kind: 'task', task: viewOf(record.task, { historyLength }) };
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
    return viewOf(this.find(id, ctx).task, { historyLength });
  }

  listTasks(query: ListTasksQuery, ctx: CallContext): ListTasksPage {
    checkHistoryLength(query.historyLength, 'historyLength');
    checkPageSize(query.pageSize);
    const page = this.options.store.list(ctx.scope, query);
    return {
      tasks: page.records.map((r) =>
        viewOf(r.task, {
          historyLength: query.historyLength,
          includeArtifacts: query.includeArtifacts ?? false,
        }),
      ),
      nextPageToken: page.nextPageToken,
      pageSize: page.pageSize,
      totalSize: page.totalSize,
    };
  }

  /**
   * CancelTask: accepted at once, effective after the scenario's cancel delay (0 by default). With
   * replicas, the one that plays the task carries it out.
   */
  cancelTask(id: string, ctx: CallContext): TaskView | Promise<TaskView> {
    const record = this.find(id, ctx);
    checkCancelable(id, record.status.state);
    const { plays } = this.options;
    if (!plays) {
      const run = this.runs.get(id);
      return this.cancel(record, run?.scenario, run);
    }
    return this.runs.claim(record).then((run) => {
      // Played by another replica: the cancel goes to it, checked against the same scenario.
      const view = this.cancel(record, run?.scenario ?? this.registry.get(record.scenarioId), run);
      plays.cancelRequested(id);
      return view;
    });
  }

  private cancel(record: TaskRecord, scenario: Scenario | undefined, run: TaskRun | undefined): TaskView {
    if (!scenario?.cancel.allowed) {
      throw new A2AError(
        'TaskNotCancelableError',
        `Failed to cancel task ${record.id}: scenario "${record.scenarioId}" does not allow cancel (cancel.allowed: false).`,
        { metadata: { taskId: record.id } },
      );
    }
    run?.requestCancel();
    return viewOf(record.task, {});
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
    checkCursor(record, afterSeq, this.options.clock.now());
    return followTask(record, { afterSeq, closeOnAuthRequired: this.options.closeStreamOnAuthRequired });
  }

  createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext): PushConfig {
    this.pushConfigs.check(input);
    const record = this.find(taskId, ctx);
    return this.pushConfigs.attach(record, input, record.log.latestSeq, ctx);
  }

  getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext): PushConfig {
    return this.pushConfigs.get(() => this.find(taskId, ctx), configId);
  }

  listPushConfigs(taskId: string, page: PushConfigPageQuery, ctx: CallContext): PushConfigPage {
    return this.pushConfigs.list(() => this.find(taskId, ctx), page);
  }

  deletePushConfig(taskId: string, configId: string, ctx: CallContext): void {
    this.pushConfigs.delete(() => this.find(taskId, ctx), configId);
  }

  /** Refuses a push config that may not be made (its URL, or push being off). */
  checkPushConfig(input: PushConfigInput): void {
    this.pushConfigs.check(input);
  }

  /** Attaches a webhook that gets the task's events after `afterSeq` (0: from its creation on). */
  attachPushConfig(
    record: TaskRecord,
    input: PushConfigInput,
    afterSeq: number,
    ctx: CallContext,
  ): PushConfig {
    return this.pushConfigs.attach(record, input, afterSeq, ctx);
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
    const selection = this.match(message, metadataOf(request), ctx);
    return selection.kind === 'matched' ? selection.scenario : undefined;
  }

  /**
   * The scenario a new task's message plays, matched once per call: chaos and the proxy may ask
   * before the message is played.
   */
  match(message: Message, metadata: JsonObject, ctx: CallContext): ScenarioSelection {
    if (ctx.matched?.message === message) return ctx.matched.selection;
    const selection = this.registry.select({ text: textOf(message), messageId: message.messageId, metadata });
    ctx.matched = { message, selection };
    return selection;
  }

  private find(id: string, ctx: CallContext): TaskRecord {
    const record = this.options.store.get(id, ctx.scope);
    if (!record) throw taskNotFound(id);
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
    if (push) this.pushConfigs.check(push);
    const metadata = metadataOf(request);
    const accepted = request.configuration?.acceptedOutputModes;
    const turn = { metadata, ...(accepted && { acceptedOutputModes: accepted }) };
    if (message.taskId !== undefined) return this.resume(message, turn, ctx);
    const waiting =
      ctx.continueInContext && message.contextId !== undefined && this.waitingIn(message.contextId, ctx);
    if (waiting) return this.resume(merge(message, { taskId: waiting.id }), turn, ctx);

    const scenario = selectedScenario(this.match(message, metadata, ctx), this.registry);
    checkOutputModes(scenario, accepted);
    if (scenario.usesFaker) await loadFaker();
    const clock = this.options.clock;
    const { plays } = this.options;
    const { seed, ids, taskId } = plays
      ? await this.seeds.claimShared(scenario.id, message, ctx.scope, (base) => plays.nextOccurrence(base))
      : this.seeds.claim(scenario.id, message, ctx.scope);
    const contextId = message.contextId ?? ids.uuid();

    if (scenario.script.kind !== 'steps') {
      const input = {
        scenario,
        message,
        contextId,
        nowMs: this.options.contentTime(clock.now()),
        streams: taskStreams(`${seed}/turn-1`),
        metadata,
        ...(accepted && { acceptedOutputModes: accepted }),
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
      status: { state: 'submitted', timestamp: isoTime(now) },
      artifacts: [],
      history: [userMessage],
    };
    const record = this.options.store.create(task, ctx.scope, scenario.id, now, push);
    // Before the turn plays: the webhook gets every event from the task's creation on.
    if (push) this.pushConfigs.attach(record, push, 0, ctx);
    this.runs.begin(record, scenario, seed, turnRequest(turn, userMessage, now));
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
    const run = await this.runs.claim(record);
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
    this.options.store.admit(messageBytes(userMessage), record.scope);
    // The turn opens with the task as it is, the question included: a snapshot is a fresh copy.
    const snapshot = record.task;
    snapshot.history.push(userMessage);
    this.options.store.append(record, { kind: 'task', task: snapshot }, now);
    this.runs.playTurn(run, turnRequest(turn, userMessage, now));
    return { kind: 'task' as const, record, fromSeq };
  }

  /** The most recent task of `contextId` that waits for the user's input. */
  private waitingIn(contextId: string, ctx: CallContext): TaskRecord | undefined {
    return this.options.store
      .inContext(ctx.scope, contextId)
      .findLast((record) => this.runs.waitingAt(record.id));
  }
}

function after<T>(clock: Clock, atMs: number, speed: number, value: T): Promise<T> {
  const delay = speed === 0 ? 0 : atMs / speed;
  if (delay === 0) return Promise.resolve(value);
  return new Promise((resolve) => clock.setTimer(delay, () => resolve(value)));
}
