/**
 * Handing the page to the user (`page_ask_user`) in real Chromium with the built extension and the real host: the
 * turn waits on the request in the side panel, the tab comes to the front, the model gets the button the user chose
 * and what they typed (the scripted model echoes its tool result; the mock model's requests are read), and Stop during
 * the wait ends the turn with the request gone.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite, useModelBrowserSuite } from '../support/browser-suite';
import {
  agentTexts,
  badgeOf,
  completedAnswers,
  openConnectedPanel,
  openSidePanel,
  sendPrompt,
  shareTab,
  waitConnected,
} from '../support/extension-pages';
import { tetherMcpClients, untilListed } from '../support/mcp-clients';
import { type ChatScript, contentText } from '../support/mock-chat-completions';

interface ChromeApi {
  tabs: { get(tabId: number): Promise<{ active: boolean }> };
}

async function tabActive(panel: Page, tabId: number): Promise<boolean> {
  return panel.evaluate(
    async (id) => (await (globalThis as unknown as { chrome: ChromeApi }).chrome.tabs.get(id)).active,
    tabId,
  );
}

/** Asks through the scripted model's `/tool` command and returns the request once the panel shows it. */
async function ask(panel: Page, args: { message: string; answer?: string }) {
  await sendPrompt(panel, `/tool page_ask_user ${JSON.stringify(args)}`);
  const request = panel.locator('.handover');
  await request.waitFor({ timeout: 30_000 });
  return request;
}

describe('handing the page to the user (Chromium, scripted model)', () => {
  const suite = useBrowserSuite();

  it('waits for Done, brings the tab to the front, and gives the model the answer the user typed', async () => {
    const { tabId, panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    // The panel is a tab of its own here, opened last: the page's tab is behind it until the agent asks.
    expect(await tabActive(panel, tabId)).toBe(false);
    const request = await ask(panel, { message: 'Please sign in to the demo site.', answer: 'the 6-digit code' });

    expect(await request.locator('.handover-asker').textContent()).toBe('The agent asks you:');
    expect(await request.locator('.handover-message').textContent()).toBe('Please sign in to the demo site.');
    expect(await request.locator('label').textContent()).toBe('Your answer: the 6-digit code');
    // The agent's words, not an approval: no card, no allow or deny, no rule for the site.
    expect(await panel.locator('.approval').count()).toBe(0);
    expect(await panel.locator('button[data-choice]').count()).toBe(0);
    expect(await request.locator('button').allTextContents()).toEqual(['Done', "I can't"]);
    await expect.poll(() => tabActive(panel, tabId)).toBe(true);
    await expect.poll(() => badgeOf(panel, tabId)).toBe('1');

    // The turn waits: it is still running and has not answered.
    await panel.waitForTimeout(500);
    expect(await completedAnswers(panel).count()).toBe(0);
    expect(await panel.locator('button[data-action="stop"]').count()).toBe(1);

    await expect.poll(() => panel.locator('.live-status').textContent()).toBe('Waiting for your reply…');
    await saveScreenshot(panel, 'side-panel-handover');
    // The popup, whose badge counts it, shows it too.
    const popup = await suite.browser.openExtensionPage(`src/popup/index.html?tab=${tabId}`);
    await popup.locator('.handover .handover-message').waitFor();
    expect(await popup.getByText('No approvals waiting on this tab.').count()).toBe(0);
    await popup.close();

    await request.locator('input[name="handover-answer"]').fill('481516');
    await request.locator('button[data-reply="done"]').click();
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    const answer = (await agentTexts(panel)).at(-1) ?? '';
    expect(answer).toContain('page_ask_user completed');
    expect(answer).toContain('The user clicked "Done": they say they did what you asked. Their answer: "481516"');
    expect(await panel.locator('.handover').count()).toBe(0);
    await expect.poll(() => badgeOf(panel, tabId)).toBe('');

    // The transcript keeps what was asked and how the user answered.
    const recorded = panel.locator('.transcript details.toolCall.completed[data-tool="page_ask_user"]');
    await recorded.waitFor({ state: 'attached' });
    expect(await recorded.locator('summary').textContent()).toContain('Please sign in to the demo site.');
    expect(await recorded.locator('pre.result').textContent()).toContain('Their answer: "481516"');
    await panel.close();
  });

  it("keeps the request while the panel is closed, and tells the model when the user clicks I can't", async () => {
    const { tabId, panel } = await openConnectedPanel(suite.browser, suite.demo.url('/other'));
    await ask(panel, { message: 'Solve the CAPTCHA on this page.' });
    await panel.close();

    const reopened = await openSidePanel(suite.browser, tabId);
    await waitConnected(reopened);
    const request = reopened.locator('.handover');
    await request.waitFor({ timeout: 30_000 });
    expect(await request.locator('.handover-message').textContent()).toBe('Solve the CAPTCHA on this page.');
    expect(await request.locator('label').textContent()).toBe('Your answer (optional)');
    await request.locator('input[name="handover-answer"]').fill('it keeps failing');
    await request.locator('button[data-reply="cannot"]').click();

    await expect.poll(() => completedAnswers(reopened).count(), { timeout: 30_000 }).toBe(1);
    expect((await agentTexts(reopened)).at(-1)).toContain(
      'The user clicked "I can\'t": they could not or would not do it. Their answer: "it keeps failing"',
    );
    expect(await reopened.locator('.handover').count()).toBe(0);
    await reopened.close();
  });

  it('ends the turn on Stop during the wait: the request goes away and the call gets no answer', async () => {
    const { tabId, panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await ask(panel, { message: 'Enter the two-factor code on the page.' });
    await expect.poll(() => badgeOf(panel, tabId)).toBe('1');

    await panel.locator('button[data-action="stop"]').click();
    await expect.poll(() => panel.locator('.handover').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => panel.locator('button[data-action="stop"]').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => badgeOf(panel, tabId)).toBe('');
    await expect
      .poll(() => panel.locator('.transcript .note').allTextContents(), { timeout: 30_000 })
      .toContainEqual(expect.stringContaining('stopped waiting for your answer'));
    for (const text of await agentTexts(panel)) expect(text).not.toContain('page_ask_user completed');

    // The conversation goes on: the next message gets its answer.
    await sendPrompt(panel, 'hello again');
    await expect
      .poll(async () => (await agentTexts(panel)).some((t) => t.includes('hello again')), { timeout: 30_000 })
      .toBe(true);
    await panel.close();
  });
});

/** The part of a recorded Chat Completions request this test reads. */
const ChatBody = z.object({ messages: z.array(z.object({ role: z.string(), content: z.unknown() })) });

/** Asks which colour once, then says what it was told. */
const colourPlanner: ChatScript = ({ body }) => {
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `Noted: ${contentText(last.content)}` };
  return {
    kind: 'toolCall',
    name: 'page_ask_user',
    arguments: { message: 'Which colour should the reader card be?', answer: 'a colour' },
  };
};

describe('handing the page to the user (Chromium, mock OpenAI-compatible model)', () => {
  const suite = useModelBrowserSuite(colourPlanner);

  it("sends the model the user's choice and answer as the tool's result", async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'Make me a reader card.');
    const request = panel.locator('.handover');
    await request.waitFor({ timeout: 30_000 });
    expect(await request.locator('.handover-message').textContent()).toBe('Which colour should the reader card be?');
    await request.locator('input[name="handover-answer"]').fill('teal');
    await request.locator('input[name="handover-answer"]').press('Enter');

    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    const toolMessages = suite.model.requests
      .filter((r) => r.path.endsWith('/chat/completions'))
      .flatMap((r) => ChatBody.parse(r.body).messages)
      .filter((m) => m.role === 'tool')
      .map((m) => contentText(m.content));
    expect(toolMessages).toContainEqual(expect.stringContaining('The user clicked "Done"'));
    expect(toolMessages).toContainEqual(expect.stringContaining('Their answer: "teal"'));
    expect((await agentTexts(panel)).at(-1)).toContain('Their answer: "teal"');
    await panel.close();
  });
});

