/**
 * `GET /_sim/requests.har`: the journal as an HTTP Archive, written entry by entry as the client
 * reads it (a full journal holds tens of megabytes of answers), for a browser's network panel or
 * Insomnia to open. The HAR itself is calls/har.ts.
 */
import type { ServerResponse } from 'node:http';
import { harChunks } from '../calls/har.js';
import type { JournalEntry } from '../calls/exchange.js';

export async function sendHar(
  res: ServerResponse,
  entries: Iterable<JournalEntry>,
  options: { version: string; origin?: string },
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    // Saved as a file by a browser, which is how its network panel takes it in (drop or import).
    'content-disposition': 'attachment; filename="a2a-sim-requests.har"',
    'cache-control': 'no-store',
  });
  for (const chunk of harChunks(entries, options)) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  res.end();
}

/** Resolves when the client has taken what was written, or went away. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
