/**
 * Picking a scenario for a message: metadata.scenario first, then rules by priority and load order,
 * then the fallback. Scenarios are compiled from real scenario source so conditions behave as loaded.
 */
import { atLine } from '../helpers/issues.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/types.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { Condition, Scenario } from '../../src/scenario/model.js';
import { conditionHolds, ScenarioRegistry, type MatchInput } from '../../src/scenario/registry.js';
import type { RawScenario } from '../../src/scenario/schema.js';

/** A compiled scenario `id` with the given match rules, priority or fallback flag. */
async function scenario(id: string, extra: Partial<RawScenario> = {}): Promise<Scenario> {
  const raw = { description: `Scenario ${id}`, steps: [{ status: 'completed' }], ...extra };
  const { scenario, issues } = await parseScenario(id, `${id}.json`, JSON.stringify(raw));
  expect(issues.map(atLine)).toEqual([]);
  return scenario!;
}

/** The compiled form of one match rule. */
async function condition(rule: NonNullable<RawScenario['match']>[number]): Promise<Condition> {
  return (await scenario('rule', { match: [rule] })).match[0]!;
}

const input = (text: string, overrides: Partial<MatchInput> = {}): MatchInput => ({
  text,
  messageId: 'msg-1',
  metadata: {},
  ...overrides,
});
const withMetadata = (metadata: JsonObject, text = 'anything') => input(text, { metadata });

/** The id of the scenario `registry` selects for `match`, and how. */
function selected(registry: ScenarioRegistry, match: MatchInput) {
  const selection = registry.select(match);
  return selection.kind === 'matched' ? `${selection.scenario.id} by ${selection.by}` : selection.kind;
}

describe('ScenarioRegistry.select', () => {
  it('selects the scenario named by metadata.scenario, over any matching rule', async () => {
    const registry = new ScenarioRegistry([
      await scenario('weather', { match: [{ keywords: ['weather'] }], priority: 10 }),
      await scenario('quiet'),
    ]);
    expect(selected(registry, withMetadata({ scenario: 'quiet' }, 'weather please'))).toBe(
      'quiet by metadata',
    );
  });

  it('reports an unknown metadata.scenario rather than falling back', async () => {
    const registry = new ScenarioRegistry([await scenario('echo', { fallback: true })]);
    expect(registry.select(withMetadata({ scenario: 'nope' }))).toEqual({ kind: 'unknown-id', id: 'nope' });
  });

  it('ignores a metadata.scenario that is not a string', async () => {
    const registry = new ScenarioRegistry([
      await scenario('weather', { match: [{ keywords: ['weather'] }] }),
    ]);
    expect(selected(registry, withMetadata({ scenario: 42 }, 'weather'))).toBe('weather by rule');
  });

  it('tries higher priorities first, whatever the load order', async () => {
    const registry = new ScenarioRegistry([
      await scenario('low', { match: [{ text: 'report' }], priority: -1 }),
      await scenario('default', { match: [{ text: 'report' }] }),
      await scenario('high', { match: [{ text: 'report' }], priority: 5 }),
    ]);
    expect(selected(registry, input('a report'))).toBe('high by rule');
  });

  it('keeps load order among equal priorities: the first loaded match wins', async () => {
    const scenarios = [
      await scenario('first', { match: [{ text: 'report' }] }),
      await scenario('second', { match: [{ text: 'report' }] }),
    ];
    expect(selected(new ScenarioRegistry(scenarios), input('a report'))).toBe('first by rule');
    expect(selected(new ScenarioRegistry([...scenarios].reverse()), input('a report'))).toBe(
      'second by rule',
    );
  });

  it('selects a scenario when any one of its rules matches', async () => {
    const registry = new ScenarioRegistry([
      await scenario('travel', { match: [{ keywords: ['flight'] }, { keywords: ['hotel'] }] }),
    ]);
    expect(selected(registry, input('book a hotel'))).toBe('travel by rule');
    expect(selected(registry, input('book a flight'))).toBe('travel by rule');
    expect(selected(registry, input('book a car'))).toBe('none');
  });

  it('uses the first fallback only when no rule matches', async () => {
    const registry = new ScenarioRegistry([
      await scenario('echo', { fallback: true }),
      await scenario('weather', { match: [{ keywords: ['weather'] }] }),
      await scenario('second-echo', { fallback: true }),
    ]);
    expect(selected(registry, input('the weather'))).toBe('weather by rule');
    expect(selected(registry, input('something else'))).toBe('echo by fallback');
  });

  it('selects nothing when no rule matches and there is no fallback', async () => {
    const registry = new ScenarioRegistry([
      await scenario('weather', { match: [{ keywords: ['weather'] }] }),
    ]);
    expect(registry.select(input('hello'))).toEqual({ kind: 'none' });
  });

  it('never selects a scenario without rules by rule', async () => {
    const registry = new ScenarioRegistry([await scenario('no-rules')]);
    expect(registry.select(input('no-rules'))).toEqual({ kind: 'none' });
    expect(registry.get('no-rules')?.id).toBe('no-rules');
    expect(registry.list().map((s) => s.id)).toEqual(['no-rules']);
  });

  // A regex flag such as `g` must not make matching depend on the previous message.
  it('gives the same answer for the same message every time, even for a /regex/g rule', async () => {
    const registry = new ScenarioRegistry([await scenario('global', { match: [{ text: '/foo/g' }] })]);
    const answers = Array.from({ length: 4 }, () => selected(registry, input('foo')));
    expect(answers).toEqual(Array(4).fill('global by rule'));
  });
});

