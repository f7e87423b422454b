/**
 * The dashboard's client verdicts, in headless Chromium: a client that fetches the card twice
 * without revalidating shows up with card-revalidation failed, and its other rules as they stand.
 */
import { expect, it } from 'vitest';
import { describeInBrowser, openPage, SHOWN } from './browser.js';
import { startSim } from '../helpers/sim.js';
import { RULES } from '../../src/verdicts/rules.js';

describeInBrowser('the client verdicts panel', (browser) => {
  it("shows each client's verdicts, rule by rule, as they change", async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openPage(browser(), `${t.url}/_sim/`, errors, 1000);
      await page.getByTestId('feed-status').and(page.locator('[data-mode="live"]')).waitFor(SHOWN);
      const fetchCard = () =>
        fetch(`${t.url}/.well-known/agent-card.json`, { headers: { 'X-Sim-Client': 'ci-client' } });
      const client = page.locator('[data-testid="verdict-client"][data-client="ci-client"]');
      const revalidation = (outcome: string) =>
        client.locator(`[data-testid="verdict"][data-rule="card-revalidation"][data-outcome="${outcome}"]`);
      // One fetch: the client shows up, the rule not exercised yet.
      await fetchCard();
      await revalidation('not exercised').waitFor(SHOWN);
      // The same card again, unconditionally: the verdict changes on the page.
      await fetchCard();
      const failed = client.locator(
        '[data-testid="verdict"][data-rule="card-revalidation"][data-outcome="fail"]',
      );
      await failed.waitFor(SHOWN);
      expect(await failed.textContent()).toContain('fetched the card again without If-None-Match');
      expect(await client.locator('[data-testid="verdict"]').count()).toBe(RULES.length);
      expect(await client.getAttribute('data-passed')).toBe('true');
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
