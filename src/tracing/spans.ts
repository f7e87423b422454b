/**
 * One OpenTelemetry span per call (SERVER kind), kept beside its exchange record: opened when the
 * journal opens the record, given an event for each stream event the client was sent and each fault
 * chaos injected, and ended, with what the record says of the call, when the journal completes it.
 * Every time is the simulator's clock's, so a run on a virtual clock shows the times its journal does.
 */
import type * as OtelApi from '@opentelemetry/api';
import type { Exchange } from '../calls/exchange.js';
import type { WireItem, WireStream } from '../calls/wire.js';
import type { FaultRecord } from '../chaos/fault-log.js';
import { stateShownBy } from '../domain/lifecycle.js';
import type { Clock } from '../lib/clock.js';

/** Stream events one span records; past them a long stream only counts what it sent. */
export const MAX_STREAM_EVENTS = 1000;
/** Fault events one span records. */
export const MAX_FAULT_EVENTS = 100;
/**
 * Characters of one attribute's value: a path or an error's reason is the client's to make long
 * (up to the request's header limit), and a span waits in the exporter's queue with all of it.
 */
export const MAX_ATTRIBUTE_CHARS = 1024;

/** The SDK's limits for our spans: our own event caps come first (its default, 128, would drop a long stream's first events). */
export const SPAN_LIMITS = {
  eventCountLimit: MAX_STREAM_EVENTS + MAX_FAULT_EVENTS,
  attributeValueLengthLimit: MAX_ATTRIBUTE_CHARS,
} as const;
/** What one open span holds beside the SDK's span. */
interface OpenSpan {
  span: OtelApi.Span;
  streamEvents: number;
  faultEvents: number;
}

export class CallSpans {
  private readonly open = new WeakMap<Exchange, OpenSpan>();

  constructor(
    private readonly api: typeof OtelApi,
    private readonly tracer: OtelApi.Tracer,
    private readonly clock: Clock,
  ) {}

