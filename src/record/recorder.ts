/**
 * Records a real agent through the proxy: collects the conversations as they happen and writes
 * them when the recording stops (Ctrl-C, `POST /_sim/record/stop`, or the end of the client command),
 * and with `har`, the session's calls as an HTTP Archive too.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JournalEntry } from '../calls/exchange.js';
import { harChunks } from '../calls/har.js';
import type { Clock } from '../lib/clock.js';
import type { ProxyService } from '../runtime/proxy.js';
import type { TaskStore } from '../store/task-store.js';
import type { CardSummary } from '../upstream/card.js';
import { ConversationLog } from './conversations.js';
import { writeRecording, type MatchBy } from './write.js';

export interface RecordingOptions {
  out: string;
  match: MatchBy;
  redact: readonly string[];
  source: { url: string; binding: string; card?: CardSummary; name?: string };
  clock: Clock;
  /** What the conversations may hold until the recording stops. */
  maxBytes: number;
  /** Where to write the calls as HAR, with what gives them (the request journal) and the version. */
  har?: { file: string; calls: () => Iterable<JournalEntry>; version: string };
}

export interface RecordingResult {
  /** The files written: the scenarios, then the agent file. */
  files: string[];
  /** Conversations recorded (the same one twice counts twice). */
  conversations: number;
  /** Conversations left out, or cut short and left out, once the recording held its most (`maxBytes`). */
  leftOut: number;
  /** The HAR file written, when one was asked for. */
  har?: string;
}

export class Recording {
  private readonly log: ConversationLog;
  private readonly stopListeners: ((result: RecordingResult) => void)[] = [];

  constructor(
    proxy: ProxyService,
    store: TaskStore,
    private readonly options: RecordingOptions,
  ) {
    this.log = new ConversationLog(proxy, store, options.maxBytes);
  }

  /** Writes what was recorded so far; may be called again, and writes the files anew. */
  async stop(): Promise<RecordingResult> {
    const conversations = this.log.list();
    const files = await writeRecording(conversations, {
      ...this.options,
      date: new Date(this.options.clock.now()).toISOString().slice(0, 10),
    });
    const { har } = this.options;
    if (har) {
      await mkdir(path.dirname(har.file), { recursive: true });
      // An iterable is written as it is read: one entry in memory at a time, not the whole archive.
      await writeFile(har.file, harChunks(har.calls(), { version: har.version }));
    }
    const result = {
      files,
      conversations: conversations.length,
      leftOut: this.log.skipped,
      ...(har && { har: har.file }),
    };
    for (const listener of this.stopListeners) listener(result);
    return result;
  }

  /** Called after each stop, with what it wrote (the record command ends then). */
  onStop(listener: (result: RecordingResult) => void): void {
    this.stopListeners.push(listener);
  }
}
