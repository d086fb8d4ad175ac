/**
 * A turn that did not finish says so wherever it is shown (issue 21): after the browser is SIGKILLed mid-answer and
 * started again with the same profile, the thread reopened from History shows the partial answer marked interrupted,
 * with why and a Retry; after the host is SIGKILLed mid-answer, a panel opened afterwards says the same.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LaunchedBrowser, launchBrowser, saveScreenshot, HOST_ARG } from '../support/browser';
import { type DemoServer, startDemoServer } from '../support/demo-server';
import { openConnectedPanel, openSidePanel, sendPrompt, waitConnected } from '../support/extension-pages';

/** 400 numbers, 50 ms apart: twenty seconds of answer, cut off after a few. */
const PROMPT = '/stream 400 50';
/** The host in-process, where a stopped host ends its turns (the daemon would carry them on). */
const IN_PROCESS = { TETHER_DAEMON: '0' };

let demo: DemoServer;
let homeDir: string;
const browsers: LaunchedBrowser[] = [];

beforeAll(async () => {
  demo = await startDemoServer();
  homeDir = await mkdtemp(join(tmpdir(), 'tether-unfinished-'));
});
afterAll(async () => {
  for (const b of browsers) await b.close().catch(() => undefined);
  await demo?.close();
  await rm(homeDir, { recursive: true, force: true });
});

async function launch(): Promise<LaunchedBrowser> {
  const browser = await launchBrowser({ env: IN_PROCESS, homeDir, userDataDir: join(homeDir, 'profile') });
  browsers.push(browser);
  return browser;
}

/** Sends the long prompt and waits until part of the answer is shown; returns that part. */
async function partialAnswer(panel: Page): Promise<string> {
  await sendPrompt(panel, PROMPT);
  const body = panel.locator('.transcript .item.agentMessage .body').first();
  await expect.poll(async () => (await body.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(40);
  return (await body.textContent()) ?? '';
}

/** Waits until no host process of `browser` is left. */
async function hostsGone(browser: LaunchedBrowser): Promise<void> {
  await expect.poll(() => browser.findProcesses(HOST_ARG), { timeout: 30_000 }).toEqual([]);
}

describe('an unfinished turn, shown again later, in Chromium', () => {
  it('is marked interrupted, with why and Retry, when reopened from History after the browser was SIGKILLed mid-answer', async () => {
    const first = await launch();
    const { panel } = await openConnectedPanel(first, demo.url('/'));
    const shown = await partialAnswer(panel);
    const threadId = await panel.locator('.transcript').getAttribute('data-thread-id');
    expect(threadId).toBeTruthy();
    await first.kill();
    await hostsGone(first);

    const second = await launch();
    const { panel: again } = await openConnectedPanel(second, demo.url('/other'));
    await again.locator('button[data-action="history"]').click();
    await again.locator(`.history li[data-thread-id="${threadId}"] button.link`).click();
    await expect.poll(() => again.locator('.transcript').getAttribute('data-thread-id')).toBe(threadId);

    const answer = again.locator('.transcript .item.agentMessage');
    await expect.poll(() => answer.count(), { timeout: 30_000 }).toBe(1);
    const kept = (await answer.locator('.body').textContent()) ?? '';
    // What the reader saw is there, and it stops short of the 400th number.
    expect(kept.startsWith(shown.trim().split(/\s+/).slice(0, -1).join(' '))).toBe(true);
    expect(kept).not.toContain('400');
    expect(await answer.getAttribute('class')).toContain('interrupted');
    const note = again.locator('.transcript .interrupted-note');
    expect(await note.count()).toBe(1);
    expect(await note.textContent()).toContain(
      'Interrupted: this turn did not finish (The app-server stopped while this turn was running)',
    );
    await saveScreenshot(again, 'side-panel-reopened-unfinished');

    // Retry sends the same input as a new turn, which is not marked.
    await note.locator('button[data-action="retry"]').click();
    await expect.poll(() => answer.count(), { timeout: 30_000 }).toBe(2);
    expect(await answer.nth(1).getAttribute('class')).not.toContain('interrupted');
    await again.locator('button[data-action="stop"]').click();
    await second.close();
  });

  it('is marked interrupted in a panel opened after the host was SIGKILLed mid-answer', async () => {
    const browser = await launch();
    const { panel, tabId } = await openConnectedPanel(browser, demo.url('/'));
    await partialAnswer(panel);
    const hosts = await browser.findProcesses(HOST_ARG);
    expect(hosts.length).toBeGreaterThan(0);
    for (const pid of hosts) process.kill(pid, 'SIGKILL');
    await panel.locator('.transcript .interrupted-note').waitFor({ timeout: 30_000 });
    await waitConnected(panel);
    await panel.close();

    // A new panel of the tab knows nothing of what the old one saw: the mark comes from the host's journal.
    const fresh = await openSidePanel(browser, tabId);
    await waitConnected(fresh);
    const asked = fresh.locator('.transcript .item.userMessage', { hasText: PROMPT });
    await asked.waitFor({ timeout: 30_000 });
    const note = fresh.locator('.transcript .interrupted-note');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.count()).toBe(1);
    expect(await note.textContent()).toContain('Interrupted: this turn did not finish');
    expect(await note.locator('button[data-action="retry"]').count()).toBe(1);
    // The note follows the turn it marks: right after the question, or after what the journal kept of the answer,
    // which is then marked interrupted too.
    const after = await asked.evaluate((el) => {
      const next = el.nextElementSibling;
      const kept = next?.classList.contains('agentMessage') ? next : undefined;
      return {
        kept: kept ? kept.classList.contains('interrupted') : undefined,
        note: (kept ? kept.nextElementSibling : next)?.classList.contains('interrupted-note') ?? false,
      };
    });
    expect(after.note).toBe(true);
    expect(after.kept ?? true).toBe(true);
    await browser.close();
  });
});
