/**
 * The agent cards: the simulator's card check (`POST /_sim/cards/check`), which knows what a
 * client reading a card as v1.0 or v0.3 needs, and the dashboard's card view in headless
 * Chromium: the root agent's card and skills by version, a defined agent's, and the problems of a
 * card that has one.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCard } from '../../src/agents/card-check.js';
import { describeInBrowser, openPage, screenshot, SHOWN } from './browser.js';
import { startSimWith, type TestSim } from '../helpers/sim.js';
import { admin, getJson } from '../helpers/wire.js';

/** An agent whose card lists a skill with no tags: a v1.0 client needs at least one. */
const UNTAGGED = [
  'name: Untagged',
  'description: An agent whose skill has no tags.',
  'scenarios: [weather]',
  'skills:',
  '  - id: forecast',
  '    name: Forecast',
  '    description: The weather.',
].join('\n');

let t: TestSim;
beforeAll(async () => {
  t = await startSimWith({ 'untagged.agent.yaml': UNTAGGED });
});
afterAll(() => t.close());

const check = (card: unknown, version: string) => admin(t, 'POST', '/cards/check', { card, version });
const errorsOf = <T extends { severity: string }>(problems: T[]) =>
  problems.filter((p) => p.severity === 'error');

describe('POST /_sim/cards/check', () => {
  it.each(['1.0', '0.3'] as const)('finds no error in the root card as served for %s', async (version) => {
    const card = (await getJson(t, '/.well-known/agent-card.json', { 'A2A-Version': version })).body;
    const { status, body } = await check(card, version);
    expect(status).toBe(200);
    expect(errorsOf(body.problems)).toEqual([]);
    // Served on 127.0.0.1: a client elsewhere could not reach it, which a warning says.
    expect(body.problems[0]).toMatchObject({
      severity: 'warning',
      message: expect.stringMatching(/^127\.0\.0\.1 /),
    });
  });

  it("finds a defined agent's untagged skill", async () => {
    const card = (await getJson(t, '/agents/untagged/.well-known/agent-card.json', { 'A2A-Version': '1.0' }))
      .body;
    expect(errorsOf((await check(card, '1.0')).body.problems)).toEqual([
      { path: 'skills[0].tags', message: 'required: at least one tag', severity: 'error' },
    ]);
  });

  it('reads a v1.0 card as v0.3 and says what a v0.3 client misses', () => {
    const paths = errorsOf(checkCard({ name: 'x', description: 'y', version: '1', skills: [] }, '0.3')).map(
      (p) => p.path,
    );
    expect(paths).toEqual([
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'protocolVersion',
      'url',
    ]);
    expect(checkCard([], '1.0')).toEqual([
      { path: '', message: 'a card is a JSON object', severity: 'error' },
    ]);
  });

  it('refuses a version it does not know, in the API error shape', async () => {
    const { status, body } = await check({}, '2.0');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('version');
  });
});

/** Shows `agent`'s card for `version` in the view, and waits for it. */
async function showCard(page: Page, agent: string, version: '1.0' | '0.3') {
  await page.getByTestId('card-agent').selectOption(agent);
  await page
    .getByRole('tablist', { name: 'Card version' })
    .getByRole('tab', { name: `v${version}` })
    .click();
  const panel = page.getByRole('tabpanel', { name: `v${version}` });
  await panel.and(page.locator(`[data-agent="${agent}"][data-version="${version}"]`)).waitFor(SHOWN);
  return panel;
}

describeInBrowser('the card view', (browser) => {
  it("shows the root agent's card and skills by version, explore's, and a card's problems", async () => {
    const errors: Error[] = [];
    const page = await openPage(browser(), `${t.url}/_sim/`, errors, 1000);
    try {
      await page.getByRole('region', { name: 'Agent cards' }).waitFor(SHOWN);
      await page.getByTestId('card-agent').locator('option[value="explore"]').waitFor({ state: 'attached' });

      const root = await showCard(page, '', '1.0');
      expect(await root.getByTestId('card-title').textContent()).toMatch(/^A2A Simulator /);
      await root.getByTestId('card-skill').and(page.locator('[data-skill-id="weather"]')).waitFor(SHOWN);
      expect(
        await root
          .getByTestId('card-interface')
          .evaluateAll((items) => items.map((i) => i.dataset['binding'])),
      ).toEqual(expect.arrayContaining(['JSONRPC', 'HTTP+JSON']));
      expect(
        await root
          .getByTestId('card-problem')
          .evaluateAll((items) => items.map((i) => i.dataset['severity'])),
      ).not.toContain('error');
      expect(
        JSON.parse((await root.getByTestId('card-json').textContent())!).supportedInterfaces,
      ).toBeDefined();

      const v03 = await showCard(page, '', '0.3');
      const v03Card = JSON.parse((await v03.getByTestId('card-json').textContent())!);
      expect(v03Card.protocolVersion).toMatch(/^0\.3/);
      expect(await v03.getByTestId('card-interface').first().textContent()).toContain(v03Card.url);

      const explore = await showCard(page, 'explore', '1.0');
      expect(await explore.getByTestId('card-title').textContent()).toMatch(/^Explore /);
      await explore
        .getByTestId('card-skill')
        .and(page.locator('[data-skill-id="flight-booking"]'))
        .waitFor(SHOWN);

      const untagged = await showCard(page, 'untagged', '1.0');
      const problem = untagged.getByTestId('card-problem').and(page.locator('[data-severity="error"]'));
      await problem.waitFor(SHOWN);
      expect(await problem.textContent()).toContain('skills[0].tags: required: at least one tag');
      await screenshot(page, 'dashboard-card.png');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
