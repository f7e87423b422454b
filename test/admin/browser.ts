/**
 * What the dashboard's browser tests share: Chromium (required under `.ci/run`, skipped with the
 * reason elsewhere), the wait for something to show, pages that fail the test on a script error,
 * and where screenshots go.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';

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
export async function openPage(browser: Browser, url: string, errors: Error[], height = 900): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height } });
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(url);
  return page;
}

/** The task list's row of `taskId`, in `state` if given. */
export const row = (page: Page, taskId: string, state?: string) =>
  page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]${state ? `[data-state="${state}"]` : ''}`);

/** Saves a full-page screenshot under test-results/ (kept by CI runs as an artifact). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: `${RESULTS}${name}`, fullPage: true });
}