// The folder where the browser's host announces itself and `tether mcp` finds it: private to this file.
const runtime = mkdtempSync(join(tmpdir(), 'tether-runtime-'));
const connect = tetherMcpClients(runtime);

describe('an outside agent hands the page to the user (Chromium, tether mcp)', () => {
  const suite = useBrowserSuite({ env: { TETHER_RUNTIME_DIR: runtime } });

  it("names the client that asks in the shared tab's panel and returns the user's reply as its tool result", async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    const client = await connect('claude-code', { version: '9.9.9' });
    await untilListed(client, 'page_ask_user');
    await shareTab(panel);
    await expect
      .poll(() => panel.locator('.share .share-status').textContent(), { timeout: 10_000 })
      .toContain('claude-code 9.9.9');

    const asking = client.callTool({
      name: 'page_ask_user',
      arguments: { message: 'Choose the invoice to pay.', answer: 'the invoice number' },
    });
    const request = panel.locator('.handover');
    await request.waitFor({ timeout: 30_000 });
    expect(await request.locator('.handover-asker').textContent()).toBe(
      'claude-code (an outside agent, by its own name) asks you:',
    );
    await request.locator('input[name="handover-answer"]').fill('INV-7');
    await request.locator('button[data-reply="done"]').click();
    const result = await asking;
    expect(result.isError).toBeFalsy();
    const content = Array.isArray(result.content) ? result.content : [];
    expect(content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toBe(
      'The user clicked "Done": they say they did what you asked. Their answer: "INV-7"',
    );
    // Its call belongs to no turn here: the transcript still says what it asked and what the user answered.
    await expect
      .poll(() => panel.locator('.transcript').textContent(), { timeout: 10_000 })
      .toContain('claude-code (its own name for itself) asked you: "Choose the invoice to pay."');
    await panel.close();
  });
});
