/**
 * Hostile inputs for the fuzz suite, as fast-check arbitraries: names a client picks (methods,
 * states, tenants, ids) mixed with prototype member names, percent-escapes and odd text; any JSON
 * value, and mutations of a given one (a field of the wrong type, dropped, added, nested 70 deep);
 * headers and query strings as clients write them and as they should not. requests.ts builds the
 * requests of each binding from these.
 */
import fc from 'fast-check';

/** Seed and size of every property; `npm run fuzz` raises FUZZ_RUNS. */
export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] ?? 20260101);
export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] ?? 0);

/** `fc.assert` parameters: a fixed seed, `runs` runs unless FUZZ_RUNS says otherwise. */
export function fuzzParams(runs: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns: FUZZ_RUNS || runs, endOnFailure: true };
}

/** A test timeout that grows with the number of runs. */
export function fuzzTimeout(runs: number, msPerRun = 40): number {
  return 30_000 + (FUZZ_RUNS || runs) * msPerRun;
}

export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'toLocaleString',
  '__defineGetter__',
  'isPrototypeOf',
  'prototype',
];

/** Text a client should never need to send, and sometimes does. */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...PROTOTYPE_NAMES,
    '',
    ' ',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '%00',
    '..',
    '../..',
    '//',
    '\u0000',
    '\uD800',
    '\uFEFF',
    'ünïcödé',
    '😀',
    'a|b:c',
    'agent:explore|tenant:x',
    '*',
    'null',
    'undefined',
    'NaN',
    '-1',
    '1e400',
    '0x10',
    'TASK_STATE_WORKING',
    'ROLE_USER',
    'user',
    'x'.repeat(5000),
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** A path segment: plain, or percent-escaped, or broken. */
export const segment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('tasks', 'message:send', 'message:stream', 'extendedAgentCard', 'pushNotificationConfigs'),
  oddText.map((text) => encodeSegment(text)),
  fc.constantFrom('%ZZ', '%E0%A4%A', '%', '%2F', '%2e%2e', 'a%00b', 't-1:cancel', 't-1:subscribe', ':cancel'),
);

/** encodeURIComponent, which throws on a lone surrogate: those go as they are, to be refused. */
export function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[^\x21-\x7e]/g, '%');
  }
}

export const httpMethod: fc.Arbitrary<string> = fc.constantFrom(
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
);

// ---------------------------------------------------------------------------------------------
// JSON: any value, and mutations of the real request shapes

/** A JSON value nested `depth` levels: past the parser's limit of 64 when `depth` > 64. */
export function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    1e308,
    '',
    [],
    {},
    [null],
    { __proto__: null, constructor: 1 },
    JSON.parse('{"__proto__": {"polluted": true}}'),
    'x'.repeat(70_000),
  ),
  oddText,
  fc.integer({ min: 60, max: 80 }).map((depth) => nested(depth)),
);

type Json = unknown;

/** Every path to a value inside `root`: `[]` is the root itself. */
function pathsOf(root: Json): (string | number)[][] {
  const paths: (string | number)[][] = [[]];
  const walk = (value: Json, path: (string | number)[]) => {
    if (Array.isArray(value)) value.forEach((v, i) => (paths.push([...path, i]), walk(v, [...path, i])));
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) (paths.push([...path, k]), walk(v, [...path, k]));
    }
  };
  walk(root, []);
  return paths;
}

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'drop'; at: number }
  | { kind: 'add'; at: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'kind', 'id', 'tenant', 'metadata'), fc.string()),
    value: hostileValue,
  }),
);

/** A deep copy of `root` with `m` applied; keys are defined, never set, so `__proto__` stays a key. */
function mutate(root: Json, m: Mutation): Json {
  const copy = structuredClone(root) as Json;
  const paths = pathsOf(copy);
  const path = paths[m.at % paths.length]!;
  if (path.length === 0) return m.kind === 'replace' ? m.value : copy;
  const parent = path.slice(0, -1).reduce<any>((value, key) => value[key], copy);
  const key = path[path.length - 1]!;
  if (m.kind === 'replace')
    Object.defineProperty(parent, key, { value: m.value, enumerable: true, writable: true });
  else if (m.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else {
    const target = parent[key];
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true });
    }
  }
  return copy;
}

/** `base` as it is (half the time), or with one to three mutations. */
export function mutated(base: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const mutations = fc.oneof(fc.constant([]), fc.array(mutation, { minLength: 1, maxLength: 3 }));
  return fc.tuple(base, mutations).map(([value, ms]) => ms.reduce(mutate, value));
}

export const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
];

// ---------------------------------------------------------------------------------------------
// Headers

