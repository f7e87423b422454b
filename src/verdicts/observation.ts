/**
 * What the simulator saw one client do, call by call: the raw material of its verdicts. Every
 * binding's operations are read as the same few kinds, so a rule holds alike for REST, JSON-RPC
 * 1.0 and 0.3 and the gateway.
 */
import type { TaskState } from '../domain/types.js';
import type { WireRequest } from '../runtime/api.js';

export type CallKind = 'send' | 'stream' | 'get' | 'subscribe' | 'cancel' | 'list' | 'card' | 'other';

/** One event a stream delivered to the client. */
export interface Delivered {
  /** Its seq; none for a snapshot or a made-up (quirk) event. */
  seq?: number;
  /** The state a status (or snapshot) showed. */
  state?: TaskState;
  /** Made up by a chaos quirk, not in the task's log. */
  synthetic?: boolean;
}

export interface Observation {
  /** Clock time the call arrived, epoch ms. */
  atMs: number;
  kind: CallKind;
  /** The task the call was about, or the one it created. */
  taskId?: string;
  /** For a message: the task its `taskId` named (a follow-up), if any. */
  continues?: string;
  /** For a resume: the cursor it carried (`afterSeq`, `Last-Event-ID`). */
  cursor?: number;
  /** For a card: whether it was asked for conditionally (`If-None-Match`, `If-Modified-Since`). */
  conditional?: boolean;
  /** The task's state as the answer showed it (a non-streamed answer). */
  state?: TaskState;
  /** The call was refused. */
  error?: { type: string; reason: string; retryAfterMs?: number };
  /** What a stream delivered, in order; set for streamed answers. */
  delivered?: Delivered[];
  /** How a stream ended: cleanly, with an error frame, cut by chaos, or closed by the client. */
  ended?: 'clean' | 'error' | 'cut' | 'closed';
  /** Clock time the answer ended, epoch ms. */
  endedAtMs?: number;
  /** The wire request behind it, which chaos's faults name. */
  request?: WireRequest;
}

/** The operations of every binding, by what they do. */
const KINDS: ReadonlyMap<string, CallKind> = new Map<string, CallKind>([
  ['POST /message:send', 'send'],
  ['SendMessage', 'send'],
  ['message/send', 'send'],
  ['POST /message:stream', 'stream'],
  ['SendStreamingMessage', 'stream'],
  ['message/stream', 'stream'],
  ['GET /tasks/{id}', 'get'],
  ['GetTask', 'get'],
  ['tasks/get', 'get'],
  ['GET /tasks/{id}:subscribe', 'subscribe'],
  ['POST /tasks/{id}:subscribe', 'subscribe'],
  ['SubscribeToTask', 'subscribe'],
  ['tasks/resubscribe', 'subscribe'],
  ['POST /tasks/{id}:cancel', 'cancel'],
  ['CancelTask', 'cancel'],
  ['tasks/cancel', 'cancel'],
  ['GET /tasks', 'list'],
  ['ListTasks', 'list'],
]);

export function callKindOf(operation: string): CallKind {
  return KINDS.get(operation) ?? 'other';
}
