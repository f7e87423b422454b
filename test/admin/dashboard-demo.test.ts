/**
 * The dashboard as a demo tool, in headless Chromium: talking to an agent from the page, the
 * request journal, and the task list's last-event times and fault badges. As in dashboard.test.ts,
 * the simulator runs on a VirtualClock that the test moves itself; the test only waits on the
 * browser (Playwright's auto-waiting locators) to show what already happened.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, openDashboard, row, say, screenshot, SHOWN } from './browser.js';
import { startSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { chaosHeader, v1Send } from '../helpers/wire.js';

/** The panel's answers (a send's one, or each event of a stream) that have `state`. */
const answers = (page: Page, state?: string) =>
  page.locator(`[data-testid="talk-answer"]${state ? `[data-state="${state}"]` : ''}`);

/** Opens the dashboard, failing the test on any uncaught error in its script, and waits for the feed. */
describeInBrowser('talking to an agent from the dashboard', (browser) => {
  it('books a flight in two turns over REST, streams one over JSON-RPC, and journals each request', async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openDashboard(browser(), t, errors);
      await page.getByTestId('talk-agent').locator('option[value="explore"]').waitFor({ state: 'attached' });

      // REST, not streamed: the send answers once the task waits for the route.
      await say(page, t, 'Book me a flight');
      t.clock.advance(1_000);
      const asked = answers(page, 'input-required');
      await asked.waitFor(SHOWN);
      const taskId = (await asked.getAttribute('data-task-id'))!;
      expect(await asked.textContent()).toContain('Where would you like to fly from and to?');
      await page.getByTestId('talk-continue').getByText(`Task ${taskId} is input-required`).waitFor(SHOWN);
      await row(page, taskId, 'input-required').waitFor(SHOWN);

      // The answer continues the same task, which completes with its itinerary.
      await say(page, t, 'From Oslo to Rome');
      expect(await page.getByTestId('talk-sent').textContent()).toContain(`continues task ${taskId}`);
      t.clock.advance(5_000);
      const done = answers(page, 'completed');
      await done.waitFor(SHOWN);
      expect(await done.getAttribute('data-task-id')).toBe(taskId);
      expect(await done.textContent()).toContain('Oslo');
      await page.getByTestId('talk-continue').waitFor({ state: 'hidden', ...SHOWN });
      await row(page, taskId, 'completed').waitFor(SHOWN);

      // JSON-RPC, streamed, to the defined agent: each event shows as it comes.
      await page.getByTestId('talk-agent').selectOption('explore');
      await page.getByTestId('talk-binding').selectOption('jsonrpc');
      await page.getByTestId('talk-stream').check();
      await say(page, t, 'Book me a flight');
      await answers(page).first().waitFor(SHOWN);
      t.clock.advance(1_000);
      await answers(page, 'input-required').waitFor(SHOWN);
      const streamed = await answers(page).evaluateAll((items) =>
        items.map((item) => `${item.getAttribute('data-kind')}:${item.getAttribute('data-state')}`),
      );
      expect(streamed).toEqual(['task:submitted', 'status:working', 'status:input-required']);
      await page.getByTestId('talk-end').getByText('stream closed after 3 events').waitFor(SHOWN);
      const agentTask = (await answers(page).first().getAttribute('data-task-id'))!;
      expect(agentTask).not.toBe(taskId);
      await row(page, agentTask, 'input-required').getByText('agent explore').waitFor(SHOWN);
      expect(await page.getByTestId('talk-continue').textContent()).toContain(agentTask);

      // The journal: newest first, with binding, operation and status, and a click opens the task.
      const journal = page.getByTestId('journal-entry');
      const rpc = journal.and(page.locator('[data-binding="JSON-RPC 1.0"][data-status="200"]'));
      await rpc.waitFor(SHOWN);
      expect(await rpc.getAttribute('data-operation')).toBe('SendStreamingMessage');
      expect(await rpc.textContent()).toContain('POST /agents/explore/');
      const rest = journal.and(page.locator('[data-binding="REST"][data-status="200"]'));
      await rest.nth(1).waitFor(SHOWN);
      expect(await rest.count()).toBe(2);
      expect(await journal.first().getAttribute('data-binding')).toBe('JSON-RPC 1.0');
      expect(await rest.first().textContent()).toContain('POST /message:send');
      await rest.first().getByRole('button').click();
      await page.getByTestId('task-detail').getByText(taskId).first().waitFor(SHOWN);
      await page.getByTestId('timeline').getByText('From Oslo to Rome', { exact: true }).waitFor(SHOWN);

      await screenshot(page, 'dashboard-demo.png');

      // A new conversation leaves the waiting task alone.
      await page.getByRole('button', { name: 'New conversation' }).click();
      await page.getByTestId('talk-continue').waitFor({ state: 'hidden', ...SHOWN });
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("shows the agent's error when the task it continues is gone", async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openDashboard(browser(), t, errors);
      await say(page, t, 'Book me a flight');
      t.clock.advance(1_000);
      await answers(page, 'input-required').waitFor(SHOWN);
      const reset = await fetch(`${t.url}/_sim/reset`, { method: 'POST', headers: { 'X-Sim-Admin': '1' } });
      expect(reset.ok).toBe(true);
      await page.getByLabel('Message').fill('From Oslo to Rome');
      await page.getByTestId('talk-send').click();
      const error = page.getByTestId('talk-error');
      await error.waitFor(SHOWN);
      expect(await error.textContent()).toMatch(/^HTTP 404 NOT_FOUND: .*not found/i);
      // The task still waits as far as the panel knows: a new conversation starts over.
      await page.getByRole('button', { name: 'New conversation' }).click();
      await page.getByTestId('talk-continue').waitFor({ state: 'hidden', ...SHOWN });
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("shows each task's last event time, and a fault badge on a task a chaos fault hit", async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openDashboard(browser(), t, errors);
      const reader = await t.drive(
        postSse(
          `${t.url}/message:stream`,
          v1Send('What is the weather today?', { messageId: 'w-1' }),
          chaosHeader('drop-after-events=2'),
        ),
      );
      const weather = (await t.drive(reader.rest()))[0]!.json.task.id as string;
      t.clock.advance(10_000);
      await row(page, weather, 'completed').waitFor(SHOWN);
      const badge = row(page, weather).getByTestId('fault-badge');
      await badge.waitFor(SHOWN);
      expect(await badge.textContent()).toBe('1 fault');

      // The last event's time, from the feed: the task's final event.
      const detail = (await (await fetch(`${t.url}/_sim/tasks/${weather}`)).json()) as {
        events: { atMs: number }[];
      };
      const last = detail.events.at(-1)!;
      const lastAt = new Date(last.atMs).toISOString();
      const age = row(page, weather).getByTestId('task-last-event');
      await expect.poll(() => age.getAttribute('data-updated')).toBe(lastAt);
      await expect.poll(() => age.textContent()).toMatch(/^last event \d+ (s|min) ago$/);

      // A task without faults has no badge; the journal marks the request the fault hit.
      const calm = await t.drive(
        postSse(`${t.url}/message:stream`, v1Send('What is the weather today?', { messageId: 'w-2' })),
      );
      const calmTask = (await t.drive(calm.rest()))[0]!.json.task.id as string;
      t.clock.advance(10_000);
      await row(page, calmTask, 'completed').waitFor(SHOWN);
      expect(await row(page, calmTask).getByTestId('fault-badge').count()).toBe(0);
      const hit = page.locator(`[data-testid="journal-entry"][data-task-id="${weather}"]`);
      await hit.getByText('1 fault').waitFor(SHOWN);
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
