/**
 * The spans waiting for the collector, within a byte budget. The SDK's batch processor holds a
 * number of spans whatever their size, and a long stream's span (its first 1,000 events) is ~300 KB:
 * a collector that is down or slow would have the simulator hold hundreds of megabytes for it. A
 * span is counted from the moment it ends until the exporter has answered for it; one that does
 * not fit is not exported, and counted.
 */
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** What the spans waiting for the collector may hold, approximately. */
export const MAX_SPAN_BYTES = 32 * 1024 * 1024;
/** A span's own objects (its context, times, resource and scope are shared), approximately. */
const SPAN_BYTES = 1024;
/** One event: its name (shared), its time and a few attributes. */
const EVENT_BYTES = 300;
/** TraceFlags.SAMPLED of @opentelemetry/api, which this module does not load. */
const TRACE_FLAG_SAMPLED = 1;

/** What a span holds, approximately: a client makes a path long, a stream's events many. */
export function spanBytes(span: ReadableSpan): number {
  let bytes = SPAN_BYTES + span.events.length * EVENT_BYTES;
  for (const key in span.attributes) {
    const value = span.attributes[key];
    bytes += key.length + (typeof value === 'string' ? value.length : 8);
  }
  return bytes;
}

export class SpanBudget {
  private held = 0;
  private droppedSpans = 0;

  constructor(readonly maxBytes = MAX_SPAN_BYTES) {}

  /** What the spans handed to the exporter, or waiting for it, hold now. */
  get bytes(): number {
    return this.held;
  }

  /** Spans not exported because they did not fit. */
  get dropped(): number {
    return this.droppedSpans;
  }

  /** Passes on to `inner` the ended spans that fit, counting them. */
  admit(inner: SpanProcessor): SpanProcessor {
    return {
      onStart: (span, context) => inner.onStart(span, context),
      onEnd: (span) => {
        // The batch processor drops a span that was recorded but not sampled (a custom sampler's
        // RECORD): counted, it would never be exported, and never given back.
        if ((span.spanContext().traceFlags & TRACE_FLAG_SAMPLED) === 0) return inner.onEnd(span);
        const bytes = spanBytes(span);
        if (this.held + bytes > this.maxBytes) {
          this.droppedSpans++;
          return;
        }
        this.held += bytes;
        inner.onEnd(span);
      },
      forceFlush: () => inner.forceFlush(),
      shutdown: () => inner.shutdown(),
    };
  }

  /** Exports through `inner`, giving a batch's bytes back once `inner` has answered for it. */
  release(inner: SpanExporter): SpanExporter {
    return {
      export: (spans, done) =>
        inner.export(spans, (result) => {
          for (const span of spans) this.held -= spanBytes(span);
          done(result);
        }),
      shutdown: () => inner.shutdown(),
      forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
    };
  }
}
