/**
 * The A2A v0.3 JSON-RPC dialect (§2): slash-named methods, `kind`-tagged params and results.
 * `message/send` answers the bare Task or Message; stream frames carry bare `kind` objects, with
 * `final: true` on the status that ends the stream. Push configs travel as
 * `{taskId, pushNotificationConfig}`; `…/list` answers a bare array, `…/delete` null. v0.3 has no
 * `tasks/list` (-32601), and `tasks/resubscribe` always answers with an event stream, failures
 * included, as the SDK server does.
 *
 * @example
 * {"jsonrpc":"2.0","id":1,"method":"tasks/resubscribe","params":{"taskId":"t1","afterSeq":3}}
 */
import { A2AError } from '../../domain/errors.js';
import { lastEventId } from '../shared/http.js';
import type { JsonRpcDialect, MethodHandler } from '../shared/jsonrpc-endpoint.js';
import { fromWireTaskIdRequest } from '../v1/codec.js';
import {
  fromWirePushConfigIdRequest,
  fromWireSubscribeRequest,
  fromWireSendRequest,
  fromWirePushConfig,
  toWireMessage,
  toWirePushConfig,
  toWireStreamResponse,
  toWireTask,
} from './codec.js';
import { encodedOnce, rpcResultFrame } from '../shared/frames.js';
import { toRpcError } from './errors.js';

/** One encoding per logged event for all the streams that carry it. */
const STREAM_RESULTS = encodedOnce(toWireStreamResponse);

export const JSONRPC_V03: JsonRpcDialect = {
  version: '0.3',
  binding: 'JSON-RPC 0.3',
  toError: toRpcError,
  // `tasks/list` is answered as the v0.3 method it looks like (-32601), not as an unknown v1.0 one.
  methodPattern: /^[a-z]+(\/[A-Za-z]+)+$/,
  alwaysStreams: new Set(['tasks/resubscribe']),
  streamEncoding: (id) => ({
    frame: rpcResultFrame(id, STREAM_RESULTS),
    errorFrame: (error) => ({ data: toRpcError(id, error) }),
  }),
  methods: new Map<string, MethodHandler>([
    [
      'message/send',
      async (params, _context, serve) => {
        const result = await serve({ name: 'send', request: fromWireSendRequest(params) });
        return result.kind === 'task'
          ? { kind: 'result', result: toWireTask(result.task), about: result.task.id }
          : { kind: 'result', result: toWireMessage(result.message) };
      },
    ],
    [
      'message/stream',
      async (params, _context, serve) => ({
        kind: 'stream',
        stream: await serve({ name: 'stream', request: fromWireSendRequest(params) }),
      }),
    ],
    [
      'tasks/get',
      async (params, _context, serve) => {
        const { id, historyLength } = fromWireTaskIdRequest(params);
        const operation = {
          name: 'get',
          taskId: id,
          ...(historyLength !== undefined && { historyLength }),
        } as const;
        return { kind: 'result', result: toWireTask(await serve(operation)) };
      },
    ],
    [
      'tasks/cancel',
      async (params, _context, serve) => {
        const { id } = fromWireTaskIdRequest(params);
        return { kind: 'result', result: toWireTask(await serve({ name: 'cancel', taskId: id })) };
      },
    ],
    [
      'tasks/resubscribe',
      async (params, _context, serve, req) => {
        // A cursor in the params wins; else a reconnecting client's Last-Event-ID is one.
        const { id, afterSeq = lastEventId(req) } = fromWireSubscribeRequest(params);
        const operation = {
          name: 'subscribe',
          taskId: id,
          ...(afterSeq !== undefined && { afterSeq }),
        } as const;
        return { kind: 'stream', stream: await serve(operation) };
      },
    ],
    [
      'tasks/pushNotificationConfig/set',
      async (params, _context, serve) => {
        const { taskId, config } = fromWirePushConfig(params);
        const created = await serve({ name: 'create-push-config', taskId, input: config });
        return { kind: 'result', result: toWirePushConfig(created) };
      },
    ],
    [
      'tasks/pushNotificationConfig/get',
      async (params, _context, serve) => {
        const { taskId, configId } = fromWirePushConfigIdRequest(params, false);
        const operation = {
          name: 'get-push-config',
          taskId,
          ...(configId !== undefined && { configId }),
        } as const;
        return { kind: 'result', result: toWirePushConfig(await serve(operation)) };
      },
    ],
    [
      'tasks/pushNotificationConfig/list',
      async (params, _context, serve) => {
        const { id } = fromWireTaskIdRequest(params);
        const { configs } = await serve({ name: 'list-push-configs', taskId: id, page: {} });
        return { kind: 'result', result: configs.map(toWirePushConfig) };
      },
    ],
    [
      'tasks/pushNotificationConfig/delete',
      async (params, _context, serve) => {
        const { taskId, configId } = fromWirePushConfigIdRequest(params, true);
        await serve({ name: 'delete-push-config', taskId, configId: configId! });
        return { kind: 'result', result: null };
      },
    ],
    [
      'agent/getAuthenticatedExtendedCard',
      (_params, { cards }, _call, req) => {
        if (!cards.extendedCardEnabled) {
          throw new A2AError(
            'ExtendedAgentCardNotConfiguredError',
            'Authenticated Extended Card not configured: this agent has none (supportsAuthenticatedExtendedCard is false).',
          );
        }
        return {
          kind: 'result',
          result: cards.published(cards.v03(cards.baseUrl(req), true), cards.baseUrl(req)),
        };
      },
    ],
  ]),
};
