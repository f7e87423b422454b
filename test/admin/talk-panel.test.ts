/**
 * The talk panel as a demo tool, in headless Chromium at 1024×768: a streamed report followed to
 * its last chunk and assembled into one text, typing that survives a stream's end, Cancel, a chaos
 * drop of the panel's own chaos resumed from its seq, the scenarios to try, and the panel left out
 * of the client verdicts. The simulator runs on a VirtualClock that the test moves itself.
 */
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, openDashboard, say, screenshot, SHOWN } from './browser.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { v1Send } from '../helpers/wire.js';

const REPORT = 'Write a long report on climate change';
/** The report's chunks (scenarios/slow-cancel.yaml), one every 2 s after 300 ms of work. */
const CHUNKS = 14;

/** The dashboard at a laptop's size, once the panel lists the chaos profiles. */
async function openPanel(browser: Browser, t: TestSim, errors: Error[]): Promise<Page> {
  const page = await openDashboard(browser, t, errors, { width: 1024, height: 768 });
  await page.getByTestId('talk-chaos').locator('option[value="flaky-mobile"]').waitFor({ state: 'attached' });
  return page;
}

/** Streams `text` from the panel; resolves once the simulator has scheduled the task's next step. */
async function stream(page: Page, t: TestSim, text: string): Promise<void> {
  await page.getByTestId('talk-stream').check();
  await say(page, t, text);
}

const artifact = (page: Page) => page.getByTestId('talk-artifact');

/** Moves the clock until the artifact shows `chunks` chunks. */
async function untilChunks(page: Page, t: TestSim, chunks: number): Promise<void> {
  for (let shown = Number((await artifact(page).getAttribute('data-chunks')) ?? 0); shown < chunks; shown++) {
    t.clock.advance(2_000);
    await page.locator(`[data-testid="talk-artifact"][data-chunks="${shown + 1}"]`).waitFor(SHOWN);
  }
}

/** Whether the conversation box shows its bottom (within a few pixels). */
const atBottom = (page: Page) =>
  page
    .getByTestId('talk-output')
    .evaluate((box) => box.scrollHeight - box.scrollTop - box.clientHeight <= 24 && box.scrollHeight > 0);

