/**
 * In front of an agent's service on a replica: each call first waits until this replica has
 * applied everything the shared log held when the call came, so a task made through one replica
 * is there when the next call reaches another; a change is answered once it is in the store.
 * When the store is away, the call is refused with UnavailableError in the binding's own shape.
 */
import type { ListTasksQuery, PushConfigInput, SendRequest } from '../domain/types.js';
import type { WireService } from '../chaos/wire.js';
import type { CallContext, PushConfigPageQuery } from '../runtime/api.js';

export class SyncedService implements WireService {
  constructor(
    private readonly inner: WireService,
    private readonly replica: { sync(): Promise<void>; flushed(): Promise<void> },
  ) {}

  async send(request: SendRequest, ctx: CallContext) {
    await this.replica.sync();
    const result = await this.inner.send(request, ctx);
    await this.replica.flushed();
    return result;
  }

  async stream(request: SendRequest, ctx: CallContext) {
    await this.replica.sync();
    return this.inner.stream(request, ctx);
  }

  async getTask(id: string, historyLength: number | undefined, ctx: CallContext) {
    await this.replica.sync();
    return this.inner.getTask(id, historyLength, ctx);
  }

  async listTasks(query: ListTasksQuery, ctx: CallContext) {
    await this.replica.sync();
    return this.inner.listTasks(query, ctx);
  }

  async cancelTask(id: string, ctx: CallContext) {
    await this.replica.sync();
    const task = await this.inner.cancelTask(id, ctx);
    await this.replica.flushed();
    return task;
  }

  async subscribe(id: string, ctx: CallContext, resume?: { afterSeq?: number }) {
    await this.replica.sync();
    return this.inner.subscribe(id, ctx, resume);
  }

  async createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext) {
    await this.replica.sync();
    const config = await this.inner.createPushConfig(taskId, input, ctx);
    await this.replica.flushed();
    return config;
  }

  async getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext) {
    await this.replica.sync();
    return this.inner.getPushConfig(taskId, configId, ctx);
  }

  async listPushConfigs(taskId: string, page: PushConfigPageQuery, ctx: CallContext) {
    await this.replica.sync();
    return this.inner.listPushConfigs(taskId, page, ctx);
  }

  async deletePushConfig(taskId: string, configId: string, ctx: CallContext) {
    await this.replica.sync();
    await this.inner.deletePushConfig(taskId, configId, ctx);
    await this.replica.flushed();
  }
}
