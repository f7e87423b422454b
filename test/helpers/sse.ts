/** A real SSE client for tests: fetch plus eventsource-parser, read one event at a time. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  /** `data` parsed as JSON. */
  json: any;
}

export class SseReader {
  private readonly queue: SseEvent[] = [];
  private readonly comments: string[] = [];
  private waiting: (() => void) | undefined;
  private done = false;
  private failure: unknown;

  constructor(readonly response: Response) {
    const parser = createParser({
      onEvent: (event: EventSourceMessage) => {
        this.queue.push({ ...event, json: JSON.parse(event.data) });
        this.wake();
      },
      onComment: (comment) => this.comments.push(comment.trim()),
    });
    void this.pump(parser);
  }

  get keepAlives(): number {
    return this.comments.filter((c) => c === 'keep-alive').length;
  }

  /** The next event, or undefined once the server closed the stream. */
  async next(): Promise<SseEvent | undefined> {
    while (this.queue.length === 0 && !this.done)
      await new Promise<void>((resolve) => (this.waiting = resolve));
    if (this.queue.length) return this.queue.shift();
    if (this.failure) throw this.failure;
    return undefined;
  }

  /** Every remaining event, until the server closes the stream. */
  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let e = await this.next(); e; e = await this.next()) events.push(e);
    return events;
  }

  /** Events already received, without waiting. */
  drain(): SseEvent[] {
    return this.queue.splice(0);
  }

  get closed(): boolean {
    return this.done;
  }

  cancel(): Promise<void> {
    return this.response.body?.cancel() ?? Promise.resolve();
  }

  private async pump(parser: ReturnType<typeof createParser>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      this.failure = error;
    }
    this.done = true;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}

/** POSTs JSON and returns an SSE reader (or throws with the body when the answer is not a stream). */
export async function postSse(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<SseReader> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return readerOf(response);
}

export async function getSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  return readerOf(await fetch(url, { headers: { Accept: 'text/event-stream', ...headers } }));
}

async function readerOf(response: Response): Promise<SseReader> {
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    throw new Error(`expected an event stream, got ${response.status}: ${await response.text()}`);
  }
  return new SseReader(response);
}
