/**
 * Turns that outlive the browser connection, in real Chromium (issue 21): with the per-user daemon (its own runtime
 * folder), the host the browser started is SIGKILLed mid-answer; the turn goes on in the daemon, the extension
 * reconnects, and the open panel resumes from what it has: the answer continues live and ends complete, each number
 * once, with one line saying the agent kept working while the browser was away, and no interrupted mark. And the
 * browser itself SIGKILLed and started again with the same profile: the thread reopened from History streams on.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonEnv, type DaemonEnv, waitUntil } from '../daemon/daemon-env';
import { type LaunchedBrowser, launchBrowser, saveScreenshot, HOST_ARG } from '../support/browser';
import { type DemoServer, startDemoServer } from '../support/demo-server';
import { openConnectedPanel, sendPrompt, waitConnected } from '../support/extension-pages';
import { join } from 'node:path';

const COUNT = 1000;
/** 1,000 numbers, 30 ms apart: half a minute of answer, so it still streams after the reconnect. */
const PROMPT = `/stream ${COUNT} 30`;

let demo: DemoServer;
let daemon: DaemonEnv;
let browser: LaunchedBrowser | undefined;
let restarted: LaunchedBrowser | undefined;

beforeAll(async () => {
  demo = await startDemoServer();
  daemon = daemonEnv();
});
afterAll(async () => {
  await browser?.close();
  await restarted?.close();
  await demo?.close();
  // Stops the test's daemon and fails when one is left running.
  await daemon?.dispose();
});

/** The numbers an answer shows, in order. */
async function numbersOf(panel: Page): Promise<string[]> {
  const text = (await panel.locator('.transcript .item.agentMessage .body').first().textContent()) ?? '';
  return text.split(/\s+/).filter(Boolean);
}

describe('a turn that goes on in the daemon while the browser connection is gone, in Chromium', () => {
  it('resumes the open panel from what it has: the answer continues live, complete and once, and the panel says the agent kept working', async () => {
    // Started first: a host that cannot reach a daemon within a few seconds (a cold start under load) serves
    // in-process, and then its turns die with it.
    expect(daemon.tether('daemon', 'restart').status).toBe(0);
    const d = daemon;
    browser = await launchBrowser({ env: daemon.env });
    const { panel } = await openConnectedPanel(browser, demo.url('/'));
    await waitUntil(() => /clients\s+1\b/.test(d.tether('daemon', 'status').stdout), 'the host to relay to the daemon');
    await sendPrompt(panel, PROMPT);
    await expect.poll(async () => (await numbersOf(panel)).length, { timeout: 30_000 }).toBeGreaterThan(20);
    const daemonPid = daemon.pid();
    expect(daemonPid).toBeDefined();

    const hosts = await browser.findProcesses(HOST_ARG);
    expect(hosts.length).toBeGreaterThan(0);
    for (const pid of hosts) process.kill(pid, 'SIGKILL');
    await panel.locator('.banner:not([data-status="connected"])').waitFor({ timeout: 10_000 });
    const before = (await numbersOf(panel)).length;

    await waitConnected(panel);
    const kept = panel.locator('.transcript .kept-working');
    await kept.waitFor({ timeout: 30_000 });
    expect(await kept.textContent()).toBe('The agent kept working while the browser was away.');
    // Still streaming after the reconnect: the answer goes on live in the element the reader was looking at.
    const answer = panel.locator('.transcript .item.agentMessage');
    expect(await answer.getAttribute('class')).toContain('inProgress');
    const resumedAt = (await numbersOf(panel)).length;
    expect(resumedAt).toBeGreaterThan(before);
    expect(resumedAt).toBeLessThan(COUNT);
    await saveScreenshot(panel, 'side-panel-daemon-resumed');

    await panel.locator('.transcript .item.agentMessage.completed').waitFor({ timeout: 60_000 });
    expect(await answer.count()).toBe(1);
    expect(await panel.locator('.transcript .item.userMessage').count()).toBe(1);
    expect(await numbersOf(panel)).toEqual(Array.from({ length: COUNT }, (_, i) => String(i + 1)));
    expect(await kept.count()).toBe(1);
    expect(await panel.locator('.transcript .interrupted-note').count()).toBe(0);
    // The note comes before the answer it speaks of.
    expect(await kept.evaluate((el) => el.nextElementSibling?.classList.contains('agentMessage'))).toBe(true);
    // One daemon served both connections.
    expect(daemon.pid()).toBe(daemonPid);
  });

  it('goes on while the browser is SIGKILLed and started again: the thread reopened from History continues live and ends complete, once', async () => {
    expect(daemon.tether('daemon', 'restart').status).toBe(0);
    const profile = { env: daemon.env, homeDir: daemon.dir, userDataDir: join(daemon.dir, 'profile') };
    const first = await launchBrowser(profile);
    const { panel } = await openConnectedPanel(first, demo.url('/'));
    await sendPrompt(panel, `/stream 1500 30`);
    await expect.poll(async () => (await numbersOf(panel)).length, { timeout: 30_000 }).toBeGreaterThan(20);
    const threadId = await panel.locator('.transcript').getAttribute('data-thread-id');
    await first.kill();

    restarted = await launchBrowser(profile);
    const { panel: again } = await openConnectedPanel(restarted, demo.url('/other'));
    await again.locator('button[data-action="history"]').click();
    await again.locator(`.history li[data-thread-id="${threadId}"] button.link`).click();
    const answer = again.locator('.transcript .item.agentMessage');
    await answer.waitFor({ timeout: 30_000 });
    // Reopened while the daemon still streams it: the answer goes on live.
    expect(await answer.getAttribute('class')).toContain('inProgress');
    await again.locator('.transcript .item.agentMessage.completed').waitFor({ timeout: 90_000 });
    expect(await answer.count()).toBe(1);
    expect(await numbersOf(again)).toEqual(Array.from({ length: 1500 }, (_, i) => String(i + 1)));
    expect(await again.locator('.transcript .interrupted-note').count()).toBe(0);
  });
});
