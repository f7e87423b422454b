/** A small reader of `text/event-stream` responses, for the streams the page opens itself. */

/**
 * Calls `onData` with the parsed JSON `data` of each event of `response`'s body, as it arrives;
 * resolves when the stream ends.
 * @param {Response} response
 * @param {(data: any) => void} onData
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
      const data = block
        .split(/\r?\n|\r/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) onData(JSON.parse(data));
    }
  }
}
