/**
 * The A2A v0.3 JSON-RPC dialect (§2): slash-named methods, `kind`-tagged params and results.
 * `message/send` answers the bare Task or Message; stream frames carry bare `kind` objects, with
 * `final: true` on the status that ends the stream. v0.3 has no `tasks/list` (-32601), and
 * `tasks/resubscribe` always answers with an event stream, failures included, as the SDK server does.
 *
 * @example
 * {"jsonrpc":"2.0","id":1,"method":"tasks/resubscribe","params":{"taskId":"t1","afterSeq":3}}
 */
import { A2AError } from '../../domain/errors.js';
import type { CallContext } from '../../runtime/service.js';
import type { BindingContext } from '../shared/context.js';
import { lastEventId } from '../shared/http.js';
import type { JsonRpcDialect, MethodHandler } from '../shared/jsonrpc-endpoint.js';
import { rpcResult } from '../shared/jsonrpc.js';
import { fromWireTaskIdRequest } from '../shared/proto-json.js';
import {
  fromWireResubscribeRequest,
  fromWireSendRequest,
  toWireMessage,
  toWireStreamResult,
  toWireTask,
} from './codec.js';
import { toRpcError } from './errors.js';

const pushNotSupported = () => {
  throw new A2AError(
    'PushNotificationNotSupportedError',
    'Push Notification is not supported by this agent (capabilities.pushNotifications is false).',
  );
};

export const JSONRPC_V03: JsonRpcDialect = {
  version: '0.3',
  toError: toRpcError,
  // `tasks/list` is answered as the v0.3 method it looks like (-32601), not as an unknown v1.0 one.
  methodPattern: /^[a-z]+(\/[A-Za-z]+)+$/,
  alwaysStreams: new Set(['tasks/resubscribe']),
  streamEncoding: (id) => ({
    frame: (item) => rpcResult(id, toWireStreamResult(item)),
    errorFrame: (error) => ({ data: toRpcError(id, error) }),
  }),
  methods: new Map<string, MethodHandler>([
    [
      'message/send',
      async (params, context) => {
        const result = await context.service.send(fromWireSendRequest(params), context.callContext());
        return {
          kind: 'result',
          result: result.kind === 'task' ? toWireTask(result.task) : toWireMessage(result.message),
        };
      },
    ],
    [
      'message/stream',
      async (params, context) => ({
        kind: 'stream',
        stream: await context.service.stream(fromWireSendRequest(params), context.callContext()),
      }),
    ],
    [
      'tasks/get',
      (params, context) => {
        const { id, historyLength } = fromWireTaskIdRequest(params);
        return {
          kind: 'result',
          result: toWireTask(context.service.getTask(id, historyLength, context.callContext())),
        };
      },
    ],
    [
      'tasks/cancel',
      (params, context) => ({
        kind: 'result',
        result: toWireTask(
          context.service.cancelTask(fromWireTaskIdRequest(params).id, context.callContext()),
        ),
      }),
    ],
    [
      'tasks/resubscribe',
      (params, context, req) => {
        // A cursor in the params wins; else a reconnecting client's Last-Event-ID is one.
        const { id, afterSeq = lastEventId(req) } = fromWireResubscribeRequest(params);
        return {
          kind: 'stream',
          stream: context.service.subscribe(
            id,
            context.callContext(),
            afterSeq === undefined ? {} : { afterSeq },
          ),
        };
      },
    ],
    ['tasks/pushNotificationConfig/set', pushNotSupported],
    ['tasks/pushNotificationConfig/get', pushNotSupported],
    ['tasks/pushNotificationConfig/list', pushNotSupported],
    ['tasks/pushNotificationConfig/delete', pushNotSupported],
    [
      'agent/getAuthenticatedExtendedCard',
      (_params, { cards }, req) => {
        if (!cards.extendedCardEnabled) {
          throw new A2AError(
            'ExtendedAgentCardNotConfiguredError',
            'Authenticated Extended Card not configured: this agent has none (supportsAuthenticatedExtendedCard is false).',
          );
        }
        return { kind: 'result', result: cards.v03(cards.baseUrl(req), true) };
      },
    ],
  ]),
};
