/**
 * A call as one value, and the per-call layers as a pipeline over the service (hono's `compose`):
 * replica sync, the witness and chaos are each written once, as a layer, not once per operation. A
 * layer acts when the call is set up and, for a stream, on the stream's items, so streams stay
 * push-based.
 *
 * @example
 * const serve = pipeline([sync, witness, chaos], perform(service));
 * const task = await serve(callOf({ name: 'get', taskId: 't1' }));
 */
import type { CallContext, TaskService } from '../runtime/api.js';
import type { Exchange } from './exchange.js';
import type { Answer, AnswerOf, Operation } from './operations.js';

export interface Call<O extends Operation = Operation> {
  readonly operation: O;
  /** Who calls, in which scope: what the runtime needs. */
  readonly ctx: CallContext;
  /** The record of the request behind the call, which layers annotate. */
  readonly exchange: Exchange;
  /** The `X-Sim-Chaos` header, as sent: chaos parses it whole (the exchange keeps a clipped copy). */
  readonly chaos?: string;
}

export type Next = (call: Call) => Promise<Answer>;
export type Layer = (call: Call, next: Next) => Promise<Answer>;

/** Serves a call through every layer to the service. */
export type Serve = <O extends Operation>(call: Call<O>) => Promise<AnswerOf<O>>;

export function pipeline(layers: readonly Layer[], service: Next): Serve {
  const run = layers.reduceRight<Next>((next, layer) => (call) => layer(call, next), service);
  return run as Serve;
}

/** The end of every pipeline: the service plays the operation. */
export function perform(service: TaskService): Next {
  return async (call) => {
    const { operation: op, ctx } = call;
    switch (op.name) {
      case 'send':
        return service.send(op.request, ctx);
      case 'stream':
        return service.stream(op.request, ctx);
      case 'get':
        return service.getTask(op.taskId, op.historyLength, ctx);
      case 'list':
        return service.listTasks(op.query, ctx);
      case 'cancel':
        return service.cancelTask(op.taskId, ctx);
      case 'subscribe':
        return service.subscribe(op.taskId, ctx, op.afterSeq === undefined ? {} : { afterSeq: op.afterSeq });
      case 'create-push-config':
        return service.createPushConfig(op.taskId, op.input, ctx);
      case 'get-push-config':
        return service.getPushConfig(op.taskId, op.configId, ctx);
      case 'list-push-configs':
        return service.listPushConfigs(op.taskId, op.page, ctx);
      case 'delete-push-config':
        return service.deletePushConfig(op.taskId, op.configId, ctx);
    }
  };
}
