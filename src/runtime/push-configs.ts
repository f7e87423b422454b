/**
 * A task's webhook configs (§3.1.6-3.1.9): checked, stored on the task, and handed to the
 * deliverer, which starts and stops delivering to each. Push off (no deliverer) answers every call
 * with PushNotificationNotSupportedError.
 */
import { A2AError, invalidParams } from '../domain/errors.js';
import type { PushConfig, PushConfigInput } from '../domain/types.js';
import { merge } from '../lib/objects.js';
import { Random } from '../lib/random.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { CallContext, PushConfigPage, PushConfigPageQuery, PushDelivery } from './api.js';
import type { SharedPlays } from './plays.js';

/** Webhooks per task, at most: a client bug must not turn into unbounded deliveries. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;

export interface PushConfigsOptions {
  /** Keeps the configs on their tasks, counted in the store's budget. */
  store: TaskStore;
  /** Delivers to them; push is off without it. */
  push?: PushDelivery | undefined;
  /** Present when replicas share the tasks: every replica lists a task's configs. */
  plays?: SharedPlays | undefined;
}

export class PushConfigs {
  private readonly store: TaskStore;
  private readonly delivery: PushDelivery | undefined;
  private readonly plays: SharedPlays | undefined;

  constructor(
    { store, push, plays }: PushConfigsOptions,
    /** The seed a task's config ids derive from. */
    private readonly seedOf: (record: TaskRecord) => string,
  ) {
    this.store = store;
    this.delivery = push;
    this.plays = plays;
  }

  /** Refuses a config that could not be delivered to; made on every message that carries one. */
  check(input: PushConfigInput): void {
    const delivery = this.deliveryOrRefuse();
    if (!/^https?:$/.test(URL.parse(input.url)?.protocol ?? '')) {
      throw invalidParams([
        { field: 'url', description: `must be an absolute http(s) URL, got "${input.url}"` },
      ]);
    }
    delivery.checkUrl(input.url);
  }

  /** Stores a config on the task and starts delivering the events after `afterSeq` to it. */
  attach(record: TaskRecord, input: PushConfigInput, afterSeq: number, ctx: CallContext): PushConfig {
    const delivery = this.deliveryOrRefuse();
    const { pushConfigs } = record;
    const replaces = input.id !== undefined && pushConfigs.has(input.id);
    if (!replaces && pushConfigs.size >= MAX_PUSH_CONFIGS_PER_TASK) {
      throw invalidParams([
        {
          field: 'url',
          description: `task ${record.id} already has ${MAX_PUSH_CONFIGS_PER_TASK} push configs; delete one first`,
        },
      ]);
    }
    const seed = this.seedOf(record);
    const config: PushConfig = merge(input, {
      id: input.id ?? new Random(`${seed}/push/${record.log.latestSeq}/${pushConfigs.size}`).uuid(),
      taskId: record.id,
      dialect: ctx.version ?? '1.0',
    });
    const previous = pushConfigs.get(config.id);
    this.store.keepPushConfig(record, config);
    if (previous) delivery.stop(previous);
    this.plays?.pushConfigSet(record.id, config);
    delivery.start(record, config, afterSeq, ctx);
    return config;
  }

  // The task comes as a lookup below: with push off, the answer is PushNotificationNotSupported
  // whether or not the task exists.

  /** Without `configId`, the task's first config (v0.3 get by task id). */
  get(task: () => TaskRecord, configId: string | undefined): PushConfig {
    this.deliveryOrRefuse();
    const record = task();
    const configs = record.pushConfigs;
    const config = configId === undefined ? configs.values().next().value : configs.get(configId);
    if (!config) {
      throw new A2AError(
        'TaskNotFoundError',
        `Push notification config not found: task ${record.id} has ${configId === undefined ? 'none' : `no config "${configId}"`}.`,
        { metadata: { taskId: record.id, ...(configId !== undefined && { configId }) } },
      );
    }
    return config;
  }

  list(task: () => TaskRecord, page: PushConfigPageQuery): PushConfigPage {
    this.deliveryOrRefuse();
    const configs = [...task().pushConfigs.values()];
    const size = page.pageSize || MAX_PUSH_CONFIGS_PER_TASK;
    if (!Number.isInteger(size) || size < 0) {
      throw invalidParams([
        { field: 'pageSize', description: `must be a positive integer, got ${page.pageSize}` },
      ]);
    }
    const start = page.pageToken ? configs.findIndex((c) => c.id === page.pageToken) : 0;
    if (start < 0) {
      throw invalidParams([
        {
          field: 'pageToken',
          description: "use the nextPageToken of a previous list of this task's configs",
        },
      ]);
    }
    return { configs: configs.slice(start, start + size), nextPageToken: configs[start + size]?.id ?? '' };
  }

  /** Idempotent: deleting a config that is not there succeeds. */
  delete(task: () => TaskRecord, configId: string): void {
    const delivery = this.deliveryOrRefuse();
    const record = task();
    const config = this.store.dropPushConfig(record, configId);
    if (!config) return;
    this.plays?.pushConfigDeleted(record.id, configId);
    delivery.stop(config);
  }

  private deliveryOrRefuse(): PushDelivery {
    if (!this.delivery) {
      throw new A2AError(
        'PushNotificationNotSupportedError',
        'Push notifications are turned off on this simulator (capabilities.pushNotifications is false).',
      );
    }
    return this.delivery;
  }
}
