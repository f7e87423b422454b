/**
 * The example prompt of a scenario, as the catalog (`GET /_sim/scenarios`) lists it for the
 * dashboard: a skill's own example first, else one read off the trigger that plays the scenario.
 */
import { describe, expect, it } from 'vitest';
import { exampleOf, textOf } from '../../src/scenario/example.js';
import { BUILTIN_SCENARIO_DIR, loadScenarioDirs, parseScenario } from '../../src/scenario/load.js';
import type { RawScenario } from '../../src/scenario/schema.js';

async function scenario(extra: Partial<RawScenario>) {
  const raw = { description: 'A scenario', steps: [{ status: 'completed' }], ...extra };
  const { scenario } = await parseScenario('s', 's.json', JSON.stringify(raw));
  return scenario!;
}

describe('exampleOf', () => {
  it("takes the skill's first example", async () => {
    const s = await scenario({
      skill: { name: 'Weather', description: 'x', tags: [], examples: ['Weather in Oslo?', 'Rain?'] },
      match: [{ keywords: ['weather'] }],
    });
    expect(exampleOf(s)).toBe('Weather in Oslo?');
  });

  it('reads one off keywords, a literal text or a pattern, and checks that it matches', async () => {
    expect(exampleOf(await scenario({ match: [{ keywords: ['report', 'climate'] }] }))).toBe('report');
    expect(exampleOf(await scenario({ match: [{ text: 'book a (flight)?' }] }))).toBe('book a (flight)?');
    expect(exampleOf(await scenario({ match: [{ text: '/^\\W*(hi|hello|hey)\\b/i' }] }))).toBe('hi');
    expect(exampleOf(await scenario({ match: [{ text: '/(?:book|reserve)\\s+a\\s+flights?/i' }] }))).toBe(
      'book a flights',
    );
    expect(exampleOf(await scenario({ match: [{ text: '/fail|crash/', keywords: ['please'] }] }))).toBe(
      'fail please',
    );
  });

  it('gives none for a trigger that is not text, or a pattern with classes or repetitions', async () => {
    expect(exampleOf(await scenario({ match: [{ messageId: { prefix: 'tck-' } }] }))).toBeUndefined();
    expect(exampleOf(await scenario({ match: [{ metadata: { scenario: 'x' } }] }))).toBeUndefined();
    expect(exampleOf(await scenario({ match: [{ text: '/order #\\d+/' }] }))).toBeUndefined();
    expect(exampleOf(await scenario({ fallback: true }))).toBeUndefined();
    // The first rule gives none, the next one does.
    const second = await scenario({ match: [{ text: '/[a-z]{3}/' }, { keywords: ['calendar'] }] });
    expect(exampleOf(second)).toBe('calendar');
  });

  it('every built-in scenario that a text plays has an example that selects it', async () => {
    const { scenarios } = await loadScenarioDirs([BUILTIN_SCENARIO_DIR]);
    const textual = scenarios.filter((s) => s.match.some((c) => c.text || c.keywords));
    expect(textual.length).toBeGreaterThan(5);
    for (const s of textual) expect(exampleOf(s), s.id).toBeTruthy();
  });
});

describe('textOf', () => {
  it('keeps escaped characters as themselves and optional characters present', () => {
    expect(textOf('what is the weather today\\?')).toBe('what is the weather today?');
    expect(textOf('colou?r')).toBe('colour');
    expect(textOf('a.*b')).toBe('a b');
    expect(textOf('[abc]')).toBeUndefined();
  });
});
