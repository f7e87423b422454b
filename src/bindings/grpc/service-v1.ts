/**
 * A2A v1.0 over gRPC (§10): the `lf.a2a.v1.A2AService` methods. Each decodes its request with the
 * v1.0 codec (the request is ProtoJSON by then: protos.ts), serves the operation through the agent's
 * pipeline, and encodes the answer back; the tenant is the request's `tenant` field.
 */
import type { Metadata, UntypedServiceImplementation } from '@grpc/grpc-js';
import { A2AError } from '../../domain/errors.js';
import { OPERATIONS } from '../../calls/operations.js';
import { lastEventId } from '../shared/http.js';
import {
  fromWireListPushConfigsRequest,
  fromWireListTasksRequest,
  fromWirePushConfig,
  fromWirePushConfigIdRequest,
  fromWireSendRequest,
  fromWireTaskIdRequest,
  toWireMessage,
  toWirePushConfig,
  toWirePushConfigPage,
  toWireStreamResponse,
  toWireTask,
} from '../v1/codec.js';
import { streamingCall, unaryCall, type CallScope, type GrpcRouting } from './call.js';
import { fromProtoJson } from './protos.js';
import { pipeToGrpc } from './stream.js';

export const SERVICE_V1 = 'lf.a2a.v1.A2AService';
const PACKAGE = 'lf.a2a.v1';
const SERVICE = { binding: 'gRPC', version: '1.0' } as const;

const out = (type: string, json: Record<string, unknown>) => fromProtoJson(`${PACKAGE}.${type}`, json);

