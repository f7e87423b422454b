/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` and `tracestate`
 * headers a call arrives with, read strictly, and the `traceparent` what the call causes later (a
 * webhook delivery) carries on. Pure: no I/O, no randomness; a span of our own is made by
 * src/tracing/ when spans are exported.
 *
 * @example
 * const trace = traceContextOf({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
 * traceparentOf(trace!); // the same value back, or our span's id as the parent when we made one
 */

/** The trace a call belongs to, as the exchange record keeps it and the journal shows it. */
export interface CallTrace {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** The caller's span (the `traceparent`'s parent-id), when the call carried one. */
  parentId?: string;
  /** The call's own span, when the simulator exports spans. */
  spanId?: string;
  /** The trace flags, 2 hex digits: `01` is sampled. */
  flags: string;
  /** The `tracestate` header, as sent, when it was well formed. */
  state?: string;
}

/** A `traceparent` of version 00 is exactly this long (§3.2). */
const TRACEPARENT_CHARS = 55;
/** §3.3.1.1: a `tracestate` longer than this may be discarded; 32 members at most. */
const MAX_TRACESTATE_CHARS = 512;
const MAX_TRACESTATE_MEMBERS = 32;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
/** §3.3.1.3: `key=value`, a key being a simple or a multi-tenant (`tenant@system`) one. */
const TRACESTATE_MEMBER =
  /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * The trace context of a call's headers, or undefined when it has no `traceparent` or a malformed
 * one (§3.2: the receiver then starts a new trace). A malformed `tracestate` is left out alone.
 */
export function traceContextOf(headers: Readonly<Record<string, unknown>>): CallTrace | undefined {
  const parent = parseTraceparent(headers['traceparent']);
  if (!parent) return undefined;
  const state = parseTracestate(headers['tracestate']);
  return state === undefined ? parent : { ...parent, state };
}

/**
 * A `traceparent` value read strictly: version 00 is exactly 55 characters; a later version is read
 * by its first 55 when a `-` follows them (§3.2.4, so a newer format still joins the trace); version
 * `ff`, an all-zero trace or parent id, uppercase hex or a repeated header (joined with `,`) is refused.
 */
export function parseTraceparent(value: unknown): CallTrace | undefined {
  if (typeof value !== 'string') return undefined;
  const version = value.slice(0, 2);
  let head = value;
  if (version !== '00' && value.length > TRACEPARENT_CHARS && value[TRACEPARENT_CHARS] === '-') {
    head = value.slice(0, TRACEPARENT_CHARS);
  } else if (value.length !== TRACEPARENT_CHARS) {
    return undefined;
  }
  const match = TRACEPARENT.exec(head);
  if (!match || match[1] === 'ff') return undefined;
  const [, , traceId, parentId, flags] = match as unknown as [string, string, string, string, string];
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_SPAN_ID) return undefined;
  return { traceId, parentId, flags };
}

/**
 * A `tracestate` value kept as sent when every member is well formed, there are at most 32 and no
 * key repeats, and it is at most 512 characters; otherwise none (§3.3.1: it is then not passed on).
 */
export function parseTracestate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TRACESTATE_CHARS)
    return undefined;
  const keys = new Set<string>();
  const members = value.split(',');
  if (members.length > MAX_TRACESTATE_MEMBERS) return undefined;
  for (const raw of members) {
    const member = raw.trim();
    // §3.3.1.1: empty list members are allowed and ignored.
    if (member === '') continue;
    if (!TRACESTATE_MEMBER.test(member)) return undefined;
    const key = member.slice(0, member.indexOf('='));
    if (keys.has(key)) return undefined;
    keys.add(key);
  }
  return keys.size > 0 ? value : undefined;
}

/** The `traceparent` a call passes on: its own span as the parent when it has one, else its caller's. */
export function traceparentOf(trace: CallTrace): string {
  return `00-${trace.traceId}-${trace.spanId ?? trace.parentId}-${trace.flags}`;
}

/** The headers that carry a call's trace on to what it causes (a webhook delivery). */
export function traceHeadersOf(trace: CallTrace): Record<string, string> {
  return {
    traceparent: traceparentOf(trace),
    ...(trace.state !== undefined && { tracestate: trace.state }),
  };
}
