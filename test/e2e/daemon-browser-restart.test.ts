/**
 * A streamed turn outlives the browser (issue 21), in real Chromium with the host relaying to a daemon of the test's
 * own: the browser is SIGKILLed (and, in the second test, closed normally) while the answer streams; the daemon goes
 * on and journals the messages that finish meanwhile; the browser started again with the same profile reopens the
 * thread from History: the answer continues live and ends complete, each item once, and the panel says the agent kept
 * working while the browser was away, where that work began. And the service worker stopped mid-answer, as an
 * extension reload or update stops it, with the host it started: the same panel goes on with the answer, once.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type LaunchedBrowser, saveScreenshot } from '../support/browser';
import {
  browserGone,
  daemonCounts,
  HOST_ARG,
  journaledAnswers,
  journaledTurnEnd,
  numbersIn,
  oneTo,
  panelAnswers,
  reopenFromHistory,
  useDaemonBrowsers,
} from '../support/daemon-browser';
import { openConnectedPanel, sendPrompt } from '../support/extension-pages';

/** 2,400 numbers 40 ms apart in 8 messages of 300 (12 s each): long enough to still stream after a restart. */
const COUNT = 2400;
const MESSAGES = 8;
const PROMPT = `/stream ${COUNT} 40 ${MESSAGES}`;

const suite = useDaemonBrowsers();

/**
 * Starts the long turn in a first browser, stops that browser with `stop` once part of the first message is shown,
 * checks the daemon streams on into the journal with no browser, and opens the thread in a browser started again.
 */
async function restartMidTurn(
  stop: (browser: LaunchedBrowser) => Promise<void>,
): Promise<{ panel: Page; threadId: string; seenBefore: number }> {
  const r = suite.start();
  const first = await r.launch();
  const { panel } = await openConnectedPanel(first, suite.demo.url('/'));
  await daemonCounts(r, 'clients', 1);
  await sendPrompt(panel, PROMPT);
  await expect
    .poll(async () => numbersIn((await panelAnswers(panel)).map((a) => a.text)).length, { timeout: 60_000 })
    .toBeGreaterThan(20);
  const threadId = (await panel.locator('.transcript').getAttribute('data-thread-id')) ?? '';
  expect(threadId).not.toBe('');
  const seenBefore = (await panelAnswers(panel)).filter((a) => a.done).length;
  await stop(first);
  await browserGone(first);

  // No browser now: the daemon goes on, and the messages that finish meanwhile reach the journal.
  await daemonCounts(r, 'clients', 0);
  expect(r.count('running turns')).toBe(1);
  const journaled = journaledAnswers(r, threadId).length;
  await expect
    .poll(() => journaledAnswers(r, threadId).length, { timeout: 60_000 })
    .toBeGreaterThan(Math.max(journaled, seenBefore));
  expect(journaledTurnEnd(r, threadId)).toBeUndefined();

  const second = await r.launch();
  const { panel: again } = await openConnectedPanel(second, suite.demo.url('/other'));
  await reopenFromHistory(again, threadId);
  return { panel: again, threadId, seenBefore };
}

