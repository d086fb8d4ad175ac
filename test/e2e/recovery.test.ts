import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { childAppServerConfig, saveScreenshot } from '../support/browser';
import { restartWorker, useBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt, waitConnected } from '../support/extension-pages';

/** The transcript as text lines, one per item. */
async function transcriptLines(panel: Page): Promise<string[]> {
  return panel
    .locator('.transcript > [data-item-id]')
    .evaluateAll((els) => els.map((e) => `${e.className}: ${e.textContent}`));
}

describe('interrupting and recovering in Chromium', () => {
  const suite = useBrowserSuite({
    hostConfig: childAppServerConfig('the reference app-server as a child process'),
  });

  it('stops a running turn with Stop', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, '/stream 100000 2');
    const stream = panel.locator('.transcript .item.agentMessage .body').last();
    await expect.poll(async () => (await stream.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(40);
    await panel.locator('button[data-action="stop"]').click();
    await panel.locator('.transcript .item.note', { hasText: 'Stopped.' }).waitFor({ timeout: 30_000 });
    await panel.locator('button[data-action="stop"]').waitFor({ state: 'detached' });
    const numbers = ((await stream.textContent()) ?? '').trim().split(/\s+/);
    expect(numbers.length).toBeLessThan(100_000);
    expect(await panel.locator('button[data-action="send"]').textContent()).toBe('Send');
    await panel.close();
  });

  it('shows why when the backend is killed, then recovers with the history', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/other'));
    await sendPrompt(panel, 'hello before the crash');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    const before = await transcriptLines(panel);

    const backends = await suite.browser.findProcesses('app-server');
    expect(backends.length).toBeGreaterThan(0);
    for (const pid of backends) process.kill(pid, 'SIGKILL');

    await panel.locator('.transcript .item.error', { hasText: /exited|killed|SIGKILL/i }).waitFor({ timeout: 30_000 });
    await saveScreenshot(panel, 'side-panel-backend-killed');
    await waitConnected(panel);
    await expect.poll(() => transcriptLines(panel)).toEqual(before);
    await sendPrompt(panel, 'hello after the crash');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    expect(await suite.browser.findProcesses('app-server')).not.toEqual(backends);
    await panel.close();
  });

  it('reconnects after the service worker is stopped and shows the full history', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, '/stream 50');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    await sendPrompt(panel, 'second turn');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    const before = await transcriptLines(panel);

    await restartWorker(suite.browser);
    await waitConnected(panel);
    await expect.poll(() => transcriptLines(panel), { timeout: 30_000 }).toEqual(before);
    expect(before.length).toBe(4);
    await sendPrompt(panel, 'third turn');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(3);
  });
});
