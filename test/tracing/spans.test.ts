/**
 * A call's span, with the real SDK exporting into memory: its events are capped, the rest counted,
 * so a long stream cannot grow memory; its times are the simulator's clock's.
 */
import * as api from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Exchange, MAX_FAULTS_KEPT } from '../../src/calls/exchange.js';
import type { WireItem, WireSink } from '../../src/calls/wire.js';
import { VirtualClock } from '../../src/lib/clock.js';
import { FaultLog } from '../../src/chaos/fault-log.js';
import {
  CallSpans,
  MAX_ATTRIBUTE_CHARS,
  MAX_FAULT_EVENTS,
  MAX_STREAM_EVENTS,
  SPAN_LIMITS,
} from '../../src/tracing/spans.js';
import { tracesUrl } from '../../src/tracing/export.js';

function setup() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanLimits: SPAN_LIMITS,
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const clock = new VirtualClock();
  const spans = new CallSpans(api, provider.getTracer('test'), clock);
  return { exporter, clock, spans };
}

const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;

const statusEvent = (seq: number): WireItem => ({
  kind: 'event',
  event: {
    seq,
    taskId: 't1',
    contextId: 'c1',
    event: { kind: 'status', status: { state: 'working', timestamp: '' } },
  } as never,
});

describe('a call span', () => {
  it('keeps an attribute the client made long to its first characters (a path, say)', () => {
    const { exporter, clock, spans } = setup();
    const path = `/tasks/${'x'.repeat(10_000)}`;
    const exchange = new Exchange({ n: 1, atMs: clock.now(), method: 'GET', path, headers: {} });
    spans.opened(exchange);
    exchange.status = 404;
    exchange.durationMs = 0;
    spans.completed(exchange);
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes['url.path']).toBe(path.slice(0, MAX_ATTRIBUTE_CHARS));
  });

  it('records the first stream events, then counts the rest', () => {
    const { exporter, clock, spans } = setup();
    const exchange = new Exchange({ n: 1, atMs: clock.now(), method: 'POST', path: '/', headers: {} });
    spans.opened(exchange);
    let sink: WireSink | undefined;
    const stream = spans.watch(exchange, { start: (s) => (sink = s), stop: () => undefined });
    const got: WireItem[] = [];
    stream.start({
      item: (i) => got.push(i),
      end: () => undefined,
      open: () => undefined,
      abort: () => undefined,
    });
    for (let seq = 1; seq <= MAX_STREAM_EVENTS + 5; seq++) sink!.item(statusEvent(seq));
    sink!.item({ kind: 'keep-alive' });
    clock.advance(250);
    exchange.status = 200;
    exchange.durationMs = 250;
    spans.completed(exchange);
    const [span] = exporter.getFinishedSpans();
    expect(got).toHaveLength(MAX_STREAM_EVENTS + 6);
    expect(span!.events).toHaveLength(MAX_STREAM_EVENTS);
    expect(span!.attributes['a2a.stream.events_dropped']).toBe(5);
    expect(span!.events[0]!.attributes).toMatchObject({ 'a2a.event.seq': 1, 'a2a.task.state': 'working' });
    expect(ms(span!.duration)).toBe(250);
    expect(ms(span!.startTime)).toBe(exchange.atMs);
  });

  it('records the faults chaos applied to its call, at their times, the first ones only', () => {
    const { exporter, clock, spans } = setup();
    const faults = new FaultLog();
    faults.onApplied((fault, exchange) => spans.faulted(exchange, fault));
    const exchange = new Exchange({ n: 1, atMs: clock.now(), method: 'POST', path: '/', headers: {} });
    const other = new Exchange({ n: 2, atMs: clock.now(), method: 'POST', path: '/', headers: {} });
    spans.opened(exchange);
    for (let seq = 1; seq <= MAX_FAULT_EVENTS + 5; seq++) {
      clock.advance(10);
      const at = new Date(clock.now()).toISOString();
      faults.applied({ at, kind: 'duplicate', detail: { seq }, profile: 'header', seq }, exchange);
    }
    // A fault of a call without a span (another replica's, or one the journal never opened) is no event.
    faults.applied(
      { at: new Date(clock.now()).toISOString(), kind: 'delay', detail: {}, profile: 'x' },
      other,
    );
    exchange.status = 200;
    exchange.durationMs = clock.now() - exchange.atMs;
    spans.completed(exchange);
    const [span] = exporter.getFinishedSpans();
    expect(span!.events).toHaveLength(MAX_FAULT_EVENTS);
    expect(span!.attributes['a2a.faults_dropped']).toBe(5);
    expect(span!.events[0]!.attributes).toMatchObject({ 'a2a.fault.kind': 'duplicate', 'a2a.fault.seq': 1 });
    expect(ms(span!.events[1]!.time) - ms(span!.startTime)).toBe(20);
    expect(exchange.faults).toHaveLength(MAX_FAULTS_KEPT);
    expect(exchange.moreFaults).toBe(MAX_FAULT_EVENTS + 5 - MAX_FAULTS_KEPT);
  });
});

describe('tracesUrl', () => {
  it.each([
    ['http://collector:4318', 'http://collector:4318/v1/traces'],
    ['http://collector:4318/', 'http://collector:4318/v1/traces'],
    ['https://otel.example/base/', 'https://otel.example/base/v1/traces'],
    ['http://collector:4318/v1/traces', 'http://collector:4318/v1/traces'],
  ])('sends spans for %s to %s', (endpoint, url) => {
    expect(tracesUrl(endpoint)).toBe(url);
  });

  it.each(['collector:4318', 'grpc://collector:4317', 'not a url'])('refuses %s with a hint', (endpoint) => {
    expect(() => tracesUrl(endpoint)).toThrow(/^Failed to export traces: .*e\.g\. http:\/\/localhost:4318/);
  });
});
