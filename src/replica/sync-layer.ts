/**
 * A layer of every agent's call pipeline on a replica: each call first waits until this replica has
 * applied everything the shared log held when the call came, so a task made through one replica is
 * there when the next call reaches another; a change is answered once it is in the store. When the
 * store is away, or this replica fell behind the log and rebuilds, the call is refused with
 * UnavailableError in the binding's own shape, and a stream it serves ends with that error.
 */
import type { OperationName } from '../calls/operations.js';
import type { Layer } from '../calls/pipeline.js';
import type { WireStream } from '../calls/wire.js';
import type { A2AError } from '../domain/errors.js';

/** The operations whose answer says something changed: answered once the change is shared. */
const CHANGES: ReadonlySet<OperationName> = new Set([
  'send',
  'cancel',
  'create-push-config',
  'delete-push-config',
]);

interface SyncedReplica {
  sync(): Promise<void>;
  flushed(): Promise<void>;
  onBehind(listener: (error: A2AError, taskId?: string) => void): () => void;
}

export function syncLayer(replica: SyncedReplica): Layer {
  return async (call, next) => {
    await replica.sync();
    const answer = await next(call);
    if (CHANGES.has(call.operation.name)) await replica.flushed();
    const { name } = call.operation;
    return name === 'stream' || name === 'subscribe' ? endsWhenBehind(answer as WireStream, replica) : answer;
  };
}

/**
 * The stream, ended with the replica's error if it falls behind the shared log while the stream is
 * open (its events may have been trimmed before they reached this replica), or if its task is made
 * again from Redis: the client resumes from its last event id, here once rebuilt or through another
 * replica, rather than wait for events, or take a clean end for the task's.
 */
function endsWhenBehind(stream: WireStream, replica: SyncedReplica): WireStream {
  let unlisten: (() => void) | undefined;
  return {
    taskId: stream.taskId,
    holdsHeaders: stream.holdsHeaders,
    start(sink) {
      let over = false;
      const finish = () => {
        over = true;
        unlisten?.();
      };
      unlisten = replica.onBehind((error, taskId) => {
        if (over || (taskId !== undefined && taskId !== stream.taskId)) return;
        finish();
        stream.stop();
        sink.end(error);
      });
      stream.start({
        item: (item) => sink.item(item),
        open: () => sink.open(),
        end: (error) => {
          finish();
          sink.end(error);
        },
        abort: (mode) => {
          finish();
          sink.abort(mode);
        },
      });
    },
    stop() {
      unlisten?.();
      stream.stop();
    },
  };
}
