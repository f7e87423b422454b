/**
 * An error answered straight onto a socket, for requests no express route ever sees (a refused
 * WebSocket upgrade, bytes Node cannot parse as HTTP, CONNECT): the `google.rpc.Status` body every
 * other refusal carries, then the connection closes.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { A2AError } from '../../domain/errors.js';
import { toRestStatus } from './errors.js';

export function answerOnSocket(socket: Duplex, error: A2AError, headers: readonly string[] = []): void {
  const { httpStatus, body } = toRestStatus(error);
  const text = JSON.stringify(body);
  socket.once('finish', () => socket.destroy());
  socket.end(
    [
      `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus] ?? 'Error'}`,
      'Connection: close',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(text)}`,
      ...headers,
      '',
      text,
    ].join('\r\n'),
  );
}
