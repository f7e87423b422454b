/**
 * The trace layer of every agent's call pipeline: the call's trace goes on to what it causes (the
 * webhooks it asks for carry its `traceparent`), and, when spans are exported, what a stream sends
 * the client becomes events of the call's span. Outside chaos, so a span shows what the client got.
 */
import type { Layer } from '../calls/pipeline.js';
import { traceHeadersOf } from '../calls/trace-context.js';
import type { WireStream } from '../calls/wire.js';
import { merge } from '../lib/objects.js';
import type { CallSpans } from './spans.js';

export function traceLayer(spans?: CallSpans): Layer {
  return (call, next) => {
    const { trace } = call.exchange;
    // Most calls carry no trace and no span watches them: nothing to add to their way.
    if (!trace && !spans) return next(call);
    const traced = trace ? { ...call, ctx: merge(call.ctx, { traceHeaders: traceHeadersOf(trace) }) } : call;
    const { name } = call.operation;
    if (!spans || (name !== 'stream' && name !== 'subscribe')) return next(traced);
    return next(traced).then((answer) => spans.watch(call.exchange, answer as WireStream));
  };
}
