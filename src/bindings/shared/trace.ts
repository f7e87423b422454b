/**
 * What a binding tells the request journal about the request it serves, as it learns it: what it
 * read the request as, which task the call is about, its body, and that the answer is a stream.
 * The journal opens a trace for each request it records; a request it does not record (or a
 * binding mounted without one) gets {@link UNTRACED}.
 */
import type { ServerResponse } from 'node:http';
import type { WireRequest } from '../../runtime/api.js';

export interface RequestTrace {
  /** The binding read the request as this call. */
  read(wire: WireRequest): void;
  /** The call is about this task (named by the request, or created by it). */
  about(taskId: string): void;
  /** The request body, as the binding read it. */
  body(text: string): void;
  /** The answer is an event stream; its headers go out now. */
  streaming(): void;
}

export const UNTRACED: RequestTrace = Object.freeze({
  read() {},
  about() {},
  body() {},
  streaming() {},
});

/** Where the journal leaves the trace of a response: express's per-request `res.locals`. */
interface Traced {
  locals?: { trace?: RequestTrace };
}

/** Opens `trace` for the request that `res` answers. */
export function attachTrace(res: ServerResponse, trace: RequestTrace): void {
  const traced = res as ServerResponse & Traced;
  (traced.locals ??= {}).trace = trace;
}

/** The trace of the request `res` answers, or {@link UNTRACED}. */
export function traceOf(res: ServerResponse): RequestTrace {
  return (res as ServerResponse & Traced).locals?.trace ?? UNTRACED;
}
