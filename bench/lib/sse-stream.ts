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
  /** Where a failure is counted; an abort is not one. */
  failures: StreamFailures;
}

/** How many streams failed, and why the first few did. */
export class StreamFailures {
  count = 0;
  readonly reasons: string[] = [];

  record(error: unknown): void {
    this.count++;
    if (this.reasons.length < 5) this.reasons.push(String(error));
  }
}

/** Resolves when the stream ends, fails or is aborted. */
export function readStream({ url, body, agent, signal, onEvent, failures }: StreamRequest): Promise<void> {
  return new Promise((resolve) => {
    const fail = (error: unknown) => {
      if (!signal.aborted) failures.record(error);
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
