/** A small reader of `text/event-stream` responses, for the streams the page opens itself. */

/**
 * Calls `onData` with the parsed JSON `data` of each event of `response`'s body, as it arrives,
 * and the event's `id:` (the simulator's seq, the cursor a resume starts after) if it has one;
 * resolves when the stream ends.
 * @param {Response} response
 * @param {(data: any, id: string | undefined) => void} onData
 */
export async function readSse(response, onData) {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    // Events end with a blank line; a line may end in CR LF, LF or CR.
    let end;
    while ((end = buffer.search(/\r?\n\r?\n|\r\r/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^(\r?\n\r?\n|\r\r)/, '');
      const lines = block.split(/\r?\n|\r/);
      const field = (/** @type {string} */ name) =>
        lines
          .filter((line) => line.startsWith(`${name}:`))
          .map((line) => line.slice(name.length + 1).replace(/^ /, ''));
      const data = field('data').join('\n');
      if (data) onData(JSON.parse(data), field('id').at(-1));
    }
  }
}
