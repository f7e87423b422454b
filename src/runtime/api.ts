/**
 * What the runtime offers and what it needs, as interfaces: the operations every binding calls
 * (the simulator, or the chaos layer in front of it), the call context they take, and the port a
 * webhook deliverer plugs into. Layers above talk to the runtime through these, never through the
 * concrete service class.
 */
import type {
  Artifact,
  ListTasksPage,
  ListTasksQuery,
  PushConfig,
  PushConfigInput,
  PushDialect,
  SendRequest,
  SendResult,
  Task,
  TaskStatus,
  TaskView,
  Message,
} from '../domain/types.js';
import type { Scope } from '../domain/scope.js';
import type { DelaySpec } from '../lib/delay.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioRegistry, Selection } from '../scenario/registry.js';
import type { TaskRecord } from '../store/task-store.js';
import type { TaskStream } from './stream.js';

/** Who is calling: tasks are visible only within the scope that created them (e.g. a tenant). */
export interface CallContext {
  scope: Scope;
  /**
   * A message with a `contextId` but no `taskId` continues that context's task waiting for input,
   * if there is one (the gateway dialect's follow-up); otherwise it starts a new task in the context.
   */
  continueInContext?: boolean;
  /** The A2A version of the binding's shapes: webhooks made on it receive the same. */
  version?: PushDialect;
  /** Who is calling, as far as the simulator can tell: what its verdicts are kept under. */
  client?: ClientIdentity;
  /** Headers of the call that a real agent behind the simulator should see (credentials, extensions). */
  upstreamHeaders?: Record<string, string>;
  /** The client's connection: when it closes, what the call still waits for upstream is abandoned. */
  connection?: { readonly signal: AbortSignal };
  /** How the webhooks this call creates misbehave (set by the chaos layer). */
  deliveryChaos?: DeliveryChaos;
  /**
   * The W3C trace headers (`traceparent`, `tracestate`) the webhooks this call creates carry on, so a
   * delivery joins the trace of the call that asked for it (set by the trace layer).
   */
  traceHeaders?: Readonly<Record<string, string>>;
  /** The scenario a message matched, once matched: a message is matched once per call. */
  matched?: { message: Message; selection: ScenarioSelection };
}

/** What a binding knows of a call before reading it: who the call is for. */
export type CallScope = Pick<CallContext, 'scope' | 'continueInContext'>;

/** A message's scenario, as the registry chose it. */
export type ScenarioSelection = Selection;

/**
 * A client told apart from the others: by its `X-Sim-Client` header, else its API key (a digest,
 * never the key), else its address and User-Agent.
 */
/** Shared by a client's calls (bindings/shared/context.ts): never changed once made. */
export interface ClientIdentity {
  readonly id: string;
  readonly by: 'header' | 'api-key' | 'address';
}

type Awaitable<T> = T | Promise<T>;

/** The operations, as the service that plays them offers them (calls/pipeline.ts `perform`). */
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

/** The operations, and what the chaos layer asks of the simulator behind it to choose its chaos. */
export interface TaskService extends A2AService {
  subscribe(id: string, ctx: CallContext, resume?: { afterSeq?: number }): TaskStream;
  /** The scenarios it plays now (replaced whole on reload, never changed in place). */
  readonly scenarios: ScenarioRegistry;
  /** The task as it is now, whole, if the caller can see it (a chaos quirk replays it). */
  currentTask(id: string, ctx: CallContext): Task | undefined;
  /** The scenario a message would play: its task's for a follow-up, else the one it matches. */
  scenarioFor(request: SendRequest, ctx: CallContext): Scenario | undefined;
  /** The scenario a task plays, if the task is visible to the caller. */
  scenarioOfTask(id: string, ctx: CallContext): Scenario | undefined;
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

/** How webhook deliveries misbehave: chaos decides it per call, the deliverer carries it out. */
export interface DeliveryChaos {
  /** Attempts of each delivery that fail before anything is sent. */
  failFirst: number;
  /** Chance that a delivery is made twice. */
  duplicate: number;
  /** Chance that a delivery is held back and made after the next one. */
  outOfOrder: number;
  delay?: DelaySpec;
}

/**
 * What a real agent answers, as the proxy relays it: one Message, a Task as it is, or a task's
 * events as its stream carries them (a SendMessage answer or a SubscribeToTask stream).
 */
export type UpstreamItem =
  | { kind: 'message'; message: Message }
  | { kind: 'task'; task: Task }
  | { kind: 'status'; taskId: string; contextId: string; status: TaskStatus }
  | {
      kind: 'artifact';
      taskId: string;
      contextId: string;
      artifact: Artifact;
      append: boolean;
      lastChunk: boolean;
    };

/** How one call to the real agent is made: the headers passed on, and when to give up. */
export interface UpstreamCall {
  /** Headers the client sent that the real agent should see (credentials, extensions). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * A real A2A agent, reached over whichever binding its card offers (src/upstream/). Every failure
 * to reach it, or to understand it, is an A2AError: InvalidAgentResponseError for what it said
 * wrong, or the A2A error it answered with.
 */
export interface UpstreamAgent {
  /** Where it is, for messages and records. */
  readonly url: string;
  /** Whether it streams; if not, a task in progress is followed by polling GetTask. */
  readonly streaming: boolean;
  /** Sends a message and yields the answer as it comes: a Message, or the task's events. */
  send(request: SendRequest, call: UpstreamCall): AsyncIterable<UpstreamItem>;
  /** Follows a task's events until it ends or pauses; starts with the Task as it is. */
  subscribe(taskId: string, call: UpstreamCall): AsyncIterable<UpstreamItem>;
  getTask(taskId: string, call: UpstreamCall): Promise<Task>;
  cancelTask(taskId: string, call: UpstreamCall): Promise<Task>;
  /** Throws, before anything is sent, when the call must not be made: it came back through a proxy loop. */
  checkCall?(call: UpstreamCall): void;
}