  /** The call arrived: its span starts now, a child of its `traceparent`'s span when it carried one. */
  opened(exchange: Exchange): void {
    const { api } = this;
    const { trace } = exchange;
    const parent =
      trace?.parentId === undefined
        ? api.ROOT_CONTEXT
        : api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: trace.traceId,
            spanId: trace.parentId,
            traceFlags: parseInt(trace.flags, 16),
            isRemote: true,
            ...(trace.state !== undefined && { traceState: api.createTraceState(trace.state) }),
          });
    const span = this.tracer.startSpan(
      `a2a ${exchange.method}`,
      {
        kind: api.SpanKind.SERVER,
        // A Date, not a number: the SDK reads a number before the process started as a
        // performance.now() reading, and a virtual clock may well be set before.
        startTime: new Date(exchange.atMs),
        attributes: {
          'a2a.request': exchange.n,
          'http.request.method': exchange.method,
          'url.path': exchange.path,
        },
      },
      parent,
    );
    const { traceId, spanId, traceFlags } = span.spanContext();
    exchange.trace = {
      ...trace,
      traceId,
      spanId,
      flags: (traceFlags & 0xff).toString(16).padStart(2, '0'),
    };
    this.open.set(exchange, { span, streamEvents: 0, faultEvents: 0 });
  }

  /** Chaos applied a fault to the call: an event of its span, at the time it was applied. */
  faulted(exchange: Exchange, fault: FaultRecord): void {
    const open = this.open.get(exchange);
    if (!open || ++open.faultEvents > MAX_FAULT_EVENTS) return;
    open.span.addEvent('a2a.chaos.fault', faultAttributes(fault), new Date(Date.parse(fault.at)));
  }

  /** The stream as the client is sent it, each event noted on the call's span. */
  watch(exchange: Exchange, stream: WireStream): WireStream {
    // Named, not spread: a stream may be a class whose fields are getters.
    return {
      taskId: stream.taskId,
      holdsHeaders: stream.holdsHeaders,
      start: (sink) =>
        stream.start({
          ...sink,
          item: (item) => {
            this.sent(exchange, item);
            sink.item(item);
          },
          end: (error) => sink.end(error),
          open: () => sink.open(),
          abort: (mode) => sink.abort(mode),
        }),
      stop: () => stream.stop(),
    };
  }

  /** The call is complete: its span ends with what its record says. */
  completed(exchange: Exchange): void {
    const open = this.open.get(exchange);
    if (!open) return;
    this.open.delete(exchange);
    const { span } = open;
    const { read, kind, client, error, status, streamed } = exchange;
    span.updateName(`a2a ${kind ?? exchange.method}`);
    const scope = read?.scope;
    const attributes: OtelApi.Attributes = {
      'a2a.binding': read?.binding,
      'a2a.version': read?.version,
      'a2a.operation': read?.operation,
      'a2a.kind': kind,
      'a2a.task.id': exchange.taskId,
      'a2a.agent': scope?.agent,
      'a2a.workspace': scope?.workspace,
      'a2a.tenant': scope?.tenant,
      'a2a.client': client?.id,
      'a2a.client.by': client?.by,
      'http.response.status_code': status,
      'a2a.streamed': streamed,
      'a2a.stream.ended': exchange.ended,
      'a2a.error.type': error?.type,
      'a2a.error.reason': error?.reason,
    };
    if (open.streamEvents > MAX_STREAM_EVENTS) {
      attributes['a2a.stream.events_dropped'] = open.streamEvents - MAX_STREAM_EVENTS;
    }
    if (open.faultEvents > MAX_FAULT_EVENTS) {
      attributes['a2a.faults_dropped'] = open.faultEvents - MAX_FAULT_EVENTS;
    }
    span.setAttributes(attributes);
    // OpenTelemetry's rule for SERVER spans: a 4xx is the client's error, not the server's.
    if (status === 0 || (status !== undefined && status >= 500)) {
      span.setStatus({
        code: this.api.SpanStatusCode.ERROR,
        message: status === 0 ? 'closed without an answer' : (error?.reason ?? `status ${status}`),
      });
    }
    span.end(new Date(exchange.atMs + (exchange.durationMs ?? this.clock.now() - exchange.atMs)));
  }

  private sent(exchange: Exchange, item: WireItem): void {
    const open = this.open.get(exchange);
    if (!open || item.kind === 'keep-alive') return;
    if (++open.streamEvents > MAX_STREAM_EVENTS) return;
    open.span.addEvent('a2a.stream.event', eventAttributes(item), new Date(this.clock.now()));
  }
}

function eventAttributes(item: Exclude<WireItem, { kind: 'keep-alive' }>): OtelApi.Attributes {
  switch (item.kind) {
    case 'message':
      return { 'a2a.event.kind': 'message' };
    case 'snapshot':
      return { 'a2a.event.kind': 'snapshot', 'a2a.task.state': item.task.status.state };
    case 'event': {
      const { event, seq } = item.event;
      const state = stateShownBy(event);
      return {
        'a2a.event.kind': event.kind,
        ...(item.synthetic ? { 'a2a.event.synthetic': true } : { 'a2a.event.seq': seq }),
        ...(state !== undefined && { 'a2a.task.state': state }),
        ...(item.last && { 'a2a.event.last': true }),
      };
    }
  }
}

function faultAttributes(fault: FaultRecord): OtelApi.Attributes {
  const attributes: OtelApi.Attributes = {
    'a2a.fault.n': fault.n,
    'a2a.fault.kind': fault.kind,
    'a2a.fault.profile': fault.profile,
  };
  if (fault.seq !== undefined) attributes['a2a.fault.seq'] = fault.seq;
  for (const key in fault.detail) attributes[`a2a.fault.${key}`] = fault.detail[key];
  return attributes;
}
