/**
 * One `message:stream` request read as it arrives, for the bench's stream clients: `node:http`
 * rather than `fetch`, whose web streams cost a client several times the CPU (BENCHMARKS.md), and
 * eventsource-parser for the frames.
 */
import { request as httpRequest, type Agent } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface StreamRequest {
  /** The server's base URL. */
  url: string;
  /** The JSON body of the `message:stream` request. */
  body: string;
  agent: Agent;
  signal: AbortSignal;
  onEvent(event: EventSourceMessage): void;
  /** Why the stream failed; not called for an abort. */
  onFail(error: unknown): void;
}

/** Resolves when the stream ends, fails or is aborted. */
export function readStream({ url, body, agent, signal, onEvent, onFail }: StreamRequest): Promise<void> {
  return new Promise((resolve) => {
    const fail = (error: unknown) => {
      if (!signal.aborted) onFail(error);
      resolve();
    };
    const request = httpRequest(
      `${url}/message:stream`,
      {
        method: 'POST',
        agent,
        signal,
        headers: {
          'Content-Type': 'application/json',
          'A2A-Version': '1.0',
          Accept: 'text/event-stream',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return fail(new Error(`HTTP ${response.statusCode}`));
        }
        const parser = createParser({ onEvent });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => parser.feed(chunk));
        response.on('end', resolve);
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}
