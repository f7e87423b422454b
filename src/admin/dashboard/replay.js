/**
 * A journaled request made again: as a curl command to paste in a shell, or as the headers the
 * page sends it with (Send again). Pure: no DOM, no network; test/admin/replay.test.ts runs it.
 * The journal masks secrets (`"(redacted)"`), so a masked header becomes a shell variable the
 * operator sets (`$A2A_AUTHORIZATION`), or the value the operator gives for it.
 */

/** A masked header's value in the journal (src/admin/journal-trace.ts). */
export const MASKED = '(redacted)';

/** The shell variable that stands for each masked header in a curl command. */
/** @type {Readonly<Record<string, string>>} */
export const SECRET_VARIABLES = Object.freeze({
  authorization: 'A2A_AUTHORIZATION',
  'x-api-key': 'A2A_API_KEY',
  cookie: 'A2A_COOKIE',
  'x-admin-token': 'A2A_SIM_ADMIN_TOKEN',
});

/**
 * Headers that belong to one connection or that curl and the browser compute themselves: never
 * copied. (`accept-encoding` too: curl would print a compressed answer as it came.)
 */
const NOT_COPIED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
  'accept-encoding',
]);

/** Headers a browser will not let a page set (fetch drops them), beside {@link NOT_COPIED}. */
const BROWSER_SETS = /^(?:sec-|origin$|referer$|user-agent$|cookie$|dnt$|date$|via$)/;

/** A journal body clipped at its limit ends with this (src/calls/exchange.ts `clip`). */
const CLIPPED = /… \(\d+ more characters\)$/;

/**
 * `text` as one POSIX shell word: in single quotes, each `'` written as `'\''`.
 * @example shellQuote("it's") // 'it'\''s'
 */
export function shellQuote(/** @type {string} */ text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Whether the journal kept only the start of the request's body (it cannot be sent again as it was). */
export const isClipped = (/** @type {{body?: string}} */ entry) => CLIPPED.test(entry.body ?? '');

/** Whether the request came over HTTP/1 (a gRPC call's body is binary, which the journal does not keep). */
export const isHttpCall = (/** @type {{binding?: string}} */ entry) => !/^gRPC/.test(entry.binding ?? '');

/**
 * Where the request went, on `origin`. Joined, not resolved: a path is the client's to write, and
 * `//elsewhere/x` resolved against the origin would name another host.
 */
export function urlOf(/** @type {{path: string}} */ entry, /** @type {string} */ origin) {
  return `${origin}${entry.path.startsWith('/') ? '' : '/'}${entry.path}`;
}

/**
 * A curl command that sends the request again: same method, URL, headers (less those of the
 * connection) and body; `-N` for a stream, so its events print as they come.
 * @param {{method: string, path: string, headers: Record<string, string>, body?: string, streamed?: boolean}} entry
 * @param {{origin: string, secrets?: Record<string, string>}} options `secrets`: a value for a masked
 *   header (by lowercase name), when the operator gives one; otherwise its shell variable
 * @example toCurl(entry, { origin: 'http://127.0.0.1:41241' })
 */
export function toCurl(entry, { origin, secrets = {} }) {
  const parts = ['curl', '-sS'];
  if (entry.streamed) parts.push('-N');
  const hasBody = entry.body !== undefined && entry.body !== '';
  const implied = hasBody ? 'POST' : 'GET';
  if (entry.method !== implied) parts.push('-X', shellQuote(entry.method));
  parts.push(shellQuote(urlOf(entry, origin)));
  for (const [name, value] of Object.entries(entry.headers)) {
    if (NOT_COPIED.has(name)) continue;
    const label = displayName(name);
    const variable = value === MASKED ? SECRET_VARIABLES[name] : undefined;
    if (variable === undefined) parts.push('-H', shellQuote(`${label}: ${value}`));
    else if (secrets[name] !== undefined) parts.push('-H', shellQuote(`${label}: ${secrets[name]}`));
    // Double quotes, so the shell puts the variable's value in: only for the names above, which
    // hold nothing the shell reads in double quotes (any other name could, from any client).
    else parts.push('-H', `"${label}: \${${variable}}"`);
  }
  if (hasBody) parts.push('--data-binary', shellQuote(/** @type {string} */ (entry.body)));
  return parts.join(' ');
}

/**
 * The headers the page sends the request again with: the journal's, less those of the connection,
 * those a browser sets itself and the masked ones, naming the page as the client.
 * @param {Record<string, string>} headers as journaled
 * @param {string} client the page's `X-Sim-Client`
 */
export function replayHeaders(headers, client) {
  /** @type {Record<string, string>} */
  const sent = {};
  for (const [name, value] of Object.entries(headers)) {
    if (NOT_COPIED.has(name) || BROWSER_SETS.test(name) || value === MASKED || name === 'x-sim-client')
      continue;
    sent[name] = value;
  }
  sent['x-sim-client'] = client;
  return sent;
}

/** `content-type` → `Content-Type`, as people write it (HTTP/1 names are case-insensitive). */
const displayName = (/** @type {string} */ name) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());
