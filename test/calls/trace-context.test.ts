import { describe, expect, it } from 'vitest';
import {
  parseTraceparent,
  parseTracestate,
  traceContextOf,
  traceHeadersOf,
  traceparentOf,
} from '../../src/calls/trace-context.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('parseTraceparent (W3C Trace Context §3.2)', () => {
  it('reads a version 00 value of 55 characters', () => {
    expect(VALID).toHaveLength(55);
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID, flags: '01' });
  });

  it.each([
    ['uppercase hex', VALID.toUpperCase()],
    ['version 00 with more after it', `${VALID}-extra`],
    ['version 00 one character short', VALID.slice(0, 54)],
    ['version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['an all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['a repeated header, joined', `${VALID}, ${VALID}`],
    ['a short trace id', `00-${TRACE_ID.slice(2)}-${PARENT_ID}-0101`],
    ['no dashes', VALID.replace(/-/g, '_')],
    ['a huge value', `00-${'a'.repeat(100_000)}`],
    ['not a string', ['a', 'b']],
    ['nothing', undefined],
  ])('refuses %s', (_, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('reads a later version by its first 55 characters when a dash follows them (§3.2.4)', () => {
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-comes-next`)).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      flags: '01',
    });
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01x`)).toBeUndefined();
  });
});

describe('parseTracestate (§3.3)', () => {
  it('keeps a well-formed list as sent, multi-tenant keys and empty members included', () => {
    const value = 'rojo=00f067aa0ba902b7, congo=t61rcWkgMzE,,tenant@vendor=x';
    expect(parseTracestate(value)).toBe(value);
  });

  it.each([
    ['a member without =', 'rojo'],
    ['a repeated key', 'a=1,a=2'],
    ['an uppercase key', 'Rojo=1'],
    ['a value with =', 'a=b=c'],
    ['more than 32 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
    ['more than 512 characters', `a=${'x'.repeat(511)}`],
    ['only empty members', ' , '],
  ])('leaves out %s', (_, value) => {
    expect(parseTracestate(value)).toBeUndefined();
  });
});

describe("a call's trace", () => {
  it('is read from its headers, a malformed tracestate left out alone', () => {
    expect(traceContextOf({ traceparent: VALID, tracestate: 'a=1' })).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      flags: '01',
      state: 'a=1',
    });
    expect(traceContextOf({ traceparent: VALID, tracestate: 'A=1' })).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      flags: '01',
    });
    expect(traceContextOf({ tracestate: 'a=1' })).toBeUndefined();
  });

  it("is passed on with the call's own span as the parent when it has one, else its caller's", () => {
    const trace = { traceId: TRACE_ID, parentId: PARENT_ID, flags: '01', state: 'a=1' };
    expect(traceparentOf(trace)).toBe(VALID);
    expect(traceHeadersOf({ ...trace, spanId: 'b7ad6b7169203331' })).toEqual({
      traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01`,
      tracestate: 'a=1',
    });
  });
});
