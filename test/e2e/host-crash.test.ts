import { describe, expect, it } from 'vitest';
import { childAppServerConfig, saveScreenshot, HOST_ARG } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { openConnectedPanel, sendPrompt, waitConnected } from '../support/extension-pages';

const PROMPT = '/stream 3000 20';

/** In-process: a host that stops ends its turns there (through the daemon they go on: daemon-*.test.ts). */
const IN_PROCESS = { TETHER_DAEMON: '0' };

describe('a host that stops mid-answer, in Chromium', () => {
  const suite = useBrowserSuite({ env: IN_PROCESS });

  it('keeps the partial answer marked interrupted, says the host stopped, reconnects, and Retry sends the input again', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, PROMPT);
    const answers = panel.locator('.transcript .item.agentMessage');
    const partial = answers.first().locator('.body');
    await expect.poll(async () => (await partial.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(40);

    const hosts = await suite.browser.findProcesses(HOST_ARG);
    expect(hosts.length).toBeGreaterThan(0);
    const shown = (await partial.textContent()) ?? '';
    // The disconnected banner shows only until the reconnect, which on a quick machine is sooner than a poll: the panel
    // records each one it shows.
    await panel.evaluate(() => {
      const seen: string[] = [];
      (window as { bannersSeen?: string[] }).bannersSeen = seen;
      new MutationObserver(() => {
        for (const b of Array.from(document.querySelectorAll('.banner[data-status="disconnected"]')))
          if (!seen.includes(b.textContent ?? '')) seen.push(b.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    for (const pid of hosts) process.kill(pid, 'SIGKILL');

    const note = panel.locator('.transcript .interrupted-note');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toContain('Interrupted: the host stopped (Native host has exited.)');
    const banners = () => panel.evaluate(() => (window as { bannersSeen?: string[] }).bannersSeen ?? []);
    await expect.poll(async () => (await banners()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const advice = (await banners()).join('\n');
    expect(advice).toContain('The Tether host stopped.');
    expect(advice).not.toMatch(/node|path/i);
    await saveScreenshot(panel, 'side-panel-host-killed');

    // The reconnect resumes the transcript after the last item it has; the new host's journal lacks the unfinished
    // answer, and says the turn was interrupted: the mark the panel made live stays, alone.
    await waitConnected(panel);
    await expect.poll(() => suite.browser.findProcesses(HOST_ARG), { timeout: 30_000 }).not.toEqual(hosts);
    const kept = panel.locator('.transcript .item.agentMessage.interrupted .body');
    expect(await kept.count()).toBe(1);
    expect((await kept.textContent())?.startsWith(shown)).toBe(true);
    expect(await note.count()).toBe(1);

    await note.locator('button[data-action="retry"]').click();
    const asked = panel.locator('.transcript .item.userMessage', { hasText: PROMPT });
    await expect.poll(() => asked.count(), { timeout: 30_000 }).toBe(2);
    const fresh = answers.nth(1);
    await expect
      .poll(async () => (await fresh.locator('.body').textContent())?.length ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(40);
    expect(await fresh.getAttribute('class')).not.toContain('interrupted');
    expect(await note.locator('button[data-action="retry"]').count()).toBe(0);
    await panel.locator('button[data-action="stop"]').click();
    await panel.close();
  });
});

describe('a backend that stops mid-answer, in Chromium', () => {
  const suite = useBrowserSuite({
    hostConfig: childAppServerConfig('the reference app-server as a child process'),
  });

  it('keeps the partial answer marked interrupted by the backend stop, and Retry answers again', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, PROMPT);
    const partial = panel.locator('.transcript .item.agentMessage .body').first();
    await expect.poll(async () => (await partial.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(40);
    const backends = await suite.browser.findProcesses('app-server');
    expect(backends.length).toBeGreaterThan(0);
    const shown = (await partial.textContent()) ?? '';
    for (const pid of backends) process.kill(pid, 'SIGKILL');

    const note = panel.locator('.transcript .interrupted-note');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toMatch(/^Interrupted: the backend stopped \(.*(killed|SIGKILL|exited)/);
    await waitConnected(panel);
    const kept = panel.locator('.transcript .item.agentMessage.interrupted .body');
    await expect.poll(() => kept.count(), { timeout: 30_000 }).toBe(1);
    expect((await kept.textContent())?.startsWith(shown)).toBe(true);
    await note.locator('button[data-action="retry"]').click();
    await expect
      .poll(() => panel.locator('.transcript .item.agentMessage:not(.interrupted)').count(), { timeout: 30_000 })
      .toBe(1);
    await panel.locator('button[data-action="stop"]').click();
    await panel.close();
  });
});
