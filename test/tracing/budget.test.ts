/**
 * The spans waiting for the collector hold no more than their byte budget, whatever the collector
 * does: with the real SDK, a collector that never answers keeps the spans it was handed counted,
 * and the spans that do not fit are dropped and counted; its answer gives their bytes back.
 */
import * as api from '@opentelemetry/api';
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { SpanBudget, spanBytes } from '../../src/tracing/budget.js';
import { SPAN_LIMITS } from '../../src/tracing/spans.js';

type Done = Parameters<SpanExporter['export']>[1];
/** ExportResultCode.FAILED (@opentelemetry/core's, which this package does not depend on itself). */
const FAILED = 1;

/** A collector that takes the spans and answers only when told to. */
function heldExporter() {
  const waiting: { spans: ReadableSpan[]; done: Done }[] = [];
  const exporter: SpanExporter = {
    export: (spans, done) => void waiting.push({ spans, done }),
    shutdown: () => Promise.resolve(),
  };
  return { exporter, waiting };
}

function longSpan(tracer: api.Tracer, events: number): void {
  const span = tracer.startSpan('a2a stream', { attributes: { 'url.path': '/message:stream' } });
  for (let seq = 1; seq <= events; seq++) span.addEvent('a2a.stream.event', { 'a2a.event.seq': seq });
  span.end();
}

describe('the span budget', () => {
  it('holds what the collector has not answered for within the budget, dropping and counting the rest', () => {
    const budget = new SpanBudget(1024 * 1024);
    const { exporter, waiting } = heldExporter();
    const provider = new BasicTracerProvider({
      spanLimits: SPAN_LIMITS,
      spanProcessors: [budget.admit(new SimpleSpanProcessor(budget.release(exporter)))],
    });
    const tracer = provider.getTracer('test');
    for (let i = 0; i < 20; i++) longSpan(tracer, 1000);
    const handed = waiting.flatMap((w) => w.spans);
    expect(handed.length).toBeGreaterThan(0);
    expect(budget.bytes).toBe(handed.reduce((sum, span) => sum + spanBytes(span), 0));
    expect(budget.bytes).toBeLessThanOrEqual(budget.maxBytes);
    expect(budget.dropped).toBe(20 - handed.length);
    expect(spanBytes(handed[0]!)).toBeGreaterThan(300_000);

    for (const { done } of waiting.splice(0)) done({ code: FAILED });
    expect(budget.bytes).toBe(0);
    longSpan(tracer, 10);
    expect(waiting).toHaveLength(1);
    expect(budget.dropped).toBe(20 - handed.length);
  });

  it('counts no span the processor will not export: recorded, not sampled', () => {
    const budget = new SpanBudget(1024 * 1024);
    const { exporter, waiting } = heldExporter();
    const provider = new BasicTracerProvider({
      // SamplingDecision.RECORD: the span is recorded, its trace flags say not sampled.
      sampler: { shouldSample: () => ({ decision: 1 }), toString: () => 'record only' },
      spanLimits: SPAN_LIMITS,
      spanProcessors: [budget.admit(new SimpleSpanProcessor(budget.release(exporter)))],
    });
    for (let i = 0; i < 5; i++) longSpan(provider.getTracer('test'), 100);
    expect(waiting).toHaveLength(0);
    expect(budget.bytes).toBe(0);
    expect(budget.dropped).toBe(0);
  });
});
