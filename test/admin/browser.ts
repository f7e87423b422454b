/**
 * What the dashboard's browser tests share: Chromium (required under `.ci/run`, skipped with the
 * reason elsewhere), the wait for something to show, pages that fail the test on a script error,
 * a send from the talk panel that the virtual clock can then play, and where screenshots go.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { TestSim } from '../helpers/sim.js';

const CHROMIUM = '/usr/bin/chromium';
/** `.ci/run` sets it: there a missing browser fails these tests instead of skipping them. */
const REQUIRED = process.env['REQUIRE_BROWSER_TESTS'] === '1';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** How long the browser may take to show something: the feed is instant, polling takes seconds. */
export const SHOWN = { timeout: 10_000 };

/**
 * A describe block whose tests get a Chromium browser, launched once for the block; without
 * Chromium, skipped with the reason in its title (unless `.ci/run` requires it).
 */
export function describeInBrowser(title: string, body: (browser: () => Browser) => void): void {
  const skipped = HAS_CHROMIUM || REQUIRED ? '' : ` (skipped: no Chromium at ${CHROMIUM})`;
  describe.skipIf(!HAS_CHROMIUM && !REQUIRED)(`${title}${skipped}`, () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM });
    });
    afterAll(() => browser?.close());
    body(() => browser);
  });
}

/** A page at `url` that records every uncaught error of the dashboard's script into `errors`. */
export async function openPage(
  browser: Browser,
  url: string,
  errors: Error[],
  height = 900,
  width = 1280,
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(url);
  return page;
}

/** The dashboard of `t`, once its live feed is connected. */
export async function openDashboard(
  browser: Browser,
  t: TestSim,
  errors: Error[],
  { width = 1280, height = 1000 } = {},
): Promise<Page> {
  const page = await openPage(browser, `${t.url}/_sim/`, errors, height, width);
  await page.getByTestId('feed-status').and(page.locator('[data-mode="live"]')).waitFor(SHOWN);
  return page;
}

/** The task list's row of `taskId`, in `state` if given. */
export const row = (page: Page, taskId: string, state?: string) =>
  page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]${state ? `[data-state="${state}"]` : ''}`);

/**
 * Types `text` into the panel and sends it; resolves once the simulator has the request and its
 * scenario has scheduled its next step on the virtual clock, so moving the clock then plays it.
 */
export async function say(page: Page, t: TestSim, text: string): Promise<void> {
  const requests = t.sim.journal.list().length;
  const timers = t.clock.pending;
  await page.getByLabel('Message').fill(text);
  await page.getByTestId('talk-send').click();
  await expect.poll(() => t.sim.journal.list().length).toBeGreaterThan(requests);
  await expect.poll(() => t.clock.pending).toBeGreaterThan(timers);
}

/** Saves a full-page screenshot under test-results/ (kept by CI runs as an artifact). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: `${RESULTS}${name}`, fullPage: true });
}
