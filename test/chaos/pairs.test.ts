/**
 * Chaos settings as `key=value` pairs: one key per profile field, its path in kebab case; delays as
 * a duration or a `min..max` range; the older spellings, each with exactly its old meaning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadChaosFile } from '../../src/chaos/catalog.js';
import { parseChaosPairs } from '../../src/chaos/pairs.js';
import { compilePlan } from '../../src/chaos/plan.js';
import { ChaosProfileFile, PROFILE_FIELDS, type RawChaosProfile } from '../../src/chaos/profile.js';
import { BUILTIN_SCENARIO_DIR } from '../../src/scenario/load.js';

const settings = (text: string) => parseChaosPairs(text).settings;

const KEYS: [pair: string, settings: RawChaosProfile][] = [
  ['latency-first-byte=800ms', { latency: { firstByte: 800 } }],
  ['latency-per-event=0..50ms', { latency: { perEvent: { min: 0, max: 50 } } }],
  ['drop-after-events=3', { drop: { afterEvents: 3 } }],
  ['drop-after-ms=5s', { drop: { afterMs: 5000 } }],
  ['drop-probability=0.1', { drop: { probability: 0.1 } }],
  ['drop-mode=reset', { drop: { mode: 'reset' } }],
  ['drop-resume-within=50ms', { drop: { resumeWithin: 50 } }],
  ['duplicate-probability=0.2', { duplicate: { probability: 0.2 } }],
  ['duplicate-late-by=2', { duplicate: { lateBy: 2 } }],
  ['errors-kind=429', { errors: { kind: '429' } }],
  ['errors-rate=0.3', { errors: { rate: 0.3 } }],
  ['errors-on-call=2', { errors: { onCall: 2 } }],
  ['errors-retry-after=2s', { errors: { retryAfter: 2000 } }],
  ['quirks=unknown-state+late-status', { quirks: ['unknown-state', 'late-status'] }],
  ['delivery-fail-first=2', { delivery: { failFirst: 2 } }],
  ['delivery-duplicate=0.2', { delivery: { duplicate: 0.2 } }],
  ['delivery-out-of-order=0.1', { delivery: { outOfOrder: 0.1 } }],
  ['delivery-delay=1s', { delivery: { delay: 1000 } }],
  ['card-signature=wrong-key', { card: { signature: 'wrong-key' } }],
];
const keyOf = (pair: string) => pair.split('=')[0]!;

describe('pair keys', () => {
  it.each(KEYS)('%s sets %j, a value a profile file may hold', (pair, expected) => {
    expect(settings(pair)).toEqual(expected);
    expect(ChaosProfileFile.safeParse(expected).success).toBe(true);
  });

  it('names each profile field by its path in kebab case, and nothing else', () => {
    const kebab = (path: readonly string[]) => path.join('-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    expect(PROFILE_FIELDS.map((f) => kebab(f.path))).toEqual(KEYS.map(([pair]) => keyOf(pair)));
  });

  it('has a row in docs/chaos.md for each key, with its profile path', () => {
    const page = readFileSync(fileURLToPath(new URL('../../docs/chaos.md', import.meta.url)), 'utf8');
    PROFILE_FIELDS.forEach(({ path }, i) => {
      expect(page).toMatch(new RegExp(`\\| \`${keyOf(KEYS[i]![0])}\` +\\| \`${path.join('.')}\` +\\|`));
    });
  });

  it('lists the keys, by their new names, when one is unknown', () => {
    expect(() => parseChaosPairs('drop-after-evnts=3')).toThrow(
      `unknown key "drop-after-evnts"; use profile, off, ${KEYS.map(([pair]) => keyOf(pair)).join(', ')} (`,
    );
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'refuses %s=1 as an unknown key, and reads a bare %s as a profile name',
    (key) => {
      expect(() => parseChaosPairs(`${key}=1`)).toThrow(`unknown key "${key}"`);
      expect(parseChaosPairs(key)).toEqual({ profile: key });
    },
  );

  // flaky-mobile is left out: its normal and exponential delays have no text form.
  it.each([
    [
      'lossy-proxy',
      'drop-after-events=4, drop-mode=fin, errors-kind=503, errors-rate=0.2, errors-retry-after=2s',
    ],
    ['flaky-backend', 'errors-kind=503, errors-rate=0.33, errors-retry-after=1s'],
    ['hanging-proxy', 'drop-after-ms=10s, drop-mode=hang'],
    ['duplicate-storm', 'duplicate-probability=0.5, duplicate-late-by=2'],
    ['quirky-agent', 'quirks=unknown-state+late-status+final-snapshot+keep-alive-flood'],
  ])('plans the built-in %s the same from its file as from "%s"', async (name, pairs) => {
    const { profile } = await loadChaosFile(join(BUILTIN_SCENARIO_DIR, `${name}.chaos.yaml`));
    expect(compilePlan(name, settings(pairs)!)).toEqual(compilePlan(name, profile!));
  });
});

describe('delay values', () => {
  it.each([
    ['50ms', 50],
    ['20', 20],
    ['0..50ms', { min: 0, max: 50 }],
    ['500ms..2s', { min: 500, max: 2000 }],
    ['1..2s', { min: 1000, max: 2000 }],
    ['20..30', { min: 20, max: 30 }],
    [' 5ms .. 5ms ', { min: 5, max: 5 }],
  ])('latency-per-event=%s is %j', (value, delay) => {
    expect(settings(`latency-per-event=${value}`)).toEqual({ latency: { perEvent: delay } });
  });
});

describe('the older spellings', () => {
  const ALIASES: [old: string, now: string, settings: RawChaosProfile][] = [
    ['latency=800ms', 'latency-first-byte=800ms', { latency: { firstByte: 800 } }],
    ['jitter=300ms', 'latency-per-event=0..300ms', { latency: { perEvent: { min: 0, max: 300 } } }],
    ['drop-after=3', 'drop-after-events=3', { drop: { afterEvents: 3 } }],
    ['drop-rate=0.1', 'drop-probability=0.1', { drop: { probability: 0.1 } }],
    ['duplicate=0.2', 'duplicate-probability=0.2', { duplicate: { probability: 0.2 } }],
    ['duplicate-late=2', 'duplicate-late-by=2', { duplicate: { lateBy: 2 } }],
    ['error=rpc-internal', 'errors-kind=rpc-internal', { errors: { kind: 'rpc-internal' } }],
    ['error-rate=0.3', 'errors-rate=0.3', { errors: { rate: 0.3 } }],
    ['error-on=2', 'errors-on-call=2', { errors: { onCall: 2 } }],
    ['retry-after=1500ms', 'errors-retry-after=1500ms', { errors: { retryAfter: 1500 } }],
    ['push-fail-first=2', 'delivery-fail-first=2', { delivery: { failFirst: 2 } }],
    ['push-duplicate=0.2', 'delivery-duplicate=0.2', { delivery: { duplicate: 0.2 } }],
    ['push-out-of-order=0.1', 'delivery-out-of-order=0.1', { delivery: { outOfOrder: 0.1 } }],
    ['push-delay=500ms', 'delivery-delay=500ms', { delivery: { delay: 500 } }],
  ];

  it.each(ALIASES)('%s still means %s', (old, now, expected) => {
    expect(settings(old)).toEqual(expected);
    expect(settings(now)).toEqual(expected);
  });

  it('sets the same field as the new key, the later pair winning', () => {
    expect(settings('drop-after=3, drop-after-events=4')).toEqual({ drop: { afterEvents: 4 } });
    expect(settings('latency-per-event=5..9ms, jitter=3ms')).toEqual({
      latency: { perEvent: { min: 0, max: 3 } },
    });
  });
});

const MAX = 'longer than the maximum, 2147483647ms';

it.each([
  ['latency-first-byte=50..10ms', '"latency-first-byte" must be a range min..max with min ≤ max'],
  ['delivery-delay=..5ms', '"delivery-delay": expected a duration'],
  ['latency-per-event=1..2..3ms', '"latency-per-event": expected a duration'],
  ['latency-per-event=soon', '"latency-per-event": expected a duration like "500ms"'],
  ['latency-first-byte=1000h', MAX],
  ['latency-per-event=0..1000h', MAX],
  ['delivery-delay=1000..2000h', MAX],
  ['errors-retry-after=2147483648', MAX],
  // The older spellings are refused as before, naming the key as written.
  ['jitter=0..50ms', '"jitter": expected a duration'],
  ['latency=0..50ms', '"latency": expected a duration'],
  ['push-delay=0..50ms', '"push-delay": expected a duration'],
  ['error-on=0', '"error-on" must be a whole number of 1 or more, got "0"'],
  ['error=418', '"error" must be one of'],
  ['drop-rate=2', '"drop-rate" must be a probability from 0 to 1, got "2"'],
  ['jitter', '"jitter" needs a value'],
  ['jitter=597h', MAX],
  ['latency=1000h', MAX],
  ['retry-after=2147483648', MAX],
  ['push-delay=1000h', MAX],
])('refuses %s: %s', (pair, problem) => {
  expect(() => parseChaosPairs(pair)).toThrow(problem);
});
