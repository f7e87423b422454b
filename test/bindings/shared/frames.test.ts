/** Stream frames: each logged event encoded once per wire format, byte for byte what encoding it anew gives. */
import { describe, expect, it } from 'vitest';
import type { DataItem } from '../../../src/calls/wire.js';
import { encodedOnce, rpcResultFrame } from '../../../src/bindings/shared/frames.js';
import { rpcResult } from '../../../src/bindings/shared/jsonrpc.js';
import { toWireStreamResponse } from '../../../src/bindings/v1/codec.js';
import type { LoggedEvent } from '../../../src/domain/types.js';

const logged = (seq: number, state: 'working' | 'completed'): LoggedEvent => ({
  seq,
  taskId: 't-1',
  contextId: 'c-1',
  atMs: 0,
  event: { kind: 'status', status: { state, timestamp: '2026-12-01T00:00:00.000Z' } },
});

describe('encodedOnce', () => {
  it('encodes a logged event once however many streams carry it, and anew for the next', () => {
    const encoded: DataItem[] = [];
    const frame = encodedOnce((item) => (encoded.push(item), toWireStreamResponse(item)));
    const first: DataItem = { kind: 'event', event: logged(2, 'working') };
    const texts = [frame(first), frame({ ...first }), frame({ ...first })];
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toBe(JSON.stringify(toWireStreamResponse(first)));
    expect(encoded).toHaveLength(1);
    frame({ kind: 'event', event: logged(3, 'completed') });
    expect(encoded).toHaveLength(2);
  });

  it('encodes again where the frame differs: the stream-ending flag, and items a connection made up', () => {
    const encoded: DataItem[] = [];
    const frame = encodedOnce((item) => (encoded.push(item), { last: 'last' in item && item.last === true }));
    const event = logged(2, 'completed');
    expect(frame({ kind: 'event', event })).toBe('{"last":false}');
    expect(frame({ kind: 'event', event, last: true })).toBe('{"last":true}');
    frame({ kind: 'event', event, last: true, synthetic: true });
    frame({ kind: 'event', event, last: true, synthetic: true });
    expect(encoded).toHaveLength(4);
  });
});

describe('rpcResultFrame', () => {
  it.each(['req-1', 7, null, 'quote " and \\ and \u2028'])(
    'gives what JSON.stringify(rpcResult) gives for id %j',
    (id) => {
      const item: DataItem = { kind: 'event', event: logged(2, 'working') };
      const frame = rpcResultFrame(id, encodedOnce(toWireStreamResponse));
      expect(frame(item)).toBe(JSON.stringify(rpcResult(id, toWireStreamResponse(item))));
    },
  );
});
