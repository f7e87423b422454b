/**
 * A2A v1.0 over HTTP+JSON (§2): `POST /message:send`, `GET /tasks/{id}`, ... at the root and under
 * an optional `/{tenant}` prefix. Decode, call the service, encode: nothing else happens here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError } from '../../domain/errors.js';
import { ERROR_CODE_PROFILES, type ErrorCodeProfile } from '../../domain/error-codes.js';
import type { Exchange } from '../../calls/exchange.js';
import { OPERATIONS, type OperationName } from '../../calls/operations.js';
import { readRequest, refusedWhileReading, type BindingContext } from '../shared/context.js';
import { authenticate } from '../shared/auth.js';
import { negotiateExtensions } from '../shared/extensions.js';
import { answerFailure } from '../shared/errors.js';
import { operationName } from '../shared/operation-name.js';
import {
  declaredVersion,
  lastEventId,
  readJsonBody,
  requireJsonBody,
  sendJson,
  type RequestTarget,
} from '../shared/http.js';
import {
  fromWirePushConfig,
  fromWireSendRequest,
  toWireMessage,
  toWirePushConfig,
  toWirePushConfigPage,
  toWireStreamResponse,
  toWireTask,
} from '../v1/codec.js';
import { encodedOnce } from '../shared/frames.js';
import { pipeToSse, type StreamEncoding } from '../shared/stream.js';
import {
  fromRestGetQuery,
  fromRestListQuery,
  fromRestPushConfigsQuery,
  methodNotAllowed,
  type RestRoute,
} from './codec.js';
import { sendRestError, toRestStatus } from './errors.js';
import { responseMediaType } from './media-type.js';

// One encoding per logged event for all the streams that carry it.
const FRAME = encodedOnce(toWireStreamResponse);

/** Each error-code profile's stream encoding: the frames are the same, the error frame's status not. */
const STREAM_ENCODINGS: Readonly<Record<ErrorCodeProfile, StreamEncoding>> = Object.freeze(
  Object.fromEntries(
    ERROR_CODE_PROFILES.map((profile) => [
      profile,
      {
        frame: FRAME,
        errorFrame: (error: A2AError) => ({ event: 'error', data: toRestStatus(error, profile).body }),
      },
    ]),
  ) as Record<ErrorCodeProfile, StreamEncoding>,
);

/**
 * Serves a request whose path the REST grammar matched (`matchRestPath`); a failure is answered
 * in the REST error shape.
 */
export function serveRest(
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
      sendRestError(req, res, failure, context.errorCodes);
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
  const mediaType = responseMediaType(req);
  const method = req.method ?? '';
  if (!route.allow.includes(method)) {
    const error = methodNotAllowed(method, pathname, route.allow);
    sendJson(res, 405, toRestStatus(error, context.errorCodes).body, mediaType, {
      Allow: route.allow.join(', '),
    });
    return;
  }
  const version = declaredVersion(req, query);
  if (context.strictVersion && version !== '1.0') {
    throw new A2AError(
      'VersionNotSupportedError',
      `This HTTP+JSON interface speaks A2A 1.0, but the request declares ${version ?? 'no version (0.3)'}: send "A2A-Version: 1.0".`,
    );
  }
  const op = route.operation;
  const path =
    OPERATION_PATHS[op.op] + (op.op === 'push-configs' && op.configId !== undefined ? '/{id}' : '');
  const named = 'id' in op ? op.id : 'taskId' in op ? op.taskId : undefined;
  // Read before the body or a cursor header is decoded: a refusal of either is this call's.
  const kind = kindOf(op, method);
  const serve = readRequest(context, req, exchange, {
    binding: 'REST',
    version: '1.0',
    operation: operationName(method, path),
    ...(kind !== undefined && { kind }),
    ...(route.tenant !== undefined && { tenant: route.tenant }),
    ...(named !== undefined && { taskId: named }),
  });
  const body = (optional = false) =>
    readJsonBody(req, res, { limitBytes: context.maxBodyBytes, optional, exchange });
  const sse = {
    keepAlive: context.keepAlive,
    encoding: STREAM_ENCODINGS[context.errorCodes],
    report: context.report,
    exchange,
  };
  switch (op.op) {
    case 'send': {
      requireJsonBody(req);
      const result = await serve({ name: 'send', request: fromWireSendRequest(await body()) });
      if (result.kind === 'task') exchange.about(result.task.id);
      const answer =
        result.kind === 'task'
          ? { task: toWireTask(result.task) }
          : { message: toWireMessage(result.message) };
      sendJson(res, 200, answer, mediaType);
      return;
    }
    case 'stream': {
      requireJsonBody(req);
      const stream = await serve({ name: 'stream', request: fromWireSendRequest(await body()) });
      if (stream.taskId !== undefined) exchange.about(stream.taskId);
      pipeToSse(res, stream, sse);
      return;
    }
    case 'get': {
      const { historyLength, currentGeneration } = fromRestGetQuery(query, op.id);
      const task = await serve({
        name: 'get',
        taskId: op.id,
        ...(historyLength !== undefined && { historyLength }),
        ...(currentGeneration !== undefined && { currentGeneration }),
      });
      sendJson(res, 200, toWireTask(task), mediaType);
      return;
    }
    case 'list': {
      const page = await serve({ name: 'list', query: fromRestListQuery(query) });
      sendJson(res, 200, { ...page, tasks: page.tasks.map(toWireTask) }, mediaType);
      return;
    }
    case 'cancel':
      await body(true);
      sendJson(res, 200, toWireTask(await serve({ name: 'cancel', taskId: op.id })), mediaType);
      return;
    case 'subscribe': {
      if (method === 'POST') await body(true);
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
      const { tenant } = route;
      if (method === 'POST') {
        requireJsonBody(req);
        const { config } = fromWirePushConfig(await body(), taskId);
        const created = await serve({ name: 'create-push-config', taskId, input: config });
        sendJson(res, 201, toWirePushConfig(created, tenant), mediaType);
      } else if (method === 'DELETE') {
        await serve({ name: 'delete-push-config', taskId, configId: configId! });
        res.writeHead(204).end();
      } else if (configId !== undefined) {
        sendJson(
          res,
          200,
          toWirePushConfig(await serve({ name: 'get-push-config', taskId, configId }), tenant),
          mediaType,
        );
      } else {
        const { page } = fromRestPushConfigsQuery(query, taskId);
        sendJson(
          res,
          200,
          toWirePushConfigPage(await serve({ name: 'list-push-configs', taskId, page }), tenant),
          mediaType,
        );
      }
      return;
    }
    case 'extended-card':
      if (!context.cards.extendedCardEnabled) {
        throw new A2AError('UnsupportedOperationError', 'This agent does not offer an extended agent card.');
      }
      {
        const base = context.cards.baseUrl(req);
        sendJson(res, 200, context.cards.published(context.cards.v1(base, true), base), mediaType);
      }
      return;
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
const OPERATION_PATHS: Record<RestRoute['operation']['op'], string> = {
  send: OPERATIONS.send.rest,
  stream: OPERATIONS.stream.rest,
  get: OPERATIONS.get.rest,
  list: OPERATIONS.list.rest,
  cancel: OPERATIONS.cancel.rest,
  subscribe: OPERATIONS.subscribe.rest,
  'push-configs': OPERATIONS['list-push-configs'].rest,
  'extended-card': '/extendedAgentCard',
};
