/**
 * Keys that do the browser's work, in real Chromium: legacy keyCode/which on the events, caret and selection moves
 * in inputs, textareas and contenteditable, select-all scoped to the editor, and copy/paste through the agent's
 * clipboard with real clipboard events.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActResult, type AgentAction } from '../../extension/src/shared/agent-contract';
import { agentCall, startSite, visit, refOnLine } from './harness';
import { EDITING_PAGE, GUARDED_EDITOR_PAGE } from './input-pages';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({ '/editing': EDITING_PAGE, '/guarded': GUARDED_EDITOR_PAGE }));
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await visit(page, '/editing', agent);
});

const refOf = (text: string): Promise<string> => refOnLine(page, text);

async function act(ref: string | undefined, action: AgentAction, clipboard?: string): Promise<ActResult> {
  return ActResult.parse(
    await agentCall(page, {
      op: 'act',
      prefix: '',
      ...(ref ? { ref } : {}),
      action,
      quietMs: 20,
      capMs: 500,
      ...(clipboard !== undefined ? { clipboard } : {}),
    }),
  );
}

async function press(ref: string, ...keys: string[]): Promise<ActResult> {
  let last: ActResult | undefined;
  for (const key of keys) last = await act(ref, { kind: 'press', key });
  if (!last) throw new Error('no key');
  return last;
}

function fieldState(id: string): Promise<{ value: string; start: number; end: number; selected: string }> {
  return page.evaluate((i) => {
    const f = document.getElementById(i) as HTMLInputElement;
    const start = f.selectionStart ?? -1;
    const end = f.selectionEnd ?? -1;
    return { value: f.value, start, end, selected: f.value.slice(start, end) };
  }, id);
}

describe('keys in fields and editors', () => {
  it('sends keyCode, which, code and location as a keyboard does, and charCode on keypress', async () => {
    const title = await refOf('"Title"');
    await page.evaluate(() => {
      (window as unknown as { keys: string[] }).keys.length = 0;
    });
    await press(title, 'ArrowUp', 'Shift+1', 'PageDown');
    const keys = await page.evaluate(() => (window as unknown as { keys: string[] }).keys);
    expect(keys).toEqual([
      'keydown ArrowUp ArrowUp 38 38 0 0',
      'keyup ArrowUp ArrowUp 38 38 0 0',
      'keydown ! Digit1 49 49 0 0',
      'keypress ! Digit1 33 33 0 33',
      'keyup ! Digit1 49 49 0 0',
      'keydown PageDown PageDown 34 34 0 0',
      'keyup PageDown PageDown 34 34 0 0',
    ]);
  });

  it('moves the caret with Home and End and selects with Shift and Control+Shift arrows in an input', async () => {
    const title = await refOf('"Title"');
    await act(title, { kind: 'click', button: 'left', double: false });
    await press(title, 'End');
    expect(await fieldState('title')).toMatchObject({ start: 17, end: 17 });
    await press(title, 'Control+Shift+ArrowLeft');
    expect((await fieldState('title')).selected).toBe('world');
    await press(title, 'Control+Shift+ArrowLeft');
    expect((await fieldState('title')).selected).toBe('brave world');
    await press(title, 'Home', 'Shift+ArrowRight', 'Shift+ArrowRight');
    expect((await fieldState('title')).selected).toBe('he');
    const typed = await press(title, 'J');
    expect((await fieldState('title')).value).toBe('Jllo brave world');
    expect(typed.changed.join('\n')).toContain('Jllo brave world');
    await press(title, 'End', 'Control+Backspace');
    expect((await fieldState('title')).value).toBe('Jllo brave ');
  });

  it('moves by line in a textarea keeping the column', async () => {
    const body = await refOf('"Body"');
    await act(body, { kind: 'click', button: 'left', double: false });
    await press(body, 'Control+Home', 'End');
    expect(await fieldState('body')).toMatchObject({ start: 10, end: 10 });
    await press(body, 'ArrowDown', 'ArrowDown', 'Shift+Home');
    expect((await fieldState('body')).selected).toBe('third line'.slice(0, 2));
    await press(body, 'Enter');
    expect((await fieldState('body')).value).toBe('first line\nab\n\nird line');
  });

  it('selects all of the focused editor, not the page, and Shift+arrows select inside it for a bold', async () => {
    const notes = await refOf('"Notes"');
    await act(notes, { kind: 'click', button: 'left', double: false });
    await press(notes, 'Control+a');
    const all = await page.evaluate(() => window.getSelection()?.toString() ?? '');
    expect(all.replace(/\n+/g, '\n')).toBe('alpha beta gamma\nsecond para');
    await press(notes, 'Control+Home', 'Control+Shift+ArrowRight');
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('alpha');
    await page.evaluate(() => document.execCommand('bold'));
    expect(await page.$eval('#editor', (el) => el.innerHTML)).toContain('<b>alpha</b>');
    await press(notes, 'End', 'Shift+Home');
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('alpha beta gamma');
    await press(notes, 'Backspace');
    expect(await page.$eval('#editor', (el) => el.textContent)).toBe('second para');
  });

  it('moves the caret in an editor that focus just reached only once an editor would take it for a key', async () => {
    await visit(page, '/guarded', agent);
    const notes = await refOf('"Tide notes"');
    await act(notes, { kind: 'click', button: 'left', double: false });
    await press(notes, 'Control+Home', ...Array(5).fill('Shift+ArrowRight'));
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('Tides');
  });

  it("paces a trusted key the same way: the watch that focuses the editor answers once the browser's key will be taken", async () => {
    await visit(page, '/guarded', agent);
    const notes = await refOf('"Tide notes"');
    // As the worker does for a trusted page_press: watch (focusing the element), the browser's own key, settle.
    for (const key of ['Control+Home', ...Array(5).fill('Shift+ArrowRight')]) {
      await agentCall(page, { op: 'watch', prefix: '', ref: notes, focus: true, key });
      await page.keyboard.press(key);
      await agentCall(page, { op: 'settle', quietMs: 20, capMs: 500 });
    }
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('Tides');
  });

  it('copies a selection to the agent clipboard and pastes it with a paste event the page can read', async () => {
    const title = await refOf('"Title"');
    const notes = await refOf('"Notes"');
    await act(title, { kind: 'click', button: 'left', double: false });
    await press(title, 'End', 'Control+Shift+ArrowLeft');
    const copied = await press(title, 'Control+c');
    expect(copied.copied).toBe('world');
    expect(copied.limits?.join(' ')).toContain("agent's own clipboard");
    const cut = await press(title, 'Control+x');
    expect(cut.copied).toBe('world');
    expect((await fieldState('title')).value).toBe('hello brave ');
    await act(notes, { kind: 'click', button: 'left', double: false });
    await press(notes, 'Control+End');
    await press(notes, 'Control+v');
    expect(await page.$eval('#editor', (el) => el.textContent)).toBe('alpha beta gammasecond paraworld');
    // The worker's clipboard wins over the document's own.
    await act(notes, { kind: 'press', key: 'Control+v' }, ' from the worker');
    expect(await page.$eval('#editor', (el) => el.textContent)).toBe(
      'alpha beta gammasecond paraworld from the worker',
    );
    expect(await page.evaluate(() => (window as unknown as { pastes: string[] }).pastes)).toEqual([
      'world',
      ' from the worker',
    ]);
  });

  it('lets a page that handles paste itself prevent the insertion', async () => {
    const title = await refOf('"Title"');
    await page.evaluate(() =>
      document.getElementById('title')?.addEventListener('paste', (e) => {
        e.preventDefault();
        (e.target as HTMLInputElement).value = `[${e.clipboardData?.getData('text/plain')}]`;
      }),
    );
    await act(title, { kind: 'press', key: 'Control+a' });
    await act(title, { kind: 'press', key: 'Control+v' }, 'x');
    expect((await fieldState('title')).value).toBe('[x]');
  });
});
