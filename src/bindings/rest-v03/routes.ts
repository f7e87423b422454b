/**
 * A2A v0.3 over HTTP+JSON (§3.2.3): `POST /v1/message:send`, `GET /v1/tasks/{id}`, `GET /v1/card`,
 * ... in the v0.3 proto's ProtoJSON (codec.ts). Decode, call the service, encode, as the v1.0
 * binding does; only the shapes, the paths and the error body differ.
 *
 * @example
 * curl -N -H 'Last-Event-ID: 3' http://localhost:4000/v1/tasks/t1:subscribe
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError } from '../../domain/errors.js';
import type { Exchange } from '../../calls/exchange.js';
import { OPERATIONS, type OperationName } from '../../calls/operations.js';
import { readRequest, refusedWhileReading, type BindingContext } from '../shared/context.js';
import { authenticate } from '../shared/auth.js';
import { negotiateExtensions } from '../shared/extensions.js';
import { operationName } from '../shared/operation-name.js';
import { answerFailure } from '../shared/errors.js';
import { lastEventId, readJsonBody, requireJsonBody, sendJson, type RequestTarget } from '../shared/http.js';
import { encodedOnce } from '../shared/frames.js';
import { pipeToSse, type StreamEncoding } from '../shared/stream.js';
import { fromRestHistoryLength, methodNotAllowed, type RestRoute } from '../rest-v1/codec.js';
import {
  fromProtoPushConfig,
  fromProtoSendRequest,
  toProtoMessage,
  toProtoPushConfig,
  toProtoStreamResponse,
  toProtoTask,
} from '../v03/proto-codec.js';
import { sendRestV03Error, toRestV03Error, V03_JSON } from './errors.js';
import { V03_PREFIX } from './paths.js';

const STREAM_ENCODING: StreamEncoding = {
  // One encoding per logged event for all the streams that carry it.
  frame: encodedOnce(toProtoStreamResponse),
  errorFrame: (error) => ({ event: 'error', data: toRestV03Error(error).body }),
};

/** Serves a request whose path `matchV03RestPath` matched; a failure is answered in the v0.3 error shape. */
export function serveRestV03(
  context: BindingContext,
  route: RestRoute,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  exchange: Exchange,
): Promise<void> {
  return handle(context, route, req, res, target, exchange).catch((error: unknown) =>
    answerFailure(res, error, context.report, (failure) => {
      refusedWhileReading(context, exchange, failure);
      sendRestV03Error(req, res, failure);
    }),
  );
}