describe('conditionHolds', () => {
  it('matches plain text as a case-insensitive substring, taken literally', async () => {
    const rule = await condition({ text: 'C++ (beta)' });
    expect(conditionHolds(rule, input('I write c++ (BETA) code'))).toBe(true);
    expect(conditionHolds(rule, input('I write c code'))).toBe(false);
    expect(conditionHolds(rule, input('I write C (beta)'))).toBe(false);
  });

  it('matches /regex/flags text as a regular expression with those flags', async () => {
    const anchored = await condition({ text: '/^hello\\b/i' });
    expect(conditionHolds(anchored, input('HELLO there'))).toBe(true);
    expect(conditionHolds(anchored, input('well, hello'))).toBe(false);
    const caseSensitive = await condition({ text: '/Hello/' });
    expect(conditionHolds(caseSensitive, input('Hello'))).toBe(true);
    expect(conditionHolds(caseSensitive, input('hello'))).toBe(false);
  });

  it('matches keywords as whole words, case-insensitively, including non-ASCII words', async () => {
    const rule = await condition({ keywords: ['weather', 'café', 'c.o.d'] });
    expect(conditionHolds(rule, input('What is the WEATHER like?'))).toBe(true);
    expect(conditionHolds(rule, input('un café, svp'))).toBe(true);
    expect(conditionHolds(rule, input('pay c.o.d'))).toBe(true);
    expect(conditionHolds(rule, input('weatherproof jacket'))).toBe(false);
    expect(conditionHolds(rule, input('cafés'))).toBe(false);
    expect(conditionHolds(rule, input('pay cxoxd'))).toBe(false);
  });

  it('matches a messageId prefix', async () => {
    const rule = await condition({ messageId: { prefix: 'test-' } });
    expect(conditionHolds(rule, input('', { messageId: 'test-123' }))).toBe(true);
    expect(conditionHolds(rule, input('', { messageId: 'prod-test-123' }))).toBe(false);
  });

  it('matches a messageId regular expression', async () => {
    const rule = await condition({ messageId: { regex: '^run-\\d+$' } });
    expect(conditionHolds(rule, input('', { messageId: 'run-42' }))).toBe(true);
    expect(conditionHolds(rule, input('', { messageId: 'run-42b' }))).toBe(false);
  });

  it('matches metadata keys with equal values, and "*" as any value of a present key', async () => {
    const rule = await condition({ metadata: { tier: 'gold', region: '*', limits: { max: 3 } } });
    const metadata = { tier: 'gold', region: 'eu', limits: { max: 3 }, extra: true };
    expect(conditionHolds(rule, withMetadata(metadata))).toBe(true);
    expect(conditionHolds(rule, withMetadata({ ...metadata, region: null }))).toBe(true);
    expect(conditionHolds(rule, withMetadata({ ...metadata, tier: 'silver' }))).toBe(false);
    expect(conditionHolds(rule, withMetadata({ ...metadata, limits: { max: 4 } }))).toBe(false);
    const { region: _region, ...withoutRegion } = metadata;
    expect(conditionHolds(rule, withMetadata(withoutRegion))).toBe(false);
  });

  it('compares metadata values by JSON type, not by their text', async () => {
    const rule = await condition({ metadata: { count: 1 } });
    expect(conditionHolds(rule, withMetadata({ count: 1 }))).toBe(true);
    expect(conditionHolds(rule, withMetadata({ count: '1' }))).toBe(false);
  });

  it('treats JSON objects with the same members in another order as equal metadata values', async () => {
    const rule = await condition({ metadata: { filter: { a: 1, b: 2 } } });
    expect(conditionHolds(rule, withMetadata({ filter: { b: 2, a: 1 } }))).toBe(true);
  });

  it('matches a skill against metadata.skillId', async () => {
    const rule = await condition({ skill: 'weather-report' });
    expect(conditionHolds(rule, withMetadata({ skillId: 'weather-report' }))).toBe(true);
    expect(conditionHolds(rule, withMetadata({ skillId: 'flight' }))).toBe(false);
    expect(conditionHolds(rule, withMetadata({}))).toBe(false);
  });

  it('requires every condition of a rule to hold', async () => {
    const rule = await condition({ keywords: ['weather'], messageId: { prefix: 'm-' }, skill: 'w' });
    const all = input('weather', { messageId: 'm-1', metadata: { skillId: 'w' } });
    expect(conditionHolds(rule, all)).toBe(true);
    expect(conditionHolds(rule, { ...all, text: 'rain' })).toBe(false);
    expect(conditionHolds(rule, { ...all, messageId: 'x-1' })).toBe(false);
    expect(conditionHolds(rule, { ...all, metadata: {} })).toBe(false);
  });
});
