import { describe, expect, it } from 'vitest';
import { useModelBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';
import { type ChatScript, contentText } from '../support/mock-chat-completions';

/** An answer with a paragraph, a code block, raw HTML and a list, streamed in pieces 800 ms apart. */
const MARKDOWN = [
  'Intro with **bold** words.',
  '```js\nconst x = 1;\n```',
  '<img src=x onerror="window.__pwned=1">',
  '- item one\n- item two',
  'The end of the answer.',
].join('\n\n');
const LONG = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');

/** The mock model's answers, chosen by the last user message. */
const script: ChatScript = ({ body }) => {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  const text = user ? contentText(user.content).trim() : '';
  if (text.endsWith('markdown please')) return { kind: 'text', text: MARKDOWN, chunks: 6, chunkDelayMs: 800 };
  if (text.endsWith('take your time'))
    return { kind: 'slow', text: 'word '.repeat(400), chunks: 400, chunkDelayMs: 50 };
  if (text.endsWith('a long answer')) return { kind: 'text', text: LONG };
  return { kind: 'text', text: `You said: ${text}` };
};

describe('live feedback in the side panel (Chromium)', () => {
  const suite = useModelBrowserSuite(script);

  it('shows "Working…" from send to the first token, as a polite status, and hides it when tokens arrive', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    const status = panel.locator('.live-status');
    expect(await status.getAttribute('role')).toBe('status');
    await sendPrompt(panel, 'markdown please');
    const working = status.locator('.working');
    await working.waitFor({ timeout: 5_000 });
    expect(await working.textContent()).toBe('Working…');
    // No token yet: the answer has not started.
    expect(await panel.locator('.transcript .item.agentMessage .body').count()).toBe(0);
    await panel.locator('.transcript .item.agentMessage strong').first().waitFor({ timeout: 10_000 });
    await working.waitFor({ state: 'detached', timeout: 2_000 });
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    expect(await working.count()).toBe(0);
    await panel.close();
  });

  it('renders markdown while it streams, safely, rendering a finished block once', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'markdown please');
    const streaming = panel.locator('.transcript .item.agentMessage.inProgress .body.markdown.streaming');
    // The bold text is markdown before the answer is complete.
    await streaming.locator('strong').first().waitFor({ timeout: 10_000 });
    // The first paragraph, once closed by a blank line, is a block of its own that later deltas leave alone.
    const block = streaming.locator('.md-block').first();
    await block.waitFor({ timeout: 10_000 });
    await block.evaluate((el) => Object.assign(el, { __first: true }));
    await streaming.locator('code').first().waitFor({ timeout: 10_000 });
    await streaming.locator('li').first().waitFor({ timeout: 10_000 });
    expect(await streaming.count()).toBe(1);
    expect(
      await streaming
        .locator('.md-block')
        .first()
        .evaluate((el) => (el as unknown as { __first?: boolean }).__first),
    ).toBe(true);
    expect(await streaming.locator('img').count()).toBe(0);
    // The complete answer is rendered once more as a whole, through the same safe renderer.
    const done = completedAnswers(panel).last().locator('.body.markdown');
    await done.waitFor({ timeout: 30_000 });
    expect(await done.locator('strong').textContent()).toBe('bold');
    expect(await done.locator('img').count()).toBe(0);
    expect(await done.textContent()).toContain('<img src=x onerror=');
    expect(await panel.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await panel.close();
  });

  it('copies an answer and a code block to the clipboard', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    // CDP cannot grant clipboard-read to an extension's origin ("opaque"): the page's writeText is wrapped to record
    // what it was given, and the real one still runs (the click is a real user gesture).
    await panel.evaluate(() => {
      const clipboard = navigator.clipboard;
      const write = clipboard.writeText.bind(clipboard);
      const w = window as { __copied?: string[] };
      w.__copied = [];
      clipboard.writeText = (text: string) => {
        w.__copied?.push(text);
        return write(text);
      };
    });
    const copied = () => panel.evaluate(() => (window as { __copied?: string[] }).__copied?.at(-1));
    await sendPrompt(panel, 'markdown please');
    const answer = completedAnswers(panel).last();
    await answer.waitFor({ timeout: 30_000 });
    const copy = answer.locator('button[data-action="copy-answer"]');
    expect(await copy.getAttribute('aria-label')).toBe('Copy answer');
    await copy.click();
    await expect.poll(copied).toBe(MARKDOWN);
    await expect.poll(() => copy.textContent()).toBe('Copied');
    const copyCode = answer.locator('button[data-action="copy-code"]');
    expect(await copyCode.getAttribute('aria-label')).toBe('Copy code');
    await copyCode.click();
    await expect.poll(copied).toBe('const x = 1;\n');
    // The buttons add nothing to the answer's text.
    expect(await answer.locator('.body').textContent()).not.toContain('Copy');
    await panel.close();
  });

  it('stops the running turn on Esc', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'take your time');
    await panel.locator('.transcript .item.agentMessage.inProgress').waitFor({ timeout: 10_000 });
    await panel.locator('button[data-action="stop"]').waitFor();
    await panel.keyboard.press('Escape');
    await panel.locator('.transcript .item.note', { hasText: 'Stopped.' }).waitFor({ timeout: 10_000 });
    await panel.locator('button[data-action="stop"]').waitFor({ state: 'detached' });
    await panel.close();
  });

  it('offers a jump to the latest message when the reader has scrolled up, and follows the end again after it', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'a long answer');
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    const jump = panel.locator('button[data-action="jump-latest"]');
    expect(await jump.count()).toBe(0);
    const scroller = panel.locator('.scroller');
    await scroller.hover();
    await panel.mouse.wheel(0, -1500);
    await jump.waitFor({ timeout: 5_000 });
    expect(await jump.getAttribute('aria-label')).toBe('Jump to the latest message');
    await jump.click();
    await jump.waitFor({ state: 'detached', timeout: 5_000 });
    const gap = await scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
    expect(gap).toBeLessThanOrEqual(4);
    // Following again: the next answer keeps the view at the end.
    await sendPrompt(panel, 'again a long answer');
    await completedAnswers(panel).nth(1).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight))
      .toBeLessThanOrEqual(4);
    await panel.close();
  });

  it('recalls the last message with Up in an empty box', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'the first message');
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    const box = panel.locator('textarea[name="prompt"]');
    await box.focus();
    await box.press('ArrowUp');
    expect(await box.inputValue()).toBe('the first message');
    // Up in a box with text moves the caret as usual.
    await box.fill('something else');
    await box.press('ArrowUp');
    expect(await box.inputValue()).toBe('something else');
    await panel.close();
  });

  it('edits the last message and sends it as a new turn, keeping the old one', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'a message with a typo');
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    const users = panel.locator('.transcript .item.userMessage');
    const edit = users.last().locator('button[data-action="edit"]');
    await edit.click();
    const box = panel.locator('textarea[name="prompt"]');
    expect(await box.inputValue()).toBe('a message with a typo');
    const note = panel.locator('.edit-note');
    expect(await note.textContent()).toContain('sending it starts a new turn');
    await box.fill('a message without the typo');
    await box.press('Enter');
    await expect.poll(() => users.count()).toBe(2);
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    expect(await users.locator('.body').allTextContents()).toEqual([
      'a message with a typo',
      'a message without the typo',
    ]);
    expect(await note.count()).toBe(0);
    // Only the last message offers Edit.
    expect(await users.first().locator('button[data-action="edit"]').isVisible()).toBe(false);
    expect(await users.last().locator('button[data-action="edit"]').isVisible()).toBe(true);
    await panel.close();
  });
});
