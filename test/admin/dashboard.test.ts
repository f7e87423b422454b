/**
 * The dashboard at `/_sim/`, in headless Chromium. The simulator runs on a VirtualClock: the test
 * moves time itself, and only waits on the browser (Playwright's auto-waiting locators) to show
 * what already happened.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeInBrowser, openPage, row, screenshot, SHOWN } from './browser.js';
import { DASHBOARD_DIR } from '../../src/admin/dashboard-files.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { chaosHeader, postJson, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';

/** A REST send that answers at once with its task (`m-<text length>` names the message). */
async function send(t: TestSim, text: string, taskId?: string): Promise<{ id: string }> {
  const message = { messageId: `m-${text.length}`, ...(taskId && { taskId }) };
  const answer = await postJson(t, '/message:send', v1Send(text, message, RETURN_IMMEDIATELY));
  expect(answer.status).toBe(200);
  return answer.body.task;
}

/** The dashboard's ES modules, as paths under /_sim/, sorted. */
const MODULES = readdirSync(DASHBOARD_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.js'))
  .map((file) => file.split(sep).join('/'))
  .sort();

describe('the files of the dashboard', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startSim();
  });
  afterAll(() => t.close());

  it('serves index.html at /_sim/ with Cache-Control: no-cache, and its script and style', async () => {
    const page = await fetch(`${t.url}/_sim/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('data-testid="task-list"');
    const script = await fetch(`${t.url}/_sim/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect((await fetch(`${t.url}/_sim/style.css`)).headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('redirects /_sim to /_sim/ (keeping the query), so relative URLs resolve under /_sim/', async () => {
    const response = await fetch(`${t.url}/_sim?token=x`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/_sim/?token=x');
  });

  it("lists every module in the page's import map, which passes the token on to each", () => {
    const html = readFileSync(`${DASHBOARD_DIR}/index.html`, 'utf8');
    const list = /const MODULES = \[([^\]]*)\]/.exec(html)?.[1] ?? '';
    const listed = [...list.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual(MODULES);
  });

  it('serves the module shared with the server as JavaScript, revalidated like the page', async () => {
    const module = await fetch(`${t.url}/_sim/feed-types.js`);
    expect(module.status).toBe(200);
    expect(module.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(module.headers.get('cache-control')).toBe('no-cache');
    expect(await module.text()).toContain('export const FEED_TYPES');
  });

  it.each([
    '/_sim/feed-types.d.ts',
    '/_sim/%2e%2e/package.json',
    '/_sim/..%2fpackage.json',
    '/_sim/views/../../package.json',
    '/_sim/views/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/_sim/views/',
    '/_sim/views//app.js',
    '/_sim/.well-known/x.js',
    '/_sim/App.js',
  ])('answers GET %s with the admin API 404: only the page, scripts and styles are files', async (target) => {
    const answer = await rawHttp(t.url, 'GET', target);
    expect(answer.status).toBe(404);
    expect(answer.json.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
  });

  it('answers an unknown file with the admin API 404, and leaves the API routes alone', async () => {
    expect((await fetch(`${t.url}/_sim/nope.js`)).status).toBe(404);
    expect(await (await fetch(`${t.url}/_sim/health`)).json()).toMatchObject({ status: 'ok' });
  });
});

describeInBrowser('the dashboard in a browser', (browser) => {
  it('shows a flight booking live, from input-required to completed, and its timeline', async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openPage(browser(), `${t.url}/_sim/`, errors);
      await page.getByTestId('feed-status').and(page.locator('[data-mode="live"]')).waitFor(SHOWN);
      expect(await page.getByTestId('version').textContent()).toMatch(/^v\d+\.\d+\.\d+/);
      expect(await page.getByTestId('chaos-select').locator('option').allTextContents()).toEqual(
        expect.arrayContaining(['none', 'flaky-mobile']),
      );

      const task = await send(t, 'Book me a flight');
      await row(page, task.id).waitFor(SHOWN);
      t.clock.advance(1_000);
      await row(page, task.id, 'input-required').waitFor(SHOWN);
      expect(await row(page, task.id).textContent()).toContain('flight-booking');

      await send(t, 'From San Francisco to New York', task.id);
      t.clock.advance(5_000);
      await row(page, task.id, 'completed').waitFor(SHOWN);
      expect(await row(page, task.id).getByTestId('task-events').textContent()).toBe('7 events');

      await row(page, task.id).getByRole('button').click();
      const timeline = page.getByTestId('timeline');
      await timeline.locator('[data-testid="timeline-event"][data-seq="7"]').waitFor(SHOWN);
      const events = timeline.getByTestId('timeline-event');
      const kinds = await Promise.all((await events.all()).map((item) => item.getAttribute('data-kind')));
      expect(kinds).toEqual(['task', 'status', 'status', 'task', 'status', 'artifact', 'status']);
      const text = await timeline.textContent();
      for (const expected of [
        'Book me a flight', // in, seq 1
        'I need more details. Where would you like to fly from and to?', // out, seq 3
        'From San Francisco to New York', // in, the follow-up (seq 4)
        'Searching flights from San Francisco to New York...', // out, seq 5
        'Flight itinerary', // the artifact, text and data parts
        '"from": "San Francisco"',
      ]) {
        expect(text).toContain(expected);
      }
      expect(await events.nth(2).getByTestId('task-state').textContent()).toBe('input-required');
      expect(await page.getByTestId('streams').textContent()).toContain('No streams attached.');

      await screenshot(page, 'dashboard.png');

      // The header steers the simulator: chaos on and off, then a reset empties the list.
      await page.getByLabel('Chaos profile').selectOption('flaky-mobile');
      await expect
        .poll(async () => (await fetch(`${t.url}/_sim/chaos`)).json())
        .toMatchObject({
          active: 'flaky-mobile',
        });
      await page.getByLabel('Chaos profile').selectOption('none');
      await expect
        .poll(async () => (await fetch(`${t.url}/_sim/chaos`)).json())
        .toMatchObject({ active: null });
      await page.getByRole('button', { name: 'Reset' }).click();
      await page.getByTestId('task-count').and(page.locator(':text-is("0")')).waitFor(SHOWN);
      expect(t.sim.store.size).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('falls back to polling GET /_sim/tasks when the WebSocket fails', async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await browser().newPage();
      page.on('pageerror', (error) => errors.push(error));
      await page.routeWebSocket(/\/_sim\/feed/, (ws) => ws.close());
      await page.goto(`${t.url}/_sim/`);
      await page.getByTestId('feed-status').and(page.locator('[data-mode="polling"]')).waitFor(SHOWN);

      const task = await send(t, 'What is the weather today?');
      t.clock.advance(10_000);
      await row(page, task.id, 'completed').waitFor(SHOWN);
      await row(page, task.id).getByRole('button').click();
      await page.getByTestId('timeline').getByText('Weather Report').waitFor(SHOWN);
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('loads every module with the token, and neither fails a request nor logs an error', async () => {
    const t = await startSim({ adminToken: 's3cret' });
    const errors: Error[] = [];
    const problems: string[] = [];
    const scripts: string[] = [];
    try {
      const page = await browser().newPage();
      page.on('pageerror', (error) => errors.push(error));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (response.status() >= 400) problems.push(`${response.status()}: ${url.pathname}`);
        if (url.pathname.endsWith('.js')) scripts.push(`${url.pathname.slice('/_sim/'.length)}${url.search}`);
      });
      await page.goto(`${t.url}/_sim/?token=s3cret`);
      await page.getByTestId('feed-status').and(page.locator('[data-mode="live"]')).waitFor(SHOWN);
      expect(scripts.sort()).toEqual(MODULES.map((path) => `${path}?token=s3cret`));
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("shows a task's push configs and deliveries, and a stream with the fault injected into it", async () => {
    const t = await startSim();
    const receiver = createServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const errors: Error[] = [];
    try {
      const page = await openPage(browser(), `${t.url}/_sim/`, errors);
      await page.getByTestId('feed-status').and(page.locator('[data-mode="live"]')).waitFor(SHOWN);

      const flight = await send(t, 'Book me a flight');
      t.clock.advance(1_000);
      const config = await postJson(t, `/tasks/${flight.id}/pushNotificationConfigs`, {
        id: 'hook-1',
        url: hook,
      });
      expect(config.status).toBe(201);
      await send(t, 'From San Francisco to New York', flight.id);
      t.clock.advance(5_000);
      await row(page, flight.id, 'completed').getByRole('button').click();
      await page.getByTestId('push-config').getByText(`config hook-1 → ${hook}`).waitFor(SHOWN);
      await page.getByTestId('delivery').first().waitFor(SHOWN);
      expect(await page.getByTestId('delivery').first().getAttribute('data-outcome')).toBeTruthy();

      const reader = await t.drive(
        postSse(
          `${t.url}/message:stream`,
          v1Send('What is the weather today?', { messageId: 'w-1' }),
          chaosHeader('drop-after-events=2'),
        ),
      );
      const weather = (await t.drive(reader.rest()))[0]!.json.task.id as string;
      t.clock.advance(10_000);
      await row(page, weather, 'completed').getByRole('button').click();
      await page.getByTestId('stream').getByText('closed at').waitFor(SHOWN);
      await page.getByTestId('fault').first().waitFor(SHOWN);
      expect(await page.getByTestId('faults').textContent()).toContain('drop');
      // The timeline marks the event the fault was applied at.
      await page.getByTestId('timeline-fault').first().waitFor(SHOWN);
      expect(await page.getByTestId('timeline-fault').first().textContent()).toMatch(/^fault: drop/);
      expect(await page.getByTestId('deliveries').textContent()).toBe('No deliveries.');

      await page.keyboard.press('Escape');
      await page.getByTestId('task-detail').waitFor({ state: 'hidden', ...SHOWN });
      // The task's row has the focus back (a string, as this test is compiled without the DOM types).
      expect(await page.evaluate("document.activeElement?.closest('li')?.dataset.taskId")).toBe(weather);
      expect(errors).toEqual([]);
    } finally {
      receiver.close();
      await t.close();
    }
  });

  it('passes ?token= on to its files, the API and the feed when --admin-token is set', async () => {
    const t = await startSim({ adminToken: 's3cret' });
    const errors: Error[] = [];
    try {
      expect((await fetch(`${t.url}/_sim/`)).status).toBe(401);
      expect((await fetch(`${t.url}/_sim/app.js`)).status).toBe(401);
      const task = await send(t, 'Please fail this task');
      t.clock.advance(10_000);

      const page = await openPage(browser(), `${t.url}/_sim/?token=s3cret`, errors);
      await page.getByTestId('feed-status').and(page.locator('[data-mode="live"]')).waitFor(SHOWN);
      await row(page, task.id, 'failed').waitFor(SHOWN);
      expect(await page.getByTestId('version').textContent()).toMatch(/^v/);
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
