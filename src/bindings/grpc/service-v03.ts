/**
 * A2A v0.3 over gRPC (§3.2.2): the `a2a.v1.A2AService` methods of the v0.3 proto. The request is
 * ProtoJSON by then (protos.ts), the same ProtoJSON v0.3 HTTP+JSON bodies are, so the same codec
 * reads and writes it; tasks and configs are named by resource names (`tasks/{id}`,
 * `tasks/{id}/pushNotificationConfigs/{configId}`). v0.3 has no tenants and no task listing.
 *
 * @note Statuses follow the current error table whatever the agent's `--error-codes`: the profiles
 * are editions of v1.0's table, and the SDK's v0.3 gRPC server maps errors with the current one, as
 * the v0.3 HTTP+JSON binding does.
 */
import type { Metadata, UntypedServiceImplementation } from '@grpc/grpc-js';
import { A2AError } from '../../domain/errors.js';
import { DEFAULT_ERROR_CODES } from '../../domain/error-codes.js';
import type { OPERATIONS } from '../../calls/operations.js';
import { lastEventId } from '../shared/http.js';
import {
  fromProtoCreatePushConfigRequest,
  fromProtoGetTaskRequest,
  fromProtoPushConfigName,
  fromProtoSendRequest,
  fromProtoTaskName,
  toProtoMessage,
  toProtoPushConfig,
  toProtoStreamResponse,
  toProtoTask,
} from '../v03/proto-codec.js';
import { streamingCall, unaryCall, type CallScope, type GrpcRouting, type GrpcService } from './call.js';
import { fromProtoJson } from './protos.js';
import { pipeToGrpc } from './stream.js';

export const SERVICE_V03 = 'a2a.v1.A2AService';
const PACKAGE = 'a2a.v1';
const SERVICE: GrpcService = { binding: 'gRPC 0.3', version: '0.3', errorCodes: DEFAULT_ERROR_CODES };

const out = (type: string, json: Record<string, unknown>) => fromProtoJson(`${PACKAGE}.${type}`, json);

/**
 * The task a request names, before it is decoded, so a request refused while it is still counts
 * for that task: a message's task, or the task of a resource name.
 */
function namedTask(request: Record<string, unknown>): string | undefined {
  const message = request['message'];
  if (message !== null && typeof message === 'object') {
    const taskId = (message as Record<string, unknown>)['taskId'];
    return typeof taskId === 'string' && taskId !== '' ? taskId : undefined;
  }
  const name = request['name'] ?? request['parent'];
  return typeof name === 'string' ? /^tasks\/([^/]+)/.exec(name)?.[1] : undefined;
}

function reading(scope: CallScope, kind: keyof typeof OPERATIONS) {
  const taskId = namedTask(scope.request);
  return scope.read({ kind, ...(taskId !== undefined && { taskId }) });
}