/**
 * Pairs for `X-Sim-Chaos`: real keys (some in their older spellings) with good and bad values, and
 * keys that do not exist.
 */
export const chaosHeader: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.tuple(
        fc.constantFrom(
          'drop-after-events',
          'duplicate-late-by',
          'errors-on-call',
          'delivery-fail-first',
          'drop-after',
        ),
        fc.constantFrom('0', '1', '3', '-1', 'x', '1.5', ''),
      ),
      fc.tuple(
        fc.constantFrom(
          'drop-probability',
          'duplicate-probability',
          'errors-rate',
          'delivery-duplicate',
          'delivery-out-of-order',
          'duplicate',
        ),
        fc.constantFrom('0', '0.5', '1', '2', 'NaN', '-0'),
      ),
      fc.tuple(
        fc.constantFrom(
          'latency-first-byte',
          'latency-per-event',
          'drop-after-ms',
          'errors-retry-after',
          'delivery-delay',
          'jitter',
        ),
        fc.constantFrom(
          '0ms',
          '5ms',
          '20',
          '1s',
          '1000h',
          '2147483648',
          '-1s',
          'soon',
          '1e3ms',
          '0..5ms',
          '5..1ms',
          '1..1000h',
          '..',
        ),
      ),
      fc.tuple(fc.constant('drop-mode'), fc.constantFrom('fin', 'reset', 'hang', 'x')),
      fc.tuple(
        fc.constantFrom('errors-kind', 'error'),
        fc.constantFrom('503', '429', '500', 'rpc-internal', 'empty', 'reset', '418'),
      ),
      fc.tuple(
        fc.constant('quirks'),
        fc.constantFrom('unknown-state', 'late-status+final-snapshot', 'keep-alive-flood', 'x'),
      ),
      fc.tuple(
        fc.constantFrom('profile', 'off'),
        fc.constantFrom('flaky-mobile', 'lossy-proxy', 'none', 'off', 'nope', ''),
      ),
      fc.tuple(
        fc.constantFrom(...PROTOTYPE_NAMES),
        fc.option(fc.constantFrom('1', 'x', ''), { nil: undefined }),
      ),
      fc.tuple(oddText, fc.option(oddText, { nil: undefined })),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((pairs) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join(', '));

/**
 * A header value: mostly what a client typically sends (`typical`, undefined for none), sometimes
 * another sensible one or none, sometimes odd text.
 */
const headerValue = (typical: string | undefined, ...sensible: string[]) =>
  fc.oneof(
    { weight: 16, arbitrary: fc.constant(typical) },
    { weight: 3, arbitrary: fc.constantFrom(undefined, ...sensible) },
    { weight: 1, arbitrary: oddText.filter((text) => text.length < 200) },
  );

/** Request headers as an HTTP client library can send them (values in printable ASCII). */
export function headers(extra: Record<string, fc.Arbitrary<string | undefined>> = {}) {
  return fc
    .record({
      'Content-Type': headerValue(
        'application/json',
        'application/a2a+json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ),
      Accept: headerValue(undefined, 'application/json', 'text/event-stream', 'application/a2a+json', '*/*'),
      'A2A-Version': headerValue(undefined, '1.0', '0.3', '0.3.0', '1.0.1', '2.0', '', ' 1.0 '),
      'X-Sim-Chaos': fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, chaosHeader),
      'Last-Event-ID': headerValue(undefined, '0', '1', '3', '999999', '-1', 'abc'),
      'X-API-Key': headerValue(undefined, 'key-1', 'key-2', ''),
      'X-Workspace-ID': headerValue(undefined, 'ws-1', 'ws-2', 'default', '*'),
      'A2A-Extensions': headerValue(undefined, 'https://example.invalid/ext', ''),
      ...extra,
    })
    .map(
      (all) =>
        Object.fromEntries(
          Object.entries(all).flatMap(([k, v]) => (v === undefined ? [] : [[k, printable(v)]])),
        ) as Record<string, string>,
    );
}

/** What an HTTP client library sends in a header: printable ASCII (raw bytes go over node:net). */
function printable(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?');
}

/** A query string (with its `?`), of the parameters the bindings read and others. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'pageSize',
          'pageToken',
          'historyLength',
          'includeArtifacts',
          'status',
          'contextId',
          'statusTimestampAfter',
          'afterSeq',
          'A2A-Version',
          'token',
          'page_size',
          'history_length',
        ),
        oddText,
      ),
      fc.oneof(
        fc.constantFrom('1', '0', '-1', '100', '101', 'true', 'x', '', '1e3', ...TASK_STATES),
        oddText,
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length ? `?${pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&')}` : '',
  );
