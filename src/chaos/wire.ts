/**
 * What the bindings get from the chaos layer: a task's stream as one connection sees it, and the
 * faults that end a connection without an answer. Chaos adds to a task's stream what the task's log
 * never holds: made-up events (quirks), keep-alive floods, held-back headers and abnormal endings.
 */
import type {
  ListTasksPage,
  ListTasksQuery,
  PushConfig,
  PushConfigInput,
  SendRequest,
  SendResult,
  TaskView,
} from '../domain/types.js';
import type { CallContext, PushConfigPage, PushConfigPageQuery } from '../runtime/api.js';
import type { StreamItem, StreamSink } from '../runtime/stream.js';

export type WireItem =
  | Exclude<StreamItem, { kind: 'event' }>
  /**
   * `synthetic`: made up for this connection by a quirk, not in the task's log; it carries no seq on
   * the wire.
   */
  | (Extract<StreamItem, { kind: 'event' }> & { synthetic?: true })
  /** A `: keep-alive` comment, sent now (a keep-alive flood). */
  | { kind: 'keep-alive' };

/** The items that become a `data:` frame. */
export type DataItem = Exclude<WireItem, { kind: 'keep-alive' }>;

export interface WireSink extends StreamSink {
  item(item: WireItem): void;
  /** Sends the response headers now, for a stream that holds them back (`holdsHeaders`). */
  open(): void;
  /** Ends the connection abnormally, with a TCP reset, or by going silent while keeping it open. */
  abort(mode: 'reset' | 'hang'): void;
}

export interface WireStream {
  start(sink: WireSink): void;
  stop(): void;
  /** Headers wait for `sink.open()` or the first item, instead of going out at start (latency). */
  readonly holdsHeaders?: boolean;
  readonly taskId?: string;
}

type Awaitable<T> = T | Promise<T>;

/** The operations as the bindings call them: the runtime's, with streams as one connection sees them. */
export interface WireService {
  send(request: SendRequest, ctx: CallContext): Promise<SendResult>;
  stream(request: SendRequest, ctx: CallContext): Promise<WireStream>;
  getTask(id: string, historyLength: number | undefined, ctx: CallContext): Awaitable<TaskView>;
  listTasks(query: ListTasksQuery, ctx: CallContext): Awaitable<ListTasksPage>;
  cancelTask(id: string, ctx: CallContext): Awaitable<TaskView>;
  subscribe(id: string, ctx: CallContext, resume?: { afterSeq?: number }): Awaitable<WireStream>;
  createPushConfig(taskId: string, input: PushConfigInput, ctx: CallContext): Awaitable<PushConfig>;
  getPushConfig(taskId: string, configId: string | undefined, ctx: CallContext): Awaitable<PushConfig>;
  listPushConfigs(taskId: string, page: PushConfigPageQuery, ctx: CallContext): Awaitable<PushConfigPage>;
  deletePushConfig(taskId: string, configId: string, ctx: CallContext): Awaitable<void>;
}

/** The call gets no answer at all: the connection closes empty, or is reset. */
export class ConnectionFault extends Error {
  constructor(readonly mode: 'empty' | 'reset') {
    super(mode === 'empty' ? 'Connection closed without a reply' : 'Connection reset');
  }
}