export function serviceV03(routing: GrpcRouting): UntypedServiceImplementation {
  const setup = (method: string, request: string) => ({
    service: SERVICE,
    method,
    requestType: `${PACKAGE}.${request}`,
  });
  const encodeStream = (item: Parameters<typeof toProtoStreamResponse>[0]) =>
    out('StreamResponse', toProtoStreamResponse(item));

  return {
    SendMessage: unaryCall(routing, setup('SendMessage', 'SendMessageRequest'), async (scope) => {
      const serve = reading(scope, 'send');
      const result = await serve({ name: 'send', request: fromProtoSendRequest(scope.request) });
      if (result.kind === 'task') {
        scope.exchange.about(result.task.id);
        return out('SendMessageResponse', { task: toProtoTask(result.task) });
      }
      return out('SendMessageResponse', { message: toProtoMessage(result.message) });
    }),
    SendStreamingMessage: streamingCall(
      routing,
      setup('SendStreamingMessage', 'SendMessageRequest'),
      async (call, scope, complete) => {
        const serve = reading(scope, 'stream');
        const stream = await serve({ name: 'stream', request: fromProtoSendRequest(scope.request) });
        if (stream.taskId !== undefined) scope.exchange.about(stream.taskId);
        pipeToGrpc(call, stream, { ...streamOptions(scope, complete), encode: encodeStream });
      },
    ),
    GetTask: unaryCall(routing, setup('GetTask', 'GetTaskRequest'), async (scope) => {
      const serve = reading(scope, 'get');
      const { id, historyLength } = fromProtoGetTaskRequest(scope.request);
      const task = await serve({
        name: 'get',
        taskId: id,
        ...(historyLength !== undefined && { historyLength }),
      });
      return out('Task', toProtoTask(task));
    }),
    CancelTask: unaryCall(routing, setup('CancelTask', 'CancelTaskRequest'), async (scope) => {
      const serve = reading(scope, 'cancel');
      const taskId = fromProtoTaskName(scope.request, 'name');
      return out('Task', toProtoTask(await serve({ name: 'cancel', taskId })));
    }),
    TaskSubscription: streamingCall(
      routing,
      setup('TaskSubscription', 'TaskSubscriptionRequest'),
      async (call, scope, complete) => {
        const serve = reading(scope, 'subscribe');
        // The resume cursor, as on v0.3 HTTP+JSON: the seq of the last event the client saw.
        const afterSeq = lastEventId(scope);
        const taskId = fromProtoTaskName(scope.request, 'name');
        const stream = await serve({
          name: 'subscribe',
          taskId,
          ...(afterSeq !== undefined && { afterSeq }),
        });
        pipeToGrpc(call, stream, { ...streamOptions(scope, complete), encode: encodeStream });
      },
    ),
    CreateTaskPushNotificationConfig: unaryCall(
      routing,
      setup('CreateTaskPushNotificationConfig', 'CreateTaskPushNotificationConfigRequest'),
      async (scope) => {
        const serve = reading(scope, 'create-push-config');
        const { taskId, input } = fromProtoCreatePushConfigRequest(scope.request);
        const created = await serve({ name: 'create-push-config', taskId, input });
        return out('TaskPushNotificationConfig', toProtoPushConfig(created));
      },
    ),
    GetTaskPushNotificationConfig: unaryCall(
      routing,
      setup('GetTaskPushNotificationConfig', 'GetTaskPushNotificationConfigRequest'),
      async (scope) => {
        const serve = reading(scope, 'get-push-config');
        const { taskId, configId } = fromProtoPushConfigName(scope.request);
        const config = await serve({ name: 'get-push-config', taskId, configId });
        return out('TaskPushNotificationConfig', toProtoPushConfig(config));
      },
    ),
    ListTaskPushNotificationConfig: unaryCall(
      routing,
      setup('ListTaskPushNotificationConfig', 'ListTaskPushNotificationConfigRequest'),
      async (scope) => {
        const serve = reading(scope, 'list-push-configs');
        const taskId = fromProtoTaskName(scope.request, 'parent');
        // v0.3 pages nothing: every config (the proto's page fields are "usually not used").
        const { configs } = await serve({ name: 'list-push-configs', taskId, page: {} });
        return out('ListTaskPushNotificationConfigResponse', { configs: configs.map(toProtoPushConfig) });
      },
    ),
    DeleteTaskPushNotificationConfig: unaryCall(
      routing,
      setup('DeleteTaskPushNotificationConfig', 'DeleteTaskPushNotificationConfigRequest'),
      async (scope) => {
        const serve = reading(scope, 'delete-push-config');
        const { taskId, configId } = fromProtoPushConfigName(scope.request);
        await serve({ name: 'delete-push-config', taskId, configId });
        return {};
      },
    ),
    // `agent/getAuthenticatedExtendedCard` over gRPC (§3.5.6), as `GET /v1/card` is over HTTP+JSON.
    GetAgentCard: unaryCall(routing, setup('GetAgentCard', 'GetAgentCardRequest'), (scope) => {
      scope.read({});
      const { cards } = scope.context;
      if (!cards.extendedCardEnabled) {
        throw new A2AError(
          'ExtendedAgentCardNotConfiguredError',
          'Authenticated Extended Card not configured: this agent has none (supportsAuthenticatedExtendedCard is false).',
        );
      }
      return Promise.resolve(out('AgentCard', cards.v03Proto(cards.grpcBaseUrl(), true)));
    }),
  };
}

function streamOptions(
  scope: CallScope & { responseMetadata: Metadata },
  complete: (status: number, answered: boolean) => void,
) {
  return {
    exchange: scope.exchange,
    responseMetadata: scope.responseMetadata,
    report: scope.context.report,
    errorCodes: DEFAULT_ERROR_CODES,
    complete,
  };
}