/** The reopened panel: live, then complete and once each, with the note where the work while away began. */
async function continuesLiveAndEndsOnce(panel: Page, threadId: string, seenBefore: number, shot: string) {
  const r = suite.current;
  const kept = panel.locator('.transcript .kept-working');
  await kept.waitFor({ timeout: 30_000 });
  expect(await kept.textContent()).toBe('The agent kept working while the browser was away.');
  // Messages that finished while the browser was away are there, finished; the one streaming now goes on live.
  const shown = await panelAnswers(panel);
  expect(shown.filter((a) => a.done).length).toBeGreaterThan(seenBefore);
  expect(shown.at(-1)?.done).toBe(false);
  const live = numbersIn(shown.map((a) => a.text)).length;
  expect(live).toBeLessThan(COUNT);
  await expect
    .poll(async () => numbersIn((await panelAnswers(panel)).map((a) => a.text)).length, { timeout: 30_000 })
    .toBeGreaterThan(live);
  // The note stands before the first message the first browser did not see finish.
  expect(await kept.evaluate((el) => el.nextElementSibling?.getAttribute('data-item-id'))).toBe(shown[seenBefore]?.id);
  await saveScreenshot(panel, shot);

  await expect
    .poll(async () => (await panelAnswers(panel)).filter((a) => a.done).length, { timeout: 180_000 })
    .toBe(MESSAGES);
  const done = await panelAnswers(panel);
  expect(done).toHaveLength(MESSAGES);
  expect(new Set(done.map((a) => a.id)).size).toBe(MESSAGES);
  expect(numbersIn(done.map((a) => a.text))).toEqual(oneTo(COUNT));
  expect(await panel.locator('.transcript .item.userMessage').count()).toBe(1);
  const ids = await panel
    .locator('.transcript [data-item-id]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
  expect(new Set(ids).size).toBe(ids.length);
  expect(await kept.count()).toBe(1);
  expect(await panel.locator('.transcript .interrupted-note').count()).toBe(0);

  // The journal has the same: the turn completed, each message once, in order.
  await expect.poll(() => journaledTurnEnd(r, threadId), { timeout: 30_000 }).toBe('completed');
  const journaled = journaledAnswers(r, threadId);
  expect(journaled.map((a) => a.id)).toEqual(done.map((a) => a.id));
  expect(numbersIn(journaled.map((a) => a.text))).toEqual(oneTo(COUNT));
}

describe('a streamed turn that outlives the browser, in Chromium through the daemon', () => {
  it('goes on while the browser is SIGKILLed and started again: the reopened thread continues live, ends complete, each item once, and says the agent kept working', async () => {
    const { panel, threadId, seenBefore } = await restartMidTurn((b) => b.kill());
    await continuesLiveAndEndsOnce(panel, threadId, seenBefore, 'side-panel-daemon-after-kill');
  }, 420_000);

  it('goes on while the browser is closed normally and started again: the reopened thread continues live, ends complete, each item once, and says the agent kept working', async () => {
    const { panel, threadId, seenBefore } = await restartMidTurn((b) => b.close());
    await continuesLiveAndEndsOnce(panel, threadId, seenBefore, 'side-panel-daemon-after-close');
  }, 420_000);

  it('goes on while the service worker and its host stop, as an extension reload does: the open panel continues the answer live, each item once', async () => {
    const r = suite.start();
    const browser = await r.launch();
    const { panel } = await openConnectedPanel(browser, suite.demo.url('/'));
    await daemonCounts(r, 'clients', 1);
    // 900 numbers 20 ms apart in 3 messages: 18 s, so the worker stops mid-answer.
    await sendPrompt(panel, '/stream 900 20 3');
    const shownNumbers = async () => numbersIn((await panelAnswers(panel)).map((a) => a.text)).length;
    await expect.poll(shownNumbers, { timeout: 60_000 }).toBeGreaterThan(20);
    const threadId = (await panel.locator('.transcript').getAttribute('data-thread-id')) ?? '';
    const hostsBefore = await browser.findProcesses(HOST_ARG);
    expect(hostsBefore.length).toBeGreaterThan(0);

    await browser.stopServiceWorkers();
    // A new host proves the worker started again; the daemon kept the turn while neither was there.
    await expect
      .poll(async () => (await browser.findProcesses(HOST_ARG)).some((pid) => !hostsBefore.includes(pid)), {
        timeout: 60_000,
      })
      .toBe(true);
    expect(r.count('running turns')).toBe(1);

    await expect
      .poll(async () => (await panelAnswers(panel)).filter((a) => a.done).length, { timeout: 120_000 })
      .toBe(3);
    const done = await panelAnswers(panel);
    expect(new Set(done.map((a) => a.id)).size).toBe(3);
    expect(numbersIn(done.map((a) => a.text))).toEqual(oneTo(900));
    const ids = await panel
      .locator('.transcript [data-item-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await panel.locator('.transcript .item.userMessage').count()).toBe(1);
    expect(await panel.locator('.transcript .interrupted-note').count()).toBe(0);
    await expect.poll(() => journaledTurnEnd(r, threadId), { timeout: 30_000 }).toBe('completed');
  }, 300_000);
});
