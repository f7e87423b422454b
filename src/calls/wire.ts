/**
 * What the bindings get from the chaos layer: a task's stream as one connection sees it, and the
 * faults that end a connection without an answer. Chaos adds to a task's stream what the task's log
 * never holds: made-up events (quirks), keep-alive floods, held-back headers and abnormal endings.
 */
import type { SendRequest } from '../domain/types.js';
import type { A2AService, CallContext } from '../runtime/api.js';
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

/**
 * The operations as the bindings call them: the runtime's, with streams as one connection sees
 * them.
 */
export type WireService = Omit<A2AService, 'stream' | 'subscribe'> & {
  stream(request: SendRequest, ctx: CallContext): Promise<WireStream>;
  subscribe(id: string, ctx: CallContext, resume?: { afterSeq?: number }): WireStream | Promise<WireStream>;
};

/** The call gets no answer at all: the connection closes empty, or is reset. */
export class ConnectionFault extends Error {
  constructor(readonly mode: 'empty' | 'reset') {
    super(mode === 'empty' ? 'Connection closed without a reply' : 'Connection reset');
  }
}
