/**
 * The `round-trip` workload's server (bench/families/round-trip.ts starts it on the server core): a
 * bare node:net server that reads a number of microseconds per line, spins that long, and answers
 * with an empty line. No HTTP, no JSON: the client measures what a wait of that length costs this
 * machine beyond the work itself. Prints `{"phase":"listening","port":N}` once it listens.
 */
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';

function spin(microseconds: number): void {
  const until = performance.now() + microseconds / 1000;
  while (performance.now() < until);
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  let pending = '';
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      spin(Number(pending.slice(0, end)));
      pending = pending.slice(end + 1);
      socket.write('\n');
    }
  });
  socket.on('error', () => socket.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ phase: 'listening', port })}\n`);
});
