/**
 * The A2A v1.0 JSON-RPC dialect (§2): PascalCase method names, ProtoJSON params and results.
 * SendMessage wraps its result (`{"task"}` / `{"message"}`); GetTask and CancelTask answer a bare Task;
 * DeleteTaskPushNotificationConfig answers `null`, as the SDK server does.
 */
import { A2AError } from '../../domain/errors.js';
import type { JsonRpcDialect, MethodHandler } from '../shared/jsonrpc-endpoint.js';
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
import { field } from '../shared/wire-reader.js';
import { encodedOnce, rpcResultFrame } from '../shared/frames.js';
import { toRpcError } from './errors.js';

/** `params.tenant` scopes the call, as the `/{tenant}` path prefix does on REST. */
function tenantOf(params: unknown): string | undefined {
  const tenant =
    params !== null && typeof params === 'object'
      ? field(params as Record<string, unknown>, 'tenant')
      : undefined;
  return typeof tenant === 'string' ? tenant : undefined;
}

/** One encoding per logged event for all the streams that carry it. */
const STREAM_RESULTS = encodedOnce(toWireStreamResponse);

export const JSONRPC_V1: JsonRpcDialect = {
  version: '1.0',
  binding: 'JSON-RPC 1.0',
  toError: toRpcError,
  streamEncoding: (id) => ({
    frame: rpcResultFrame(id, STREAM_RESULTS),
    errorFrame: (error) => ({ data: toRpcError(id, error) }),
  }),
  methods: new Map<string, MethodHandler>([
    [
      'SendMessage',
      async (params, _context, serve) => {
        const result = await serve({ name: 'send', request: fromWireSendRequest(params) }, tenantOf(params));
        return result.kind === 'task'
          ? { kind: 'result', result: { task: toWireTask(result.task) }, about: result.task.id }
          : { kind: 'result', result: { message: toWireMessage(result.message) } };
      },
    ],
    [
      'SendStreamingMessage',
      async (params, _context, serve) => ({
        kind: 'stream',
        stream: await serve({ name: 'stream', request: fromWireSendRequest(params) }, tenantOf(params)),
      }),
    ],
    [
      'GetTask',
      async (params, _context, serve) => {
        const { id, historyLength, currentGeneration } = fromWireTaskIdRequest(params);
        const operation = {
          name: 'get',
          taskId: id,
          ...(historyLength !== undefined && { historyLength }),
          ...(currentGeneration !== undefined && { currentGeneration }),
        } as const;
        return { kind: 'result', result: toWireTask(await serve(operation, tenantOf(params))) };
      },
    ],
    [
      'ListTasks',
      async (params, _context, serve) => {
        const page = await serve({ name: 'list', query: fromWireListTasksRequest(params) }, tenantOf(params));
        return { kind: 'result', result: { ...page, tasks: page.tasks.map(toWireTask) } };
      },
    ],
    [
      'CancelTask',
      async (params, _context, serve) => {
        const { id } = fromWireTaskIdRequest(params);
        return {
          kind: 'result',
          result: toWireTask(await serve({ name: 'cancel', taskId: id }, tenantOf(params))),
        };
      },
    ],
    [
      'SubscribeToTask',
      async (params, _context, serve, req) => {
        const afterSeq = lastEventId(req);
        const { id } = fromWireTaskIdRequest(params);
        const operation = {
          name: 'subscribe',
          taskId: id,
          ...(afterSeq !== undefined && { afterSeq }),
        } as const;
        return { kind: 'stream', stream: await serve(operation, tenantOf(params)) };
      },
    ],
    [
      'CreateTaskPushNotificationConfig',
      async (params, _context, serve) => {
        const { taskId, config } = fromWirePushConfig(params);
        const tenant = tenantOf(params);
        const created = await serve({ name: 'create-push-config', taskId, input: config }, tenant);
        return { kind: 'result', result: toWirePushConfig(created, tenant) };
      },
    ],
    [
      'GetTaskPushNotificationConfig',
      async (params, _context, serve) => {
        const { taskId, id } = fromWirePushConfigIdRequest(params);
        const tenant = tenantOf(params);
        const config = await serve({ name: 'get-push-config', taskId, configId: id }, tenant);
        return { kind: 'result', result: toWirePushConfig(config, tenant) };
      },
    ],
    [
      'ListTaskPushNotificationConfigs',
      async (params, _context, serve) => {
        const { taskId, page } = fromWireListPushConfigsRequest(params);
        const tenant = tenantOf(params);
        const configs = await serve({ name: 'list-push-configs', taskId, page }, tenant);
        return { kind: 'result', result: toWirePushConfigPage(configs, tenant) };
      },
    ],
    [
      'DeleteTaskPushNotificationConfig',
      async (params, _context, serve) => {
        const { taskId, id } = fromWirePushConfigIdRequest(params);
        await serve({ name: 'delete-push-config', taskId, configId: id }, tenantOf(params));
        return { kind: 'result', result: null };
      },
    ],
    [
      'GetExtendedAgentCard',
      (_params, { cards }, _call, req) => {
        if (!cards.extendedCardEnabled) {
          throw new A2AError(
            'UnsupportedOperationError',
            'This agent does not offer an extended agent card.',
          );
        }
        return {
          kind: 'result',
          result: cards.published(cards.v1(cards.baseUrl(req), true), cards.baseUrl(req)),
        };
      },
    ],
  ]),
};