function tenantOf(request: Record<string, unknown>): string | undefined {
  const tenant = request['tenant'];
  return typeof tenant === 'string' && tenant !== '' ? tenant : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The task a request names, before it is decoded: for a message, the task it continues. */
function namedTask(request: Record<string, unknown>): string | undefined {
  const message = request['message'];
  if (message !== null && typeof message === 'object') {
    return nonEmpty((message as Record<string, unknown>)['taskId']);
  }
  return nonEmpty(request['taskId']) ?? nonEmpty(request['id']);
}

/** The reading common to the methods that name an operation. */
function reading(scope: CallScope, kind: keyof typeof OPERATIONS) {
  const tenant = tenantOf(scope.request);
  const taskId = namedTask(scope.request);
  return scope.read({
    kind,
    ...(tenant !== undefined && { tenant }),
    ...(taskId !== undefined && { taskId }),
  });
}

export function serviceV1(routing: GrpcRouting): UntypedServiceImplementation {
  const setup = (method: string, request: string) => ({
    service: SERVICE,
    method,
    requestType: `${PACKAGE}.${request}`,
  });
  const encodeStream = (item: Parameters<typeof toWireStreamResponse>[0]) =>
    out('StreamResponse', toWireStreamResponse(item));

  return {
    SendMessage: unaryCall(routing, setup('SendMessage', 'SendMessageRequest'), async (scope) => {
      const serve = reading(scope, 'send');
      const result = await serve({ name: 'send', request: fromWireSendRequest(scope.request) });
      if (result.kind === 'task') {
        scope.exchange.about(result.task.id);
        return out('SendMessageResponse', { task: toWireTask(result.task) });
      }
      return out('SendMessageResponse', { message: toWireMessage(result.message) });
    }),
    SendStreamingMessage: streamingCall(
      routing,
      setup('SendStreamingMessage', 'SendMessageRequest'),
      async (call, scope, complete) => {
        const serve = reading(scope, 'stream');
        const stream = await serve({ name: 'stream', request: fromWireSendRequest(scope.request) });
        if (stream.taskId !== undefined) scope.exchange.about(stream.taskId);
        pipeToGrpc(call, stream, { ...streamOptions(scope, complete), encode: encodeStream });
      },
    ),
    GetTask: unaryCall(routing, setup('GetTask', 'GetTaskRequest'), async (scope) => {
      const serve = reading(scope, 'get');
      const { id, historyLength, currentGeneration } = fromWireTaskIdRequest(scope.request);
      const task = await serve({
        name: 'get',
        taskId: id,
        ...(historyLength !== undefined && { historyLength }),
        ...(currentGeneration !== undefined && { currentGeneration }),
      });
      return out('Task', toWireTask(task));
    }),
    ListTasks: unaryCall(routing, setup('ListTasks', 'ListTasksRequest'), async (scope) => {
      const serve = reading(scope, 'list');
      const page = await serve({ name: 'list', query: fromWireListTasksRequest(scope.request) });
      return out('ListTasksResponse', { ...page, tasks: page.tasks.map(toWireTask) });
    }),
    CancelTask: unaryCall(routing, setup('CancelTask', 'CancelTaskRequest'), async (scope) => {
      const serve = reading(scope, 'cancel');
      const { id } = fromWireTaskIdRequest(scope.request);
      return out('Task', toWireTask(await serve({ name: 'cancel', taskId: id })));
    }),
    SubscribeToTask: streamingCall(
      routing,
      setup('SubscribeToTask', 'SubscribeToTaskRequest'),
      async (call, scope, complete) => {
        const serve = reading(scope, 'subscribe');
        // The resume cursor, as on SSE: the seq of the last event the client saw.
        const afterSeq = lastEventId(scope);
        const { id } = fromWireTaskIdRequest(scope.request);
        const stream = await serve({
          name: 'subscribe',
          taskId: id,
          ...(afterSeq !== undefined && { afterSeq }),
        });
        pipeToGrpc(call, stream, { ...streamOptions(scope, complete), encode: encodeStream });
      },
    ),
    CreateTaskPushNotificationConfig: unaryCall(
      routing,
      setup('CreateTaskPushNotificationConfig', 'TaskPushNotificationConfig'),
      async (scope) => {
        const serve = reading(scope, 'create-push-config');
        const { taskId, config } = fromWirePushConfig(scope.request);
        const created = await serve({ name: 'create-push-config', taskId, input: config });
        return out('TaskPushNotificationConfig', toWirePushConfig(created, tenantOf(scope.request)));
      },
    ),
    GetTaskPushNotificationConfig: unaryCall(
      routing,
      setup('GetTaskPushNotificationConfig', 'GetTaskPushNotificationConfigRequest'),
      async (scope) => {
        const serve = reading(scope, 'get-push-config');
        const { taskId, id } = fromWirePushConfigIdRequest(scope.request);
        const config = await serve({ name: 'get-push-config', taskId, configId: id });
        return out('TaskPushNotificationConfig', toWirePushConfig(config, tenantOf(scope.request)));
      },
    ),
    ListTaskPushNotificationConfigs: unaryCall(
      routing,
      setup('ListTaskPushNotificationConfigs', 'ListTaskPushNotificationConfigsRequest'),
      async (scope) => {
        const serve = reading(scope, 'list-push-configs');
        const { taskId, page } = fromWireListPushConfigsRequest(scope.request);
        const configs = await serve({ name: 'list-push-configs', taskId, page });
        return out(
          'ListTaskPushNotificationConfigsResponse',
          toWirePushConfigPage(configs, tenantOf(scope.request)),
        );
      },
    ),
    DeleteTaskPushNotificationConfig: unaryCall(
      routing,
      setup('DeleteTaskPushNotificationConfig', 'DeleteTaskPushNotificationConfigRequest'),
      async (scope) => {
        const serve = reading(scope, 'delete-push-config');
        const { taskId, id } = fromWirePushConfigIdRequest(scope.request);
        await serve({ name: 'delete-push-config', taskId, configId: id });
        return {};
      },
    ),
    GetExtendedAgentCard: unaryCall(
      routing,
      setup('GetExtendedAgentCard', 'GetExtendedAgentCardRequest'),
      (scope) => {
        const tenant = tenantOf(scope.request);
        scope.read({ ...(tenant !== undefined && { tenant }) });
        const { cards } = scope.context;
        if (!cards.extendedCardEnabled) {
          throw new A2AError(
            'UnsupportedOperationError',
            'This agent does not offer an extended agent card.',
          );
        }
        return Promise.resolve(out('AgentCard', cards.v1(cards.grpcBaseUrl(), true)));
      },
    ),
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
    errorCodes: scope.context.errorCodes,
    complete,
  };
}
