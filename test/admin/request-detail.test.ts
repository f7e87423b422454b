/**
 * The request detail in headless Chromium: a journal entry opened in full (the request, with its
 * secrets masked, and the answer as sent: a body, or a stream's events), Copy as curl (a command
 * that, run in a shell against the simulator, makes the same call again) and Send again (the page
 * makes the call as its own client: a new entry, shown). The simulator runs on a VirtualClock.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, openDashboard, screenshot, SHOWN } from './browser.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { postSse } from '../helpers/sse.js';
import { postJson, RETURN_IMMEDIATELY, v1Send } from '../helpers/wire.js';

const run = promisify(execFile);
const SECRET = 'Bearer s3cret-t0ken';
const WEATHER = 'What is the weather today?';

/** Opens journal entry `n` in full, by its details link. */
async function openEntry(page: Page, n: number) {
  await page.getByRole('link', { name: `Request #${n} in full` }).click();
  const detail = page.getByTestId('request-detail');
  await detail.and(page.locator(`[data-n="${n}"]`)).waitFor(SHOWN);
  return detail;
}

const entriesOf = (t: TestSim, path: string) => t.sim.journal.list().filter((e) => e.path === path);

describeInBrowser('the request detail', (browser) => {
  it('shows the request with its secrets masked and the answer; Copy as curl runs; Send again journals anew', async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const sent = await t.drive(
        postJson(t, '/message:send', v1Send(WEATHER, { messageId: 'rd-1' }, RETURN_IMMEDIATELY), {
          Authorization: SECRET,
          'X-API-Key': 'k3y-s3cret',
          'A2A-Version': '1.0',
        }),
      );
      const taskId = sent.body.task.id as string;
      const page = await openDashboard(browser(), t, errors);
      const detail = await openEntry(page, 1);

      await detail.getByRole('heading', { name: 'Request #1' }).waitFor(SHOWN);
      await detail.getByText('POST /message:send', { exact: true }).waitFor(SHOWN);
      const request = detail.getByTestId('request-part');
      expect(await request.textContent()).toContain('authorization(redacted)');
      expect(await request.textContent()).toContain('"messageId": "rd-1"');
      expect(await page.content()).not.toMatch(/s3cret/);
      expect(await detail.getByTestId('answer-status').textContent()).toMatch(/^200 in \d+ ms$/);
      expect(JSON.parse((await detail.getByTestId('answer-body').textContent())!).task.id).toBe(taskId);
      await screenshot(page, 'dashboard-request.png');

      // Copy as curl: a command a shell runs as it is, the secrets left to the shell's variables.
      await detail.getByRole('button', { name: 'Copy as curl' }).click();
      const command = await detail.getByRole('textbox', { name: 'curl command' }).inputValue();
      expect(command).toMatch(/^curl -sS 'http:\/\/127\.0\.0\.1:\d+\/message:send' /);
      expect(command).toContain('"Authorization: ${A2A_AUTHORIZATION}"');
      expect(command).not.toMatch(/s3cret/);
      const before = entriesOf(t, '/message:send').length;
      // The send answers at once (returnImmediately): the clock need not move.
      const shell = await run('bash', ['-c', command], {
        env: { PATH: process.env['PATH'], A2A_AUTHORIZATION: 'Bearer other' },
      });
      expect(JSON.parse(shell.stdout).task.status.state).toMatch(/^TASK_STATE_/);
      const curled = entriesOf(t, '/message:send');
      expect(curled).toHaveLength(before + 1);
      expect(curled.at(-1)).toMatchObject({
        operation: 'POST /message:send',
        status: 200,
        headers: { authorization: '(redacted)', 'a2a-version': '1.0' },
      });
      expect(curled.at(-1)!.body).toBe(curled[0]!.body);

      // Send again: the page makes the call as the dashboard, and shows the new entry.
      await detail.getByRole('button', { name: 'Send again' }).click();
      const again = page.getByTestId('request-status').getByText(/^Sent again as request #\d+: 200\.$/);
      await again.waitFor(SHOWN);
      const replayed = entriesOf(t, '/message:send').at(-1)!;
      expect(replayed.n).toBeGreaterThan(curled.at(-1)!.n);
      expect(replayed.operation).toBe('POST /message:send');
      expect(replayed.headers['x-sim-client']).toBe('a2a-sim-dashboard');
      expect(replayed.headers['authorization']).toBeUndefined();
      expect(replayed.body).toBe(curled.at(-1)!.body);
      await detail.and(page.locator(`[data-n="${replayed.n}"]`)).waitFor(SHOWN);
      expect(await detail.getAttribute('data-operation')).toBe('POST /message:send');
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("shows a stream's events as they were sent, and the fault applied to it", async () => {
    const t = await startSim();
    const errors: Error[] = [];
    try {
      const reader = await t.drive(
        postSse(`${t.url}/message:stream`, v1Send(WEATHER, { messageId: 'rd-2' }), {
          'X-Sim-Chaos': 'drop-after-events=2',
        }),
      );
      const events = await t.drive(reader.rest());
      const page = await openDashboard(browser(), t, errors);
      const detail = await openEntry(page, 1);
      expect(await detail.getByTestId('answer-status').textContent()).toMatch(/^200, an event stream/);
      const shown = detail.getByTestId('answer-event');
      await shown.first().waitFor(SHOWN);
      const frames = await shown.allTextContents();
      const data = frames.filter((f) => f.includes('data: '));
      expect(data).toHaveLength(events.length);
      expect(data[0]).toContain(events[0]!.json.task.id);
      await detail
        .getByTestId('request-fault')
        .getByText(/^#\d+ drop/)
        .waitFor(SHOWN);

      await detail.getByRole('button', { name: 'Copy as curl' }).click();
      expect(await detail.getByRole('textbox', { name: 'curl command' }).inputValue()).toMatch(
        /^curl -sS -N /,
      );
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
