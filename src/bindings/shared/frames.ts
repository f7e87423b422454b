/**
 * Stream frames as JSON text, each logged event encoded once per wire format. Every stream that
 * follows a task hears an event in the same loop over its followers, so the first stream encodes
 * it and the others reuse the text: a thousand subscribers to one task cost one encoding, not a
 * thousand. Items a connection makes up (chaos quirks) and snapshots are encoded each time.
 */
import type { DataItem } from '../../calls/wire.js';
import type { LoggedEvent } from '../../domain/types.js';
import type { JsonRpcId } from './jsonrpc.js';

/** `encode` as JSON text, remembering the last logged event's. */
export function encodedOnce(encode: (item: DataItem) => unknown): (item: DataItem) => string {
  let event: LoggedEvent | undefined;
  let last = false;
  let text = '';
  return (item) => {
    if (item.kind !== 'event' || item.synthetic) return JSON.stringify(encode(item));
    const isLast = item.last === true;
    if (item.event !== event || isLast !== last) {
      text = JSON.stringify(encode(item));
      event = item.event;
      last = isLast;
    }
    return text;
  };
}

/**
 * A JSON-RPC result around a result already encoded: the bytes `JSON.stringify(rpcResult(id, r))`
 * would give, without encoding `r` again for every stream.
 */
export function rpcResultFrame(id: JsonRpcId, resultJson: (item: DataItem) => string) {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  return (item: DataItem): string => `${head}${resultJson(item)}}`;
}
