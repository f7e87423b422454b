// The types of replay.js, for the tests' TypeScript.
export declare const MASKED: string;
export declare const SECRET_VARIABLES: Readonly<Record<string, string>>;
export declare function shellQuote(text: string): string;
export declare function isClipped(entry: { body?: string }): boolean;
export declare function isHttpCall(entry: { binding?: string }): boolean;
export declare function toCurl(
  entry: { method: string; path: string; headers: Record<string, string>; body?: string; streamed?: boolean },
  options: { origin: string; secrets?: Record<string, string> },
): string;
export declare function replayHeaders(
  headers: Record<string, string>,
  client: string,
): Record<string, string>;
export declare function urlOf(entry: { path: string }, origin: string): string;
