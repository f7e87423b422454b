/**
 * Exports a span per call over OTLP/HTTP (JSON) when an endpoint is configured (`--otel-endpoint`,
 * `OTEL_EXPORTER_OTLP_ENDPOINT`). Off by default, and then no OpenTelemetry module is loaded: they
 * are imported here, on first use, and only their types are imported statically.
 *
 * @example
 * const tracing = await startTracing({ endpoint: 'http://127.0.0.1:4318', clock, version: '1.0.0' });
 * journal.onOpen((exchange) => tracing.spans.opened(exchange));
 * await tracing.close(); // exports what is still batched
 */
import type { Clock } from '../lib/clock.js';
import { SpanBudget } from './budget.js';
import { CallSpans, SPAN_LIMITS } from './spans.js';

export interface TracingOptions {
  /** The OTLP/HTTP endpoint: a base URL (`/v1/traces` is added) or the traces URL itself. */
  endpoint: string;
  clock: Clock;
  /** The simulator's version, the service's on every span. */
  version: string;
  /** Told when the spans still batched could not be exported at close (the collector is down). */
  report(error: unknown): void;
}

export interface Tracing {
  spans: CallSpans;
  /** What the spans waiting for the collector hold, against their budget. */
  budget: SpanBudget;
  /** Exports the spans still batched, then stops exporting. */
  close(): Promise<void>;
}

/** The service every span is exported for. */
export const SERVICE_NAME = 'a2a-sim';

export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const url = tracesUrl(options.endpoint);
  const [api, sdk, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const budget = new SpanBudget();
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': SERVICE_NAME,
      'service.version': options.version,
    }),
    spanLimits: SPAN_LIMITS,
    // The budget bounds the spans waiting, by their size: the processor's own count must not drop one
    // first (the budget would go on counting it).
    spanProcessors: [
      budget.admit(
        new sdk.BatchSpanProcessor(budget.release(new otlp.OTLPTraceExporter({ url })), {
          maxQueueSize: Number.MAX_SAFE_INTEGER,
        }),
      ),
    ],
  });
  const spans = new CallSpans(api, provider.getTracer(SERVICE_NAME, options.version), options.clock);
  let closing: Promise<void> | undefined;
  // A collector that is down costs the spans, never the simulator's close.
  return { spans, budget, close: () => (closing ??= provider.shutdown().catch(options.report)) };
}

/**
 * Where spans are sent: a base endpoint gets `v1/traces` added to its path, as the OpenTelemetry
 * exporter specification says of `OTEL_EXPORTER_OTLP_ENDPOINT`; a URL that already ends in
 * `/v1/traces` is used as it is.
 */
export function tracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(
      `Failed to export traces: "${endpoint}" is not a URL. Give the collector's, e.g. http://localhost:4318.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(
      `Failed to export traces: ${url.protocol} is not http: or https:. Give an OTLP/HTTP endpoint, e.g. http://localhost:4318.`,
    );
  }
  if (!url.pathname.endsWith('/v1/traces')) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  }
  return url.toString();
}
