/**
 * What a binding tells the request journal about the request it serves, as it learns it: what it
 * read the request as, which task the call is about, its body, and that the answer is a stream.
 * The journal opens a trace for each request it records and hands it to the binding; a request
 * nobody records gets {@link UNTRACED}.
 */
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
