/**
 * Pipes a task's stream, as chaos lets this connection see it, to a server-streaming gRPC call:
 * one `StreamResponse` message per item. The response metadata goes out with the first message (or
 * when chaos opens the stream), so a call refused before that ends with a plain status, as an SSE
 * stream that has not committed answers a plain HTTP error.
 *
 * Chaos on gRPC: a drop in `fin` mode ends the call with UNAVAILABLE (what a client sees of a server
 * that went away: an OK status would tell it the stream is complete), `reset` with RST_STREAM and no
 * status, `hang` stops writing and leaves the call open; keep-alive items have no frame to become
 * (HTTP/2 has its own pings), so a keep-alive flood sends nothing.
 */
import { constants as http2 } from 'node:http2';
import type { Metadata, ServerWritableStream } from '@grpc/grpc-js';
import type { DataItem, WireStream } from '../../calls/wire.js';
import { A2AError } from '../../domain/errors.js';
import type { Exchange } from '../../calls/exchange.js';
import { resetCall } from './call.js';
import type { ErrorCodeProfile } from '../../domain/error-codes.js';
import { toGrpcStatus, unavailable } from './status.js';

export interface GrpcStreamOptions {
  /** The `StreamResponse` of one item, as proto-loader encodes it. */
  encode(item: DataItem): Record<string, unknown>;
  exchange: Exchange;
  responseMetadata: Metadata;
  /** Reports an unexpected error (a simulator bug) to the log. */
  report(error: unknown): void;
  /** Which edition's status codes errors get. */
  errorCodes: ErrorCodeProfile;
  /** The journal's end of the call: the HTTP status (0: no answer) and whether anything went out. */
  complete(status: number, answered: boolean): void;
}

export function pipeToGrpc(
  call: ServerWritableStream<unknown, unknown>,
  stream: WireStream,
  options: GrpcStreamOptions,
): void {
  const { encode, exchange, responseMetadata, report, complete, errorCodes } = options;
  let committed = false;
  let done = false;
  const commit = () => {
    if (committed) return;
    committed = true;
    exchange.streaming();
    call.sendMetadata(responseMetadata);
  };
  const finish = (status: Parameters<typeof call.emit>[1] | undefined) => {
    if (done) return;
    done = true;
    if (status) call.emit('error', status);
    else call.end();
    complete(200, true);
  };
  call.on('cancelled', () => {
    done = true;
    stream.stop();
    complete(committed ? 200 : 0, committed);
  });
  stream.start({
    item(item) {
      if (done || item.kind === 'keep-alive') return;
      try {
        const message = encode(item);
        commit();
        call.write(message);
      } catch (error) {
        report(error);
        stream.stop();
        const failure = new A2AError(
          'InternalError',
          `Internal error while streaming: ${(error as Error).message}.`,
        );
        finish(toGrpcStatus(failure, errorCodes));
      }
    },
    end(error) {
      if (error) finish(toGrpcStatus(error, errorCodes));
      // A drop in `fin` mode: chaos cut the stream before the task's end.
      else if (exchange.ended === 'cut')
        finish(unavailable('The stream was cut (simulated by chaos); resubscribe to resume.'));
      else if (committed) finish(undefined);
      else
        finish(
          toGrpcStatus(
            new A2AError('TaskNotFoundError', 'Task not found: it was evicted before its stream began.'),
            errorCodes,
          ),
        );
    },
    open: commit,
    abort(mode) {
      if (done) return;
      if (mode === 'hang') {
        // Silence on an open call: the client's deadline, or its giving up, ends it.
        commit();
        return;
      }
      done = true;
      // After the messages already written: an immediate reset would discard what is still queued.
      setImmediate(() => resetCall(call, http2.NGHTTP2_CANCEL));
      complete(committed ? 200 : 0, committed);
    },
  });
  if (!stream.holdsHeaders && !done) commit();
}
