/**
 * The two ways the simulator reads a real agent over HTTP: one JSON answer, or an SSE stream of
 * JSON frames. Whatever goes wrong on the way (no connection, no answer in time, a body that is not
 * JSON or is too large, a media type that is not what was asked for, a redirect) becomes
 * InvalidAgentResponseError, HTTP 502: the client hears what failed upstream, and the simulator
 * carries on. Every call is one AbortController: the timeout, the caller's signal and the limits
 * all end it the same way, headers or body, so nothing is left reading.
 */
import { excerpt } from '../lib/excerpt.js';
import { parseJson } from '../bindings/shared/http.js';
import type { A2AError } from '../domain/errors.js';
import type { Clock, Timer } from '../lib/clock.js';
import { isRecord } from '../lib/objects.js';
import type { UpstreamCall } from '../runtime/api.js';
import { invalidAgentResponse } from './dialect.js';
import {
  agentLimitExceeded,
  CREDENTIAL_HEADERS,
  HOP_HEADER,
  MAX_AGENT_BODY_BYTES,
  MAX_AGENT_EVENT_BYTES,
} from './limits.js';
import { SseReader } from './sse-reader.js';

export interface HttpOptions {
  clock: Clock;
  /** How long the agent may take to answer: a JSON answer whole, a stream's first event. */
  timeoutMs: number;
  /** Sent with every call (e.g. the agent's credentials from `--proxy-header`). */
  headers: Record<string, string>;
  /** This simulator's name in {@link HOP_HEADER}. */
  hop: string;
  /**
   * Whether the client's credentials ({@link CREDENTIAL_HEADERS}) are passed on; false for an
   * interface on another origin than the proxy URL's (whose `headers` then hold none of the
   * configured ones either).
   */
  credentials: boolean;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/** Frames stop arriving once the agent closes the stream; a stream cut short simply ends early. */
export type Frames = AsyncIterable<unknown>;

/** POST (or GET without a body) and read one JSON answer, whatever its HTTP status. */
export async function requestJson(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  call: UpstreamCall,
  options: HttpOptions,
): Promise<JsonAnswer> {
  const exchange = new AgentExchange(url, call, options);
  try {
    const response = await exchange.open(method, body, 'application/json');
    const text = await exchange.readText(response);
    if (!isJson(response)) {
      throw invalidAgentResponse(
        `${url} answered HTTP ${response.status} as ${mediaType(response) || 'no media type'}, not JSON: ${snippet(text)}`,
      );
    }
    return {
      status: response.status,
      body: readJson(url, text, 'answered'),
      retryAfter: response.headers.get('retry-after'),
    };
  } finally {
    exchange.close();
  }
}

/**
 * POST (or GET) for an event stream. An answer that is JSON instead (an error before the stream
 * began) is handed to `onJson`, which throws what it says. The call's timeout runs until the first
 * event; after it, the caller's signal decides how long the stream is read.
 */
export async function requestStream(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  call: UpstreamCall,
  options: HttpOptions,
  onJson: (answer: JsonAnswer) => never,
): Promise<Frames> {
  const exchange = new AgentExchange(url, call, options);
  let streaming = false;
  try {
    const response = await exchange.open(method, body, 'text/event-stream');
    if (mediaType(response) !== 'text/event-stream') {
      const text = await exchange.readText(response);
      if (isJson(response)) {
        const parsed = readJson(url, text, 'answered');
        onJson({ status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') });
      }
      throw invalidAgentResponse(
        `${url} answered HTTP ${response.status} as ${mediaType(response) || 'no media type'}, not an event stream: ${snippet(text)}`,
      );
    }
    streaming = true;
    return exchange.frames(response);
  } finally {
    if (!streaming) exchange.close();
  }
}

/** Why a call was ended from this side. */
type Ending = 'timeout' | 'abandoned' | 'limit';

/** One call to the agent, from its request to the end of its answer. */
class AgentExchange {
  private readonly controller = new AbortController();
  private readonly timer: Timer;
  private ending: Ending | undefined;
  private readonly onAbandon = () => this.end('abandoned');

  constructor(
    private readonly url: string,
    private readonly call: UpstreamCall,
    private readonly options: HttpOptions,
  ) {
    this.timer = options.clock.setTimer(options.timeoutMs, () => this.end('timeout'));
    call.signal?.addEventListener('abort', this.onAbandon, { once: true });
    if (call.signal?.aborted) this.end('abandoned');
  }

  async open(method: 'GET' | 'POST', body: unknown, accept: string): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method,
        headers: this.headers(accept, body !== undefined),
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: this.controller.signal,
        // A redirect could take the client's credentials anywhere: the agent's URL is the one given.
        redirect: 'manual',
      });
    } catch (error) {
      throw this.failure(
        error,
        `did not answer within ${this.options.timeoutMs} ms`,
        `could not reach ${this.url}`,
      );
    }
    if (response.status >= 300 && response.status < 400) {
      this.end('limit');
      const location = response.headers.get('location');
      throw invalidAgentResponse(
        `${this.url} answered HTTP ${response.status}, a redirect to ${location ?? '(no Location)'}; ` +
          'the simulator follows no redirects: point it at the URL that answers.',
      );
    }
    if (response.status === 508) {
      const text = await this.readText(response).catch(() => '');
      throw invalidAgentResponse(`${this.url} answered HTTP 508 Loop Detected: ${loopMessage(text)}`);
    }
    return response;
  }

  /** The whole body, within the call's time and {@link MAX_AGENT_BODY_BYTES}. */
  async readText(response: Response): Promise<string> {
    const limit = MAX_AGENT_BODY_BYTES;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > limit) throw this.tooLarge(limit);
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        bytes += chunk.value.length;
        if (bytes > limit) throw this.tooLarge(limit);
        chunks.push(chunk.value);
      }
    } catch (error) {
      if (isAgentError(error)) throw error;
      throw this.failure(
        error,
        `did not finish its answer within ${this.options.timeoutMs} ms`,
        `${this.url} broke off its answer`,
      );
    }
    return Buffer.concat(chunks, bytes).toString('utf8');
  }

  /** The stream's events as JSON values; ends the call when the reading stops, however it stops. */
  async *frames(response: Response): AsyncGenerator<unknown> {
    const sse = new SseReader(this.url, MAX_AGENT_EVENT_BYTES);
    const reader = response.body!.getReader();
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          // Cut mid-stream: what arrived whole has been handed on; the reader decides what is missing.
          if (this.ending === undefined) return;
          throw this.failure(error, `did not send an event within ${this.options.timeoutMs} ms`, '');
        }
        if (chunk.done) return;
        for (const data of sse.feed(chunk.value)) {
          const value = readJson(this.url, data, 'sent a stream event');
          // The agent has started answering: from here the caller's signal bounds the stream.
          this.timer.cancel();
          yield value;
        }
      }
    } finally {
      this.end('limit');
      this.close();
    }
  }

  /** Stops listening to the caller and the clock; the connection goes unless its body was read. */
  close(): void {
    this.timer.cancel();
    this.call.signal?.removeEventListener('abort', this.onAbandon);
  }

  private end(why: Ending): void {
    this.ending ??= why;
    this.controller.abort();
  }

  private headers(accept: string, hasBody: boolean): Record<string, string> {
    const { options } = this;
    const passed = Object.entries(this.call.headers ?? {}).filter(
      ([name]) => name !== HOP_HEADER && (options.credentials || !CREDENTIAL_HEADERS.includes(name)),
    );
    const arrivedThrough = this.call.headers?.[HOP_HEADER];
    return {
      ...options.headers,
      ...Object.fromEntries(passed),
      accept,
      ...(hasBody && { 'content-type': 'application/json' }),
      [HOP_HEADER]: arrivedThrough ? `${arrivedThrough}, ${options.hop}` : options.hop,
    };
  }

  private tooLarge(limit: number): A2AError {
    this.end('limit');
    return agentLimitExceeded(
      'MAX_AGENT_BODY_BYTES',
      `${this.url} answered with a body larger than ${limit} bytes`,
    );
  }

  private failure(error: unknown, timedOut: string, otherwise: string): A2AError {
    if (this.ending === 'timeout') return invalidAgentResponse(`${this.url} ${timedOut}`);
    if (this.ending === 'abandoned') {
      return invalidAgentResponse(
        `the call to ${this.url} was abandoned: its client left or its relay stopped`,
      );
    }
    return invalidAgentResponse(`${otherwise || `${this.url} broke off its stream`}: ${causeOf(error)}`);
  }
}

