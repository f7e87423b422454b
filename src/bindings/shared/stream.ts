/**
 * Pipes a task's stream, as chaos lets this connection see it, to an SSE response. A call that fails is refused before it returns a stream
 * and is answered as a normal error by the caller; once the stream starts, headers go out at once
 * (a resumed stream may have nothing to send until the task moves), and an error becomes the
 * stream's last frame.
 */
import type { ServerResponse } from 'node:http';
import { A2AError } from '../../domain/errors.js';
import type { DataItem, WireStream } from '../../calls/wire.js';
import { KeepAliveHub, SseWriter, sseFrame } from './sse.js';
import type { Exchange } from '../../calls/exchange.js';
import type { RenderFrame } from '../../calls/answer-copy.js';

export interface StreamEncoding {
  /** The JSON text sent as the `data:` of one item. */
  frame(item: DataItem): string;
  /** The last frame when the stream fails after it was committed. */
  errorFrame(error: A2AError): { data: unknown; event?: string };
}

export interface SseOptions {
  keepAlive: KeepAliveHub;
  encoding: StreamEncoding;
  /** Reports an unexpected error (a simulator bug) to the log. */
  report(error: unknown): void;
  exchange: Exchange;
}

/**
 * How the journal's copy, which keeps an event of the log as the event, encodes it again when read.
 * Made out here: a closure made in {@link pipeToSse} would share its scope, and the copy would keep
 * the whole stream alive (its response, its request, the task's log), long after it ended.
 */
function eventFrames(encoding: StreamEncoding): RenderFrame {
  return (event) => sseFrame(encoding.frame({ kind: 'event', event }), { id: event.seq });
}

export function pipeToSse(res: ServerResponse, stream: WireStream, options: SseOptions): void {
  const { keepAlive, encoding, report, exchange } = options;
  exchange.answer?.streamed(eventFrames(encoding));
  const writer = new SseWriter(res, keepAlive, exchange.answer);
  let committed = false;
  let aborted = false;
  const commit = () => {
    if (!committed) {
      committed = true;
      exchange.streaming();
      writer.open();
    }
  };
  const fail = (error: A2AError) => {
    commit();
    writeErrorFrame(writer, encoding, error);
  };
  res.on('close', () => stream.stop());
  stream.start({
    item(item) {
      if (!writer.isOpen && committed) return;
      if (item.kind === 'keep-alive') {
        commit();
        writer.comment('keep-alive');
        return;
      }
      try {
        const data = encoding.frame(item);
        commit();
        if (item.kind !== 'event' || item.synthetic) writer.event(data);
        // The stream's last event is encoded as such (v0.3 marks it final): the copy keeps its text.
        else writer.event(data, { id: item.event.seq }, item.last ? undefined : item.kept);
      } catch (error) {
        report(error);
        stream.stop();
        fail(new A2AError('InternalError', `Internal error while streaming: ${(error as Error).message}.`));
      }
    },
    end(error) {
      if (error) fail(error);
      else if (committed) writer.close();
      else fail(new A2AError('TaskNotFoundError', 'Task not found: it was evicted before its stream began.'));
    },
    open: commit,
    abort(mode) {
      if (mode === 'hang') {
        commit();
        writer.hang();
        return;
      }
      aborted = true;
      // Nothing sent yet: a bare reset, no response at all.
      if (!committed) return void res.socket?.resetAndDestroy();
      // A reset in the same tick would discard the events still in our buffers: once the socket has
      // handed them to the kernel (the write callback), the client receives them before the reset.
      // From inside that callback a reset turns into a plain close, hence the extra turn.
      writer.hang();
      const socket = res.socket;
      socket?.write(Buffer.alloc(0), () => setImmediate(() => socket.resetAndDestroy()));
    },
  });
  if (!stream.holdsHeaders && !aborted) commit();
}

/**
 * Answers with an event stream that holds only the error frame, for methods that always stream
 * (v0.3 `tasks/resubscribe`, as the SDK server answers it).
 */
export function sseError(
  res: ServerResponse,
  options: Pick<SseOptions, 'keepAlive' | 'encoding' | 'exchange'>,
  error: A2AError,
): void {
  const { keepAlive, encoding, exchange } = options;
  exchange.answer?.streamed();
  const writer = new SseWriter(res, keepAlive, exchange.answer);
  exchange.streaming();
  writer.open();
  writeErrorFrame(writer, encoding, error);
}

function writeErrorFrame(writer: SseWriter, encoding: StreamEncoding, error: A2AError): void {
  const frame = encoding.errorFrame(error);
  writer.event(JSON.stringify(frame.data), frame.event === undefined ? {} : { event: frame.event });
  writer.close();
}
