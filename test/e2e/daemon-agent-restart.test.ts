/**
 * An agent backend's turn outlives the browser (issue 21), in real Chromium with the host relaying to a daemon of the
 * test's own whose default backend is an ACP agent (the scripted one of test/fixtures, a real process speaking ACP
 * through the SDK): the browser is SIGKILLed while the agent streams its answer, the daemon keeps the agent and its
 * turn, and the browser started again with the same profile reopens the thread from History: the answer continues
 * live and ends complete, each number once, and the panel says the agent kept working while the browser was away.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser';
import {
  browserGone,
  useDaemonBrowsers,
  daemonCounts,
  journaledAnswers,
  numbersIn,
  oneTo,
  panelAnswers,
  reopenFromHistory,
} from '../support/daemon-browser';
import { openConnectedPanel, sendPrompt } from '../support/extension-pages';

const ACP_AGENT = fileURLToPath(new URL('../fixtures/acp-agent.mjs', import.meta.url));
/** The backend id, and so the folder of the daemon's journal for it. */
const AGENT = 'agent';
/** 1,500 numbers 50 ms apart: more than a minute of answer, so it still streams after the restart. */
const COUNT = 1500;

const suite = useDaemonBrowsers();

/** The numbers the panel's answers show so far. */
const shownNumbers = async (panel: Parameters<typeof panelAnswers>[0]) =>
  numbersIn((await panelAnswers(panel)).map((a) => a.text)).length;

describe('an ACP agent turn that outlives the browser, in Chromium through the daemon', () => {
  it('goes on in the agent while the browser is SIGKILLed and started again: the reopened thread continues live, ends complete and once, and says the agent kept working', async () => {
    const r = suite.start((work) => ({
      defaultBackend: AGENT,
      backends: { [AGENT]: { kind: 'command', argv: [process.execPath, ACP_AGENT], dialect: 'acp', cwd: work } },
    }));
    const first = await r.launch();
    const { panel } = await openConnectedPanel(first, suite.demo.url('/'));
    await daemonCounts(r, 'clients', 1);
    await sendPrompt(panel, `count ${COUNT} 50`);
    await expect.poll(() => shownNumbers(panel), { timeout: 60_000 }).toBeGreaterThan(20);
    const threadId = (await panel.locator('.transcript').getAttribute('data-thread-id')) ?? '';
    expect(threadId).not.toBe('');
    await first.kill();
    await browserGone(first);

    // No browser: the daemon keeps the agent and its turn running.
    await daemonCounts(r, 'clients', 0);
    expect(r.count('running turns')).toBe(1);
    // The daemon journals an ACP agent's items as they finish: its answer is not there yet.
    expect(journaledAnswers(r, threadId, AGENT)).toEqual([]);

    const second = await r.launch();
    const { panel: again } = await openConnectedPanel(second, suite.demo.url('/other'));
    await reopenFromHistory(again, threadId);
    const kept = again.locator('.transcript .kept-working');
    await kept.waitFor({ timeout: 30_000 });
    const shown = await panelAnswers(again);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.done).toBe(false);
    const live = await shownNumbers(again);
    expect(live).toBeLessThan(COUNT);
    await expect.poll(() => shownNumbers(again), { timeout: 30_000 }).toBeGreaterThan(live);
    expect(await kept.evaluate((el) => el.nextElementSibling?.getAttribute('data-item-id'))).toBe(shown[0]?.id);
    await saveScreenshot(again, 'side-panel-daemon-acp-after-kill');

    await expect.poll(async () => (await panelAnswers(again)).at(0)?.done, { timeout: 180_000 }).toBe(true);
    const done = await panelAnswers(again);
    expect(done).toHaveLength(1);
    expect(numbersIn(done.map((a) => a.text))).toEqual(oneTo(COUNT));
    expect(await again.locator('.transcript .item.userMessage').count()).toBe(1);
    expect(await kept.count()).toBe(1);
    expect(await again.locator('.transcript .interrupted-note').count()).toBe(0);
    await expect.poll(() => journaledAnswers(r, threadId, AGENT).length, { timeout: 30_000 }).toBe(1);
    expect(numbersIn(journaledAnswers(r, threadId, AGENT).map((a) => a.text))).toEqual(oneTo(COUNT));
    await daemonCounts(r, 'running turns', 0);
  }, 420_000);
});
