/**
 * A command approval outlives the browser (issue 21), in real Chromium with the host relaying to a daemon of the
 * test's own: the embedded agent asks to run a command, and the browser is SIGKILLed (or closed) with the card
 * unanswered. The daemon keeps the approval open and runs nothing; the browser started again with the same profile
 * shows the card again on the thread reopened from History, the badge counts it, and allowing it runs the command
 * exactly once (the command appends a line to a marker file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LaunchedBrowser, saveScreenshot } from '../support/browser';
import {
  browserGone,
  type DaemonBrowsers,
  useDaemonBrowsers,
  daemonCounts,
  journaledTurnEnd,
  reopenFromHistory,
} from '../support/daemon-browser';
import { badgeOf, completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';

const suite = useDaemonBrowsers();

/** The lines of the marker file (none when the command never ran). */
function markerLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** The tool items of a thread's journal: each finished tool call, once. */
function journaledToolCalls(r: DaemonBrowsers, threadId: string): string[] {
  return r
    .journal(threadId)
    .flatMap((rec) =>
      rec.type === 'item' && rec.item?.type !== 'agentMessage' && rec.item?.type !== 'userMessage'
        ? [rec.item!.id]
        : [],
    );
}

async function approvalAcrossRestart(stop: (browser: LaunchedBrowser) => Promise<void>, shot: string): Promise<void> {
  const r = suite.start();
  const marker = join(r.daemon.dir, 'ran.txt');
  const command = `echo ran >> '${marker}'`;
  const first = await r.launch();
  const { panel, tabId } = await openConnectedPanel(first, suite.demo.url('/'));
  await daemonCounts(r, 'clients', 1);
  await sendPrompt(panel, `/bash ${command}`);
  const card = panel.locator('.approval[data-tool="bash"]');
  await card.waitFor({ timeout: 60_000 });
  await expect.poll(() => badgeOf(panel, tabId)).toBe('1');
  const threadId = (await panel.locator('.transcript').getAttribute('data-thread-id')) ?? '';
  expect(threadId).not.toBe('');
  await stop(first);
  await browserGone(first);

  // No browser: the turn waits on the approval in the daemon, and nothing ran.
  await daemonCounts(r, 'clients', 0);
  expect(r.count('running turns')).toBe(1);
  expect(journaledTurnEnd(r, threadId)).toBeUndefined();
  expect(markerLines(marker)).toEqual([]);

  const second = await r.launch();
  const { panel: again, tabId: tab2 } = await openConnectedPanel(second, suite.demo.url('/other'));
  await reopenFromHistory(again, threadId);
  const shown = again.locator('.approval[data-tool="bash"]');
  await shown.waitFor({ timeout: 60_000 });
  expect(await shown.count()).toBe(1);
  expect(await shown.locator('.preview').textContent()).toContain(command);
  await expect.poll(() => badgeOf(again, tab2), { timeout: 30_000 }).toBe('1');
  expect(markerLines(marker)).toEqual([]);
  // The agent only waited for the user meanwhile: the panel does not say it kept working.
  expect(await again.locator('.transcript .kept-working').count()).toBe(0);
  await saveScreenshot(again, shot);

  await shown.locator('button[data-choice="allow"]').click();
  await expect.poll(() => completedAnswers(again).count(), { timeout: 60_000 }).toBe(1);
  expect(await completedAnswers(again).locator('.body').textContent()).toContain('Ran');
  await expect.poll(() => journaledTurnEnd(r, threadId), { timeout: 30_000 }).toBe('completed');
  expect(markerLines(marker)).toEqual(['ran']);
  await expect.poll(() => badgeOf(again, tab2)).toBe('');
  expect(await again.locator('.approval').count()).toBe(0);
  // Once in the journal and in the panel: one tool call, one answer.
  expect(journaledToolCalls(r, threadId)).toHaveLength(1);
  expect(await again.locator('.transcript .item.userMessage').count()).toBe(1);
  expect(await again.locator('.transcript .item.agentMessage').count()).toBe(1);
  // The daemon is idle: nothing is left to run the command a second time.
  await daemonCounts(r, 'running turns', 0);
  expect(markerLines(marker)).toEqual(['ran']);
}

describe('a pending command approval that outlives the browser, in Chromium through the daemon', () => {
  it('is shown again and counted on the badge after the browser was SIGKILLed and started again, and runs the command once when allowed', async () => {
    await approvalAcrossRestart((b) => b.kill(), 'side-panel-daemon-approval-after-kill');
  }, 420_000);

  it('is shown again and counted on the badge after the browser was closed and started again, and runs the command once when allowed', async () => {
    await approvalAcrossRestart((b) => b.close(), 'side-panel-daemon-approval-after-close');
  }, 420_000);
});