describeInBrowser('the talk panel', (browser) => {
  it('follows a streamed report to its last chunk, as one text, and keeps what the user types', async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openPanel(browser(), t, errors);
      await stream(page, t, REPORT);
      // The field is free at once: the user types the next question while the report streams.
      expect(await page.getByLabel('Message').inputValue()).toBe('');
      t.clock.advance(300);
      await page.locator('[data-testid="talk-answer"][data-state="working"]').waitFor(SHOWN);
      await page.getByLabel('Message').fill('And the summary?');
      await untilChunks(page, t, 7);
      expect(await artifact(page).count()).toBe(1);
      expect(await page.getByTestId('chunk-count').textContent()).toBe('7 chunks');
      expect(await atBottom(page)).toBe(true);

      // Scrolled up to read, the box stays put; back at the bottom, it follows again.
      await page.getByTestId('talk-output').evaluate((box) => (box.scrollTop = 0));
      await untilChunks(page, t, 8);
      expect(await page.getByTestId('talk-output').evaluate((box) => box.scrollTop)).toBe(0);
      await page.getByTestId('talk-output').evaluate((box) => (box.scrollTop = box.scrollHeight));
      await untilChunks(page, t, CHUNKS);
      t.clock.advance(1_000);
      await page.locator('[data-testid="talk-answer"][data-state="completed"]').waitFor(SHOWN);
      await page.getByTestId('talk-end').waitFor(SHOWN);
      expect(await atBottom(page)).toBe(true);
      await page.getByText('What remains is the pace').waitFor(SHOWN);
      expect(await page.getByTestId('chunk-count').textContent()).toBe(`${CHUNKS} chunks, complete`);
      const text = (await page.getByTestId('artifact-text').textContent())!;
      expect(text.startsWith('# Climate Change Report\n\n## Summary')).toBe(true);
      expect(text.trimEnd().endsWith('What remains is the pace at which they are put to work.')).toBe(true);
      expect(await page.getByLabel('Message').inputValue()).toBe('And the summary?');
      await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor({ state: 'hidden', ...SHOWN });
      await screenshot(page, 'talk-report.png');
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('cancels a running task, saying the cancel is pending while the agent takes its time', async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openPanel(browser(), t, errors);
      await page.getByTestId('talk-binding').selectOption('jsonrpc');
      await stream(page, t, REPORT);
      t.clock.advance(300);
      await untilChunks(page, t, 2);
      const timers = t.clock.pending;
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      const pending = page.getByTestId('talk-cancel-state');
      await pending.and(page.locator('[data-stage="asked"]')).waitFor(SHOWN);
      expect(await pending.textContent()).toContain('still working');
      const canceling = await page
        .locator('[data-testid="talk-answer"][data-seq]')
        .last()
        .getAttribute('data-task-id');
      expect(t.sim.journal.list().some((e) => e.operation === 'CancelTask')).toBe(true);
      await expect.poll(() => t.clock.pending).toBeGreaterThanOrEqual(timers);
      t.clock.advance(4_000);
      await page.locator('[data-testid="talk-answer"][data-state="canceled"]').waitFor(SHOWN);
      await pending.and(page.locator('[data-stage="done"]')).waitFor(SHOWN);
      await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor({ state: 'hidden', ...SHOWN });
      const task = (await (await fetch(`${t.url}/_sim/tasks/${canceling}`)).json()) as { state: string };
      expect(task.state).toBe('canceled');
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("names the drop its own chaos caused, resumes from the seq, and leaves another client's call alone", async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openPanel(browser(), t, errors);
      await page.getByLabel('Chaos for this conversation').selectOption('=');
      await page.getByLabel('Chaos pairs for this conversation').fill('drop-after-events=4');
      await stream(page, t, REPORT);
      // Another client streams the same report meanwhile, with no chaos of its own.
      const other = await postSse(`${t.url}/message:stream`, v1Send(REPORT, { messageId: 'other-1' }), {
        'X-Sim-Client': 'other',
      });
      t.clock.advance(300);
      await untilChunks(page, t, 2);
      const cut = page.getByTestId('talk-cut');
      await cut.waitFor(SHOWN);
      expect(await cut.getAttribute('data-kind')).toBe('drop');
      expect(await cut.textContent()).toMatch(/drop \(.*\) at seq 4, profile header/);
      const resume = page.getByRole('button', { name: /^Resume/ });
      expect(await resume.textContent()).toBe('Resume from seq 4');

      await resume.click();
      await page.getByTestId('talk-resumed').waitFor(SHOWN);
      const subscribes = () =>
        t.sim.journal.list().filter((e) => e.operation === 'POST /tasks/{id}:subscribe');
      await expect.poll(() => subscribes().length).toBe(1);
      t.clock.advance(0);
      await untilChunks(page, t, CHUNKS);
      t.clock.advance(1_000);
      await page.locator('[data-testid="talk-answer"][data-state="completed"]').waitFor(SHOWN);
      expect(await artifact(page).count()).toBe(1);
      expect(await page.getByTestId('chunk-count').textContent()).toBe(`${CHUNKS} chunks, complete`);
      expect(await page.getByTestId('talk-cut').count()).toBe(1);

      // The other client got every event; no fault touched its task.
      const events = await t.drive(other.rest());
      const otherTask = events[0]!.json.task.id as string;
      expect(events.at(-1)!.json.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
      expect(t.sim.faults.list({ taskId: otherTask })).toEqual([]);

      // The link opens the task, whose fault list has the drop.
      await page.getByTestId('talk-fault-link').click();
      await page.getByTestId('fault').and(page.locator('[data-kind="drop"]')).waitFor(SHOWN);
      await screenshot(page, 'dashboard-talk.png');
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("puts a scenario's example in the field, and leaves the panel's client out of the verdicts", async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const page = await openPanel(browser(), t, errors);
      await page.getByText('Scenarios this agent plays').click();
      const report = page.locator('[data-testid="talk-scenario"][data-scenario="slow-cancel"]');
      expect(await report.textContent()).toContain('trigger: keywords report, climate');
      await report.getByRole('button', { name: REPORT }).click();
      expect(await page.getByLabel('Message').inputValue()).toBe(REPORT);
      await page.getByTestId('talk-agent').selectOption('explore');
      await page.locator('[data-testid="talk-scenario"][data-scenario="weather"]').waitFor(SHOWN);

      // The panel's send, then another client's: only the other one is judged.
      await say(page, t, 'Hello');
      t.clock.advance(100);
      await page.locator('[data-testid="talk-answer"][data-kind="message"]').waitFor(SHOWN);
      const hello = await t.drive(
        fetch(`${t.url}/message:send`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', 'X-Sim-Client': 'other' },
          body: JSON.stringify(v1Send('Hello', { messageId: 'other-hello' })),
        }),
      );
      expect(hello.status).toBe(200);
      const client = page.locator('[data-testid="verdict-client"][data-client="other"]');
      await client.waitFor(SHOWN);
      expect(await page.locator('[data-testid="verdict-client"]').count()).toBe(1);
      const verdicts = (await (await fetch(`${t.url}/_sim/verdicts`)).json()) as {
        clients: { client: string; verdicts: { outcome: string }[] }[];
      };
      expect(verdicts.clients.map((c) => c.client)).toEqual(['other']);
      const applied = verdicts.clients[0]!.verdicts.some((v) => v.outcome !== 'not exercised');
      expect(await client.getByTestId('verdict-summary').textContent()).toBe(
        applied ? 'MUST rules held' : 'no rule applied yet',
      );
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
