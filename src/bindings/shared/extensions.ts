/**
 * Extension negotiation (§4.6, §3.2.6): a client activates extensions by listing their URIs in the
 * `A2A-Extensions` header (v0.3 clients: `X-A2A-Extensions`). An agent whose card marks one
 * `required` refuses every call that does not activate it with ExtensionSupportRequiredError, on
 * every binding; the answer names the extensions the agent activated, in the header the client used.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AgentExtension } from '../../agents/schema.js';
import { A2AError } from '../../domain/errors.js';

/** The request headers that list extensions, v1.0 first. */
const HEADERS = Object.freeze(['A2A-Extensions', 'X-A2A-Extensions']);

/** Returns when the call activates every required extension, after echoing the activated ones. */
export function negotiateExtensions(
  req: IncomingMessage,
  res: ServerResponse,
  declared: readonly AgentExtension[],
): void {
  const { activated, used } = activatedExtensions(req.headers, declared);
  if (activated.length) for (const header of used) res.setHeader(header, activated.join(','));
}

/**
 * The extensions a call activates of those declared, and the headers it listed them in; throws
 * when it leaves out a required one. gRPC reads the same names from its metadata.
 */
export function activatedExtensions(
  headers: IncomingHttpHeaders,
  declared: readonly AgentExtension[],
): { activated: string[]; used: string[] } {
  const requested = new Set<string>();
  const used: string[] = [];
  for (const header of HEADERS) {
    const value = headers[header.toLowerCase()];
    if (value === undefined) continue;
    used.push(header);
    for (const uri of (Array.isArray(value) ? value.join(',') : value).split(',')) {
      if (uri.trim()) requested.add(uri.trim());
    }
  }
  const missing = declared.filter((e) => e.required && !requested.has(e.uri)).map((e) => e.uri);
  if (missing.length) {
    throw new A2AError(
      'ExtensionSupportRequiredError',
      `Failed to serve the request: this agent requires the extension${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; activate ${missing.length > 1 ? 'them' : 'it'} with the header "A2A-Extensions: ${missing.join(',')}".`,
      { metadata: { extensions: missing.join(',') } },
    );
  }
  return { activated: declared.filter((e) => requested.has(e.uri)).map((e) => e.uri), used };
}