async function handle(
  context: BindingContext,
  route: RestRoute,
  req: IncomingMessage,
  res: ServerResponse,
  { pathname, query }: RequestTarget,
  exchange: Exchange,
): Promise<void> {
  if (context.access) authenticate(req, res, context.access);
  if (context.extensions) negotiateExtensions(req, res, context.extensions);
  const method = req.method ?? '';
  if (!route.allow.includes(method)) {
    const error = methodNotAllowed(method, pathname, route.allow);
    sendJson(res, 405, toRestV03Error(error).body, V03_JSON, { Allow: route.allow.join(', ') });
    return;
  }
  const op = route.operation;
  const named = 'id' in op ? op.id : 'taskId' in op ? op.taskId : undefined;
  const kind = kindOf(op, method);
  // Read before the body or a cursor header is decoded: a refusal of either is this call's.
  const serve = readRequest(context, req, exchange, {
    binding: 'REST 0.3',
    version: '0.3',
    operation: operationName(method, operationPath(op)),
    ...(kind !== undefined && { kind }),
    ...(named !== undefined && { taskId: named }),
  });
  const body = (optional = false) =>
    readJsonBody(req, res, { limitBytes: context.maxBodyBytes, optional, exchange });
  const sse = { keepAlive: context.keepAlive, encoding: STREAM_ENCODING, report: context.report, exchange };
  switch (op.op) {
    case 'send': {
      requireJsonBody(req);
      const result = await serve({ name: 'send', request: fromProtoSendRequest(await body()) });
      if (result.kind === 'task') exchange.about(result.task.id);
      const answer =
        result.kind === 'task'
          ? { task: toProtoTask(result.task) }
          : { message: toProtoMessage(result.message) };
      sendJson(res, 200, answer, V03_JSON);
      return;
    }
    case 'stream': {
      requireJsonBody(req);
      const stream = await serve({ name: 'stream', request: fromProtoSendRequest(await body()) });
      if (stream.taskId !== undefined) exchange.about(stream.taskId);
      pipeToSse(res, stream, sse);
      return;
    }
    case 'get': {
      const historyLength = fromRestHistoryLength(query);
      const task = await serve({
        name: 'get',
        taskId: op.id,
        ...(historyLength !== undefined && { historyLength }),
      });
      sendJson(res, 200, toProtoTask(task), V03_JSON);
      return;
    }
    case 'cancel':
      // The reference clients send `null`, or `{"name": "tasks/{id}"}`: the path names the task.
      await body(true);
      sendJson(res, 200, toProtoTask(await serve({ name: 'cancel', taskId: op.id })), V03_JSON);
      return;
    case 'subscribe': {
      if (method === 'POST') await body(true);
      // The cursor of a reconnecting client, as on v1.0 HTTP+JSON (docs/resume.md).
      const afterSeq = lastEventId(req);
      const stream = await serve({
        name: 'subscribe',
        taskId: op.id,
        ...(afterSeq !== undefined && { afterSeq }),
      });
      pipeToSse(res, stream, sse);
      return;
    }
    case 'push-configs': {
      const { taskId, configId } = op;
      if (method === 'POST') {
        requireJsonBody(req);
        const input = fromProtoPushConfig(await body());
        const created = await serve({ name: 'create-push-config', taskId, input });
        sendJson(res, 201, toProtoPushConfig(created), V03_JSON);
      } else if (method === 'DELETE') {
        await serve({ name: 'delete-push-config', taskId, configId: configId! });
        res.writeHead(204).end();
      } else if (configId !== undefined) {
        const config = await serve({ name: 'get-push-config', taskId, configId });
        sendJson(res, 200, toProtoPushConfig(config), V03_JSON);
      } else {
        // v0.3 pages nothing: every config, in the proto's ListTaskPushNotificationConfigResponse.
        const { configs } = await serve({ name: 'list-push-configs', taskId, page: {} });
        sendJson(res, 200, { configs: configs.map(toProtoPushConfig), nextPageToken: '' }, V03_JSON);
      }
      return;
    }
    case 'extended-card':
      if (!context.cards.extendedCardEnabled) {
        throw new A2AError(
          'ExtendedAgentCardNotConfiguredError',
          'Authenticated Extended Card not configured: this agent has none (supportsAuthenticatedExtendedCard is false).',
        );
      }
      sendJson(res, 200, context.cards.v03Proto(context.cards.baseUrl(req), true), V03_JSON);
      return;
    case 'list':
      // matchV03RestPath never routes it: v0.3 HTTP+JSON has no listing.
      throw new A2AError('MethodNotFoundError', `Not found: ${method} ${pathname}.`);
  }
}

/** The operation a route asks for, before its request is decoded (the card is not one). */
function kindOf(op: RestRoute['operation'], method: string): OperationName | undefined {
  switch (op.op) {
    case 'extended-card':
      return undefined;
    case 'push-configs':
      if (method === 'POST') return 'create-push-config';
      if (method === 'DELETE') return 'delete-push-config';
      return op.configId !== undefined ? 'get-push-config' : 'list-push-configs';
    default:
      return op.op;
  }
}

/** How each route is named in records: its path, with the ids left as placeholders. */
function operationPath(op: RestRoute['operation']): string {
  switch (op.op) {
    case 'extended-card':
      return `${V03_PREFIX}/card`;
    case 'push-configs':
      return `${V03_PREFIX}${OPERATIONS['list-push-configs'].rest}${op.configId !== undefined ? '/{id}' : ''}`;
    default:
      return `${V03_PREFIX}${OPERATIONS[op.op].rest}`;
  }
}
