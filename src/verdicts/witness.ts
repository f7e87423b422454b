/**
 * Watches every call as the bindings make it, between them and the chaos layer, and tells the
 * judge what each client did and what it was given: the task and state an answer showed, the
 * events a stream delivered (chaos's made-up ones marked), how the stream ended, the error and its
 * Retry-After. It changes nothing on the way.
 */
import { A2AError } from '../domain/errors.js';
import type { SendRequest, Task } from '../domain/types.js';
import type { Clock } from '../lib/clock.js';
import type { CallContext } from '../runtime/api.js';
import type { WireItem, WireService, WireSink, WireStream } from '../chaos/wire.js';
import type { Judge } from './judge.js';
import { callKindOf, type Delivered, type Observation } from './observation.js';

export class Witness implements WireService {
  constructor(
    private readonly inner: WireService,
    private readonly judge: Judge,
    private readonly clock: Clock,
  ) {}

  send(request: SendRequest, ctx: CallContext) {
    const call = this.open(ctx, request.message.taskId);
    return this.settle(
      call,
      ctx,
      () => this.inner.send(request, ctx),
      (result) => {
        if (result.kind === 'task') this.showed(call, result.task);
      },
    );
  }

  async stream(request: SendRequest, ctx: CallContext): Promise<WireStream> {
    const call = this.open(ctx, request.message.taskId);
    return this.watched(call, ctx, await this.settle(call, ctx, () => this.inner.stream(request, ctx)));
  }

  getTask(id: string, historyLength: number | undefined, ctx: CallContext) {
    const call = this.open(ctx, undefined, id);
    return this.settle(
      call,
      ctx,
      () => this.inner.getTask(id, historyLength, ctx),
      (task) => this.showed(call, task),
    );
  }

  listTasks(...args: Parameters<WireService['listTasks']>) {
    return this.inner.listTasks(...args);
  }

  cancelTask(id: string, ctx: CallContext) {
    const call = this.open(ctx, undefined, id);
    return this.settle(
      call,
      ctx,
      () => this.inner.cancelTask(id, ctx),
      (task) => this.showed(call, task),
    );
  }

  async subscribe(id: string, ctx: CallContext, resume: { afterSeq?: number } = {}): Promise<WireStream> {
    const call = this.open(ctx, undefined, id);
    if (resume.afterSeq !== undefined) call.cursor = resume.afterSeq;
    return this.watched(call, ctx, await this.settle(call, ctx, () => this.inner.subscribe(id, ctx, resume)));
  }

  createPushConfig(...args: Parameters<WireService['createPushConfig']>) {
    return this.inner.createPushConfig(...args);
  }

  getPushConfig(...args: Parameters<WireService['getPushConfig']>) {
    return this.inner.getPushConfig(...args);
  }

  listPushConfigs(...args: Parameters<WireService['listPushConfigs']>) {
    return this.inner.listPushConfigs(...args);
  }

  deletePushConfig(...args: Parameters<WireService['deletePushConfig']>) {
    return this.inner.deletePushConfig(...args);
  }

  private open(ctx: CallContext, continues?: string, taskId?: string): Observation {
    const call: Observation = {
      atMs: this.clock.now(),
      kind: callKindOf(ctx.request?.operation ?? ''),
      ...(taskId !== undefined && { taskId }),
      ...(continues !== undefined && { continues, taskId: continues }),
    };
    if (ctx.client) this.judge.observe(ctx.client, call, ctx.request);
    return call;
  }

  /** Waits for the answer, noting what it showed, or the error and its Retry-After. */
  private async settle<T>(
    call: Observation,
    ctx: CallContext,
    answer: () => T | Promise<T>,
    showed?: (value: T) => void,
  ): Promise<T> {
    try {
      // Called in here: a refusal may be thrown at once, before any promise.
      const value = await answer();
      showed?.(value);
      return value;
    } catch (error) {
      if (error instanceof A2AError) {
        const { retryAfterMs } = error.details;
        call.error = {
          type: error.type,
          reason: error.reason,
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        };
      } else {
        call.error = { type: 'ConnectionFault', reason: (error as Error).message };
      }
      throw error;
    } finally {
      call.endedAtMs = this.clock.now();
      this.judge.updated(ctx.client);
    }
  }

  private showed(call: Observation, task: Pick<Task, 'id' | 'status'>): void {
    call.taskId = task.id;
    call.state = task.status.state;
  }

  /** The stream as the connection gets it, each item noted as it goes out. */
  private watched(call: Observation, ctx: CallContext, stream: WireStream): WireStream {
    const delivered: Delivered[] = (call.delivered = []);
    if (stream.taskId !== undefined) call.taskId = stream.taskId;
    const finish = (ended: NonNullable<Observation['ended']>) => {
      call.ended ??= ended;
      call.endedAtMs = this.clock.now();
      this.judge.updated(ctx.client);
    };
    return {
      ...(stream.taskId !== undefined && { taskId: stream.taskId }),
      ...(stream.holdsHeaders !== undefined && { holdsHeaders: stream.holdsHeaders }),
      start: (sink: WireSink) =>
        stream.start({
          item: (item: WireItem) => {
            const seen = deliveredOf(item);
            if (seen) delivered.push(seen);
            sink.item(item);
          },
          end: (error) => {
            finish(error ? 'error' : 'clean');
            sink.end(error);
          },
          open: () => sink.open(),
          abort: (mode) => {
            finish('cut');
            sink.abort(mode);
          },
        }),
      stop: () => {
        finish('closed');
        stream.stop();
      },
    };
  }
}

function deliveredOf(item: WireItem): Delivered | undefined {
  switch (item.kind) {
    case 'keep-alive':
    case 'message':
      return undefined;
    case 'snapshot':
      return { state: item.task.status.state };
    case 'event': {
      const { event } = item.event;
      const state =
        event.kind === 'status'
          ? event.status.state
          : event.kind === 'task'
            ? event.task.status.state
            : undefined;
      if (item.synthetic) return { synthetic: true, ...(state !== undefined && { state }) };
      return { seq: item.event.seq, ...(state !== undefined && { state }) };
    }
  }
}
