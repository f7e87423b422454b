/**
 * The media type of a REST answer: the one the client used. §11.1 says `application/a2a+json`
 * SHOULD be used, and clients written against the v1.0 release candidate (the official
 * conformance suite among them) expect `application/json`; both are JSON, so each client gets what
 * it speaks. The request's `Content-Type` decides when it has a body, else its `Accept`. A client
 * that names neither (a GET with `Accept: *\/*`, as `fetch` and most HTTP libraries send) gets
 * `application/json`, the type every JSON client reads; `application/a2a+json` goes to those that
 * ask for it.
 */
import type { IncomingMessage } from 'node:http';

export const A2A_JSON = 'application/a2a+json';
export const PLAIN_JSON = 'application/json';

export type RestMediaType = typeof A2A_JSON | typeof PLAIN_JSON;

export function responseMediaType(req: IncomingMessage): RestMediaType {
  return namedIn(req.headers['content-type']) ?? namedIn(req.headers.accept) ?? PLAIN_JSON;
}

/** The first of the two JSON types a header lists (`Accept` may list several), if any. */
function namedIn(header: string | undefined): RestMediaType | undefined {
  if (header === undefined) return undefined;
  for (const range of header.split(',')) {
    const type = range.split(';')[0]!.trim().toLowerCase();
    if (type === A2A_JSON || type === PLAIN_JSON) return type;
  }
  return undefined;
}