/**
 * JSON as the simulator reads it from its own clients: no deeper than MAX_JSON_DEPTH, which keeps a
 * hostile answer from overflowing the stack wherever the task is serialised again.
 */
function readJson(url: string, text: string, what: 'answered' | 'sent a stream event'): unknown {
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  if (parsed.error.startsWith('JSON nested deeper')) {
    throw agentLimitExceeded('MAX_JSON_DEPTH', `${url} ${what} with ${parsed.error}`);
  }
  const malformed =
    what === 'answered' ? 'answered with malformed JSON' : 'sent a stream event that is not JSON';
  throw invalidAgentResponse(`${url} ${malformed}: ${snippet(text)}`);
}

/** What a 508 says, whichever binding's error shape it came in. */
function loopMessage(text: string): string {
  const parsed = parseJson(text);
  const error = parsed.ok && isRecord(parsed.value) ? parsed.value['error'] : undefined;
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : snippet(text);
}

function isAgentError(error: unknown): error is A2AError {
  return (error as A2AError | undefined)?.type === 'InvalidAgentResponseError';
}

function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJson(response: Response): boolean {
  const type = mediaType(response);
  return type === 'application/json' || type.endsWith('+json');
}

/** The start of an agent's body for an error message: white space folded, 120 characters at most. */
function snippet(text: string): string {
  const flat = text.slice(0, 1000).replace(/\s+/g, ' ').trim();
  return excerpt(flat, 120) || '(empty)';
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
