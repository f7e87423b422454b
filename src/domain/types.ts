/**
 * The simulator's own model of A2A. Wire-neutral: states are short literals, parts are tagged by
 * `kind`. Only codecs know ProtoJSON member names or v0.3 shapes, and `TASK_STATE_*` lives in one
 * table beside this file (wire-states.ts).
 *
 * Values of these types are never mutated once built: the store replaces a task instead of editing
 * it, so a snapshot handed to a stream or kept in the event log stays true to its moment.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export const TASK_STATES = Object.freeze([
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
] as const);

/** The eight lifecycle states, plus `unknown` for a state a peer sent that we cannot name. */
export type TaskState = (typeof TASK_STATES)[number] | 'unknown';

export type Role = 'user' | 'agent';

interface PartCommon {
  metadata?: JsonObject;
  mediaType?: string;
  filename?: string;
}

export type Part =
  | (PartCommon & { kind: 'text'; text: string })
  /** File content, base64-encoded. */
  | (PartCommon & { kind: 'bytes'; bytes: string })
  | (PartCommon & { kind: 'url'; url: string })
  | (PartCommon & { kind: 'data'; data: JsonValue });

export interface Message {
  messageId: string;
  role: Role;
  parts: Part[];
  contextId?: string;
  taskId?: string;
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: JsonObject;
  extensions?: string[];
}

export interface TaskStatus {
  state: TaskState;
  message?: Message;
  /** ISO 8601 UTC with milliseconds and a `Z`. */
  timestamp: string;
}

export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts: Artifact[];
  history: Message[];
  metadata?: JsonObject;
  /**
   * v1.1 draft (§3.2.7), only with `--preview generation`: 1 when the task is created, +1 per status
   * or artifact event. Absent otherwise, so a 1.0 answer stays byte for byte what it was.
   */
  generation?: number;
}

/** A task as a caller sees it: `history` and `artifacts` are left out when the caller asked so. */
export type TaskView = Omit<Task, 'artifacts' | 'history'> & { artifacts?: Artifact[]; history?: Message[] };

/**
 * What happens to a task, in the order it happens. `task` carries a full snapshot: it opens the log
 * when the task is created and opens every later turn when a follow-up message arrives, so each
 * turn's stream begins with a Task (§3.1.2).
 */
export type TaskEvent =
  | { kind: 'task'; task: Task }
  | { kind: 'status'; status: TaskStatus }
  | { kind: 'artifact'; artifact: Artifact; append: boolean; lastChunk: boolean };

/** A task event as recorded in the task's log. `seq` is per task: 1, 2, ... across all turns. */
export interface LoggedEvent {
  seq: number;
  taskId: string;
  contextId: string;
  /** Clock time at which the event happened, in epoch milliseconds. */
  atMs: number;
  event: TaskEvent;
  /** The task's generation after this event (see {@link Task.generation}); absent when not kept. */
  generation?: number;
}

/** Send options common to every binding (v1.0 names; v0.3 `blocking` is inverted by its codec). */
export interface SendConfiguration {
  acceptedOutputModes?: string[];
  historyLength?: number;
  returnImmediately?: boolean;
  /** A webhook for the task this message creates (v1.0 `taskPushNotificationConfig`). */
  pushConfig?: PushConfigInput;
  /** v1.1 draft (§3.2.2): a follow-up is refused unless the task's generation is this one. */
  ifGenerationMatch?: number;
}

/** Where a webhook delivery goes and how it authenticates (§5). */
export interface PushConfigInput {
  /** The client's id for it; the server makes one when absent. */
  id?: string;
  url: string;
  /** Sent back in `X-A2A-Notification-Token`, so the receiver can check the delivery is for it. */
  token?: string;
  /** Sent as `Authorization: <scheme> <credentials>`. */
  authentication?: { scheme: string; credentials?: string };
}

/** The A2A version whose shapes a webhook receives: that of the binding the config was made on. */
export type PushDialect = '1.0' | '0.3';

export interface PushConfig extends PushConfigInput {
  id: string;
  taskId: string;
  dialect: PushDialect;
}

export interface SendRequest {
  message: Message;
  configuration?: SendConfiguration;
  metadata?: JsonObject;
}

/**
 * The request's metadata with the message's over it: what a scenario matches and a turn plays with.
 * Spread, as JSON is copied (a `__proto__` key stays a key), and from one object where there is
 * one: a spread and then keys the first did not have give each call's object a hidden class of
 * its own (Node 20), which only a request with both, each with keys of its own, pays.
 */
export function metadataOf(request: SendRequest): JsonObject {
  const own = request.message.metadata;
  if (request.metadata === undefined) return { ...own };
  return own === undefined ? { ...request.metadata } : { ...request.metadata, ...own };
}

export type SendResult = { kind: 'task'; task: TaskView } | { kind: 'message'; message: Message };

export interface ListTasksQuery {
  contextId?: string;
  status?: TaskState;
  /** Epoch milliseconds; tasks whose status timestamp is at or after it. */
  statusTimestampAfter?: number;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  includeArtifacts?: boolean;
}

export interface ListTasksPage {
  tasks: TaskView[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}
