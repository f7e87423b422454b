/**
 * The A2A operations as data: one union of what a call asks for, decoded by every binding from its
 * own wire, and what each one answers. Per-call layers switch on `name`; the runtime plays it.
 * Adding an operation is a member here, a line in {@link OPERATIONS}, its codecs, and the service
 * that plays it.
 */
import type {
  ListTasksPage,
  ListTasksQuery,
  PushConfig,
  PushConfigInput,
  SendRequest,
  SendResult,
  TaskView,
} from '../domain/types.js';
import type { PushConfigPage, PushConfigPageQuery } from '../runtime/api.js';
import type { WireStream } from './wire.js';

export type Operation =
  | { name: 'send'; request: SendRequest }
  | { name: 'stream'; request: SendRequest }
  /** `currentGeneration`: the v1.1 draft's long poll (§3.2.7), heeded with `--preview generation`. */
  | { name: 'get'; taskId: string; historyLength?: number; currentGeneration?: number }
  | { name: 'list'; query: ListTasksQuery }
  | { name: 'cancel'; taskId: string }
  /** `afterSeq`: the resume cursor (`Last-Event-ID`, v0.3 `afterSeq`), when the client sent one. */
  | { name: 'subscribe'; taskId: string; afterSeq?: number }
  | { name: 'create-push-config'; taskId: string; input: PushConfigInput }
  /** Without `configId`, the task's first config (v0.3 `tasks/pushNotificationConfig/get` by task id). */
  | { name: 'get-push-config'; taskId: string; configId?: string }
  | { name: 'list-push-configs'; taskId: string; page: PushConfigPageQuery }
  /** Idempotent: deleting a config that is not there succeeds. */
  | { name: 'delete-push-config'; taskId: string; configId: string };

export type OperationName = Operation['name'];

/** What each operation answers, streams as one connection sees them. */
export interface Answers {
  send: SendResult;
  stream: WireStream;
  get: TaskView;
  list: ListTasksPage;
  cancel: TaskView;
  subscribe: WireStream;
  'create-push-config': PushConfig;
  'get-push-config': PushConfig;
  'list-push-configs': PushConfigPage;
  'delete-push-config': void;
}

export type AnswerOf<O extends Operation> = Answers[O['name']];
export type Answer = Answers[OperationName];

/** How each binding names an operation; REST names it by its path, after the HTTP method. */
interface OperationNames {
  /** The JSON-RPC 1.0 method (also the gRPC method). */
  v1: string;
  /** The JSON-RPC 0.3 method; none where v0.3 has no such operation. */
  v03?: string;
  /** The HTTP+JSON path, ids as placeholders. */
  rest: string;
}

export const OPERATIONS: Readonly<Record<OperationName, OperationNames>> = Object.freeze({
  send: { v1: 'SendMessage', v03: 'message/send', rest: '/message:send' },
  stream: { v1: 'SendStreamingMessage', v03: 'message/stream', rest: '/message:stream' },
  get: { v1: 'GetTask', v03: 'tasks/get', rest: '/tasks/{id}' },
  list: { v1: 'ListTasks', rest: '/tasks' },
  cancel: { v1: 'CancelTask', v03: 'tasks/cancel', rest: '/tasks/{id}:cancel' },
  subscribe: { v1: 'SubscribeToTask', v03: 'tasks/resubscribe', rest: '/tasks/{id}:subscribe' },
  'create-push-config': {
    v1: 'CreateTaskPushNotificationConfig',
    v03: 'tasks/pushNotificationConfig/set',
    rest: '/tasks/{taskId}/pushNotificationConfigs',
  },
  'get-push-config': {
    v1: 'GetTaskPushNotificationConfig',
    v03: 'tasks/pushNotificationConfig/get',
    rest: '/tasks/{taskId}/pushNotificationConfigs/{id}',
  },
  'list-push-configs': {
    v1: 'ListTaskPushNotificationConfigs',
    v03: 'tasks/pushNotificationConfig/list',
    rest: '/tasks/{taskId}/pushNotificationConfigs',
  },
  'delete-push-config': {
    v1: 'DeleteTaskPushNotificationConfig',
    v03: 'tasks/pushNotificationConfig/delete',
    rest: '/tasks/{taskId}/pushNotificationConfigs/{id}',
  },
});

/** The task an operation names; for a message, the task it continues (if it names one). */
export function taskIdOf(operation: Operation): string | undefined {
  switch (operation.name) {
    case 'send':
    case 'stream':
      return operation.request.message.taskId;
    case 'list':
      return undefined;
    default:
      return operation.taskId;
  }
}

/** Whether an operation answers with a stream. */
export function isStreaming(
  operation: Operation,
): operation is Extract<Operation, { name: 'stream' | 'subscribe' }> {
  return operation.name === 'stream' || operation.name === 'subscribe';
}
