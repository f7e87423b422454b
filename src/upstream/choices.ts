/** The bindings `--proxy-binding` may choose for the real agent: a leaf the options can name. */
export const UPSTREAM_BINDINGS = Object.freeze(['auto', 'rest', 'jsonrpc', 'jsonrpc-0.3'] as const);
export type UpstreamBindingChoice = (typeof UPSTREAM_BINDINGS)[number];
