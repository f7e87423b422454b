/**
 * The two ways the simulator reads a real agent over HTTP: one JSON answer, or an SSE stream of
 * JSON frames. Whatever goes wrong on the way (no connection, no answer in time, a body that is not
 * JSON, a media type that is not what was asked for) becomes InvalidAgentResponseError, HTTP 502:
 * the client hears what failed upstream, and the simulator carries on.
 */
import { createParser } from 'eventsource-parser';
import type { A2AError } from '../domain/errors.js';
import type { Clock } from '../lib/clock.js';
import type { UpstreamCall } from '../runtime/api.js';
import { invalidAgentResponse } from './dialect.js';

export interface HttpOptions {
  clock: Clock;
  /** How long the agent may take to start answering, ms. */
  timeoutMs: number;
  /** Sent with every call (e.g. the agent's credentials from `--proxy-header`). */
  headers: Record<string, string>;
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
  const response = await open(method, url, body, 'application/json', call, options);
  const text = await readText(response, url, options, call);
  if (!isJson(response)) {
    throw invalidAgentResponse(
      `${url} answered HTTP ${response.status} as ${mediaType(response) || 'no media type'}, not JSON: ${clip(text)}`,
    );
  }
  try {
    return {
      status: response.status,
      body: JSON.parse(text),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch {
    throw invalidAgentResponse(`${url} answered with malformed JSON: ${clip(text)}`);
  }
}

/**
 * POST (or GET) for an event stream. An answer that is JSON instead (an error before the stream
 * began) is handed to `onJson`, which throws what it says.
 */
export async function requestStream(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  call: UpstreamCall,
  options: HttpOptions,
  onJson: (answer: JsonAnswer) => never,
): Promise<Frames> {
  const response = await open(method, url, body, 'text/event-stream', call, options);
  if (mediaType(response) !== 'text/event-stream') {
    const text = await readText(response, url, options, call);
    if (isJson(response)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw invalidAgentResponse(`${url} answered with malformed JSON: ${clip(text)}`);
      }
      onJson({ status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') });
    }
    throw invalidAgentResponse(
      `${url} answered HTTP ${response.status} as ${mediaType(response) || 'no media type'}, not an event stream: ${clip(text)}`,
    );
  }
  return framesOf(response, url);
}

async function open(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  accept: string,
  call: UpstreamCall,
  options: HttpOptions,
): Promise<Response> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  call.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = options.clock.setTimer(options.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  try {
    return await fetch(url, {
      method,
      headers: {
        ...options.headers,
        ...call.headers,
        accept,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) throw invalidAgentResponse(`${url} did not answer within ${options.timeoutMs} ms`);
    throw invalidAgentResponse(`could not reach ${url}: ${causeOf(error)}`);
  } finally {
    timer.cancel();
    call.signal?.removeEventListener('abort', onAbort);
  }
}

/** The whole body, within the same time limit as the headers. */
async function readText(response: Response, url: string, options: HttpOptions, call: UpstreamCall) {
  let timedOut = false;
  const timer = options.clock.setTimer(options.timeoutMs, () => {
    timedOut = true;
    void response.body?.cancel().catch(() => {});
  });
  const onAbort = () => void response.body?.cancel().catch(() => {});
  call.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await response.text();
  } catch (error) {
    if (timedOut)
      throw invalidAgentResponse(`${url} did not finish its answer within ${options.timeoutMs} ms`);
    throw invalidAgentResponse(`${url} broke off its answer: ${causeOf(error)}`);
  } finally {
    timer.cancel();
    call.signal?.removeEventListener('abort', onAbort);
  }
}

async function* framesOf(response: Response, url: string): AsyncGenerator<unknown> {
  const pending: unknown[] = [];
  let malformed: A2AError | undefined;
  const parser = createParser({
    onEvent(event) {
      try {
        pending.push(JSON.parse(event.data));
      } catch {
        malformed ??= invalidAgentResponse(
          `${url} sent a stream event that is not JSON: ${clip(event.data)}`,
        );
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        // Cut mid-stream: what arrived whole has been handed on; the reader decides what is missing.
        return;
      }
      if (chunk.done) return;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      while (pending.length) yield pending.shift();
      if (malformed) throw malformed;
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}

function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJson(response: Response): boolean {
  const type = mediaType(response);
  return type === 'application/json' || type.endsWith('+json');
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat || '(empty)';
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
