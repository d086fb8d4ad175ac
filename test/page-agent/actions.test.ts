/**
 * The page agent's actions in real Chromium: each action's effect on the DOM and the events page listeners see, and
 * the errors it refuses with (describe.test.ts: what the agent tells of an element before acting on it).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActResult, type AgentAction, FrameSnapshot } from '../../extension/src/shared/agent-contract';
import { agentCall, startSite, visit, refOnLine } from './harness';
import { formPage } from './pages';

let browser: Browser;
let page: Page;
let agent: string;
let posted: string[];

beforeAll(async () => {
  ({ browser, page, posted, agent } = await startSite({
    '/form': formPage(),
    '/shadow': `<!doctype html><shop-widget></shop-widget><script>customElements.define('shop-widget', class extends HTMLElement {
        connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<label>Quantity <input value="1"></label><button onclick="this.textContent=\\'Added\\'">Add</button>'; } });</script>`,
  }));
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await visit(page, '/form', agent);
});

/** The ref on the first snapshot line containing `text`. */
const refOf = (text: string): Promise<string> => refOnLine(page, text);

async function act(ref: string | undefined, action: AgentAction): Promise<ActResult> {
  const reply = await agentCall(page, {
    op: 'act',
    prefix: '',
    ...(ref ? { ref } : {}),
    action,
    quietMs: 50,
    capMs: 1000,
  });
  return ActResult.parse(reply);
}

function events(): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { events: string[] }).events.splice(0));
}

describe('page agent actions', () => {
  it('clicks with the full pointer and mouse sequence at the element centre', async () => {
    const ref = await refOf('"Next page"');
    await page.evaluate(() => document.getElementById('next')?.addEventListener('click', (e) => e.preventDefault()));
    await events();
    const result = await act(ref, { kind: 'click', button: 'left', double: false });
    expect(result.error).toBeUndefined();
    const seen = await events();
    expect(seen).toEqual([
      'pointerover:next',
      'pointerenter:html',
      'pointerenter:body',
      'pointerenter:next',
      'mouseover:next',
      'mouseenter:html',
      'mouseenter:body',
      'mouseenter:next',
      'pointermove:next',
      'mousemove:next',
      'pointerdown:next',
      'mousedown:next',
      'focus:next',
      'pointerup:next',
      'mouseup:next',
      'click:next',
    ]);
    const { clicks, centre } = await page.evaluate(() => {
      const rect = document.getElementById('next')?.getBoundingClientRect() ?? new DOMRect();
      return {
        clicks: (window as unknown as { clicks: { type: string; x: number; y: number; button: number }[] }).clicks,
        centre: { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 },
      };
    });
    expect(clicks.at(-1)).toMatchObject({ type: 'click', button: 0, detail: 1, trusted: false });
    // MouseEvent coordinates are whole pixels.
    expect(Math.abs((clicks.at(-1)?.x ?? 0) - centre.x)).toBeLessThan(1);
    expect(Math.abs((clicks.at(-1)?.y ?? 0) - centre.y)).toBeLessThan(1);
    expect(result.focus).toBe(`- link "Next page" [active] [ref=${ref}] /url: /next`);
  });

  it('double-clicks with dblclick and right-clicks with contextmenu instead of click', async () => {
    const ref = await refOf('"Menu"');
    await events();
    await act(ref, { kind: 'click', button: 'left', double: true });
    const double = await events();
    expect(double.filter((e) => e.startsWith('click:'))).toHaveLength(2);
    expect(double.at(-1)).toBe('dblclick:menu');
    // Each press counts as a user's does (`detail` 1 then 2), which grids and editors read to tell a double-click.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { details: string[] }).details = seen;
      for (const type of ['mousedown', 'mouseup', 'click', 'dblclick'])
        document.addEventListener(type, (e) => seen.push(`${type} ${(e as MouseEvent).detail}`), true);
    });
    await act(ref, { kind: 'click', button: 'left', double: true });
    expect(await page.evaluate(() => (window as unknown as { details: string[] }).details)).toEqual([
      'mousedown 1',
      'mouseup 1',
      'click 1',
      'mousedown 2',
      'mouseup 2',
      'click 2',
      'dblclick 2',
    ]);
    await events();
    await act(ref, { kind: 'click', button: 'right', double: false });
    const right = await events();
    expect(right).toContain('contextmenu:menu');
    expect(right).not.toContain('click:menu');
  });

  it('types character by character through the native setter so a React-like field sees every change', async () => {
    const ref = await refOf('"Nickname"');
    await events();
    const result = await act(ref, { kind: 'type', text: 'Ada', submit: false, clear: false });
    expect(result.changed).toEqual([`- textbox "Nickname" [active] [ref=${ref}]: Ada`]);
    expect(await page.evaluate(() => (window as unknown as { reactChanges: string[] }).reactChanges)).toEqual([
      'A',
      'Ad',
      'Ada',
    ]);
    const seen = await events();
    expect(seen.slice(0, 6)).toEqual([
      'focus:react',
      'keydown:react',
      'keypress:react',
      'beforeinput:react',
      'input:react',
      'keyup:react',
    ]);
    expect(seen.at(-1)).toBe('change:react');
    await act(ref, { kind: 'type', text: 'Bo', submit: false, clear: true });
    expect(await page.inputValue('#react')).toBe('Bo');
  });

  it('types into a contenteditable region', async () => {
    const ref = await refOf('"Notes"');
    await act(ref, { kind: 'type', text: 'Hello', submit: false, clear: false });
    expect(await page.textContent('#editor')).toBe('Hello');
  });

  it('fills a date, a range and a textarea, and refuses a file input and a bad date', async () => {
    expect((await act(await refOf('"Start date"'), { kind: 'fill', value: '2026-03-14' })).error).toBeUndefined();
    expect(await page.inputValue('#date')).toBe('2026-03-14');
    await act(await refOf('"Volume"'), { kind: 'fill', value: '8' });
    expect(await page.inputValue('#range')).toBe('8');
    await act(await refOf('"Bio"'), { kind: 'fill', value: 'Line one\nLine two' });
    expect(await page.inputValue('#bio')).toBe('Line one\nLine two');
    const file = await act(await refOf('"Resume"'), { kind: 'fill', value: '/etc/passwd' });
    expect(file.error).toBe('button "Resume" is a file input: use page_upload to give it files.');
    const bad = await act(await refOf('"Start date"'), { kind: 'fill', value: 'next Tuesday' });
    expect(bad.error).toBe('textbox "Start date" did not accept "next Tuesday": it takes a date as YYYY-MM-DD.');
  });

  it('selects by value or label, several in a multiple select, and names the options when one is missing', async () => {
    const country = await refOf('"Country"');
    await act(country, { kind: 'select', values: ['Germany'] });
    expect(await page.inputValue('#country')).toBe('de');
    await act(country, { kind: 'select', values: ['fr'] });
    expect(await page.inputValue('#country')).toBe('fr');
    const langs = await refOf('"Languages"');
    await act(langs, { kind: 'select', values: ['en', 'German'] });
    expect(
      await page.$eval('#langs', (s) => Array.from((s as HTMLSelectElement).selectedOptions, (o) => o.value)),
    ).toEqual(['en', 'German']);
    const missing = await act(country, { kind: 'select', values: ['Atlantis'] });
    expect(missing.error).toBe(
      'combobox "Country" has no option "Atlantis". Its options are: "Choose", "France", "Germany".',
    );
    const two = await act(country, { kind: 'select', values: ['fr', 'de'] });
    expect(two.error).toBe('combobox "Country" takes one option, not 2: pass one value.');
    expect((await act(await refOf('"Full name"'), { kind: 'select', values: ['x'] })).error).toMatch(
      /is not a <select>/,
    );
  });

  it('checks and unchecks a checkbox by clicking, and refuses to uncheck a radio', async () => {
    const agree = await refOf('"I agree"');
    const checked = await act(agree, { kind: 'check', checked: true });
    expect(checked.changed).toEqual([`- checkbox "I agree" [checked] [active] [ref=${agree}]`]);
    expect(await page.isChecked('#agree')).toBe(true);
    await act(agree, { kind: 'check', checked: true });
    expect(await page.isChecked('#agree')).toBe(true);
    await act(agree, { kind: 'check', checked: false });
    expect(await page.isChecked('#agree')).toBe(false);
    const planB = await refOf('"Plan B"');
    await act(planB, { kind: 'check', checked: true });
    expect(await page.isChecked('#pb')).toBe(true);
    const uncheck = await act(planB, { kind: 'check', checked: false });
    expect(uncheck.error).toBe(
      'radio "Plan B" is a radio button: it cannot be unchecked. Check another option of its group instead.',
    );
  });

  it('hovers with over and enter from the document down, then out and leave when the pointer moves on', async () => {
    const ref = await refOf('"Menu"');
    await page.evaluate(() => {
      for (const type of ['pointerout', 'pointerleave', 'mouseout', 'mouseleave']) {
        document.addEventListener(
          type,
          (e) => (window as unknown as { events: string[] }).events.push(`${type}:${(e.target as Element).id}`),
          true,
        );
      }
    });
    await events();
    const hovered = await act(ref, { kind: 'hover' });
    expect(await events()).toEqual([
      'pointerover:menu',
      'pointerenter:html',
      'pointerenter:body',
      'pointerenter:menu',
      'mouseover:menu',
      'mouseenter:html',
      'mouseenter:body',
      'mouseenter:menu',
      'pointermove:menu',
      'mousemove:menu',
    ]);
    expect(hovered).toMatchObject({ limits: [expect.stringMatching(/CSS :hover/)] });
    await act(await refOf('"Next page"'), { kind: 'hover' });
    expect(await events()).toEqual([
      'pointerout:menu',
      'pointerleave:menu',
      'pointerover:next',
      'pointerenter:next',
      'mouseout:menu',
      'mouseleave:menu',
      'mouseover:next',
      'mouseenter:next',
      'pointermove:next',
      'mousemove:next',
    ]);
  });

  it('presses Tab and Shift+Tab to move focus, Control+a and Backspace to clear, and rejects an unknown key', async () => {
    const name = await refOf('"Full name"');
    await act(name, { kind: 'type', text: 'Grace', submit: false, clear: false });
    const tab = await act(undefined, { kind: 'press', key: 'Tab' });
    expect(tab.focus).toMatch(/^- textbox "Nickname" \[active\]/);
    const back = await act(undefined, { kind: 'press', key: 'Shift+Tab' });
    expect(back.focus).toMatch(/^- textbox "Full name" \[active\]/);
    await act(name, { kind: 'press', key: 'Control+a' });
    await events();
    await act(name, { kind: 'press', key: 'Backspace' });
    expect(await page.inputValue('#name')).toBe('');
    expect(await events()).toEqual(['keydown:name', 'beforeinput:name', 'input:name', 'keyup:name']);
    const bad = await act(name, { kind: 'press', key: 'Hyper+q' });
    expect(bad.error).toBe(
      '"Hyper" in "Hyper+q" is not a modifier: use Control, Shift, Alt or Meta, joined with + (Control+Shift+a).',
    );
  });

  it('presses Enter on a button to click it and on a link to follow it, and Escape only as key events', async () => {
    const menu = await refOf('"Menu"');
    await events();
    await act(menu, { kind: 'press', key: 'Escape' });
    expect(await events()).toEqual(['keydown:menu', 'keyup:menu']);
    await act(menu, { kind: 'press', key: 'Enter' });
    expect(await events()).toEqual(['keydown:menu', 'keypress:menu', 'click:menu', 'keyup:menu']);
    const navigation = page.waitForURL('**/next');
    const followed = await act(await refOf('"Next page"'), { kind: 'press', key: 'Enter' });
    expect(followed.unloading).toBe(true);
    await navigation;
  });

  it('submits the form with Enter after typing, and the server gets the values', async () => {
    await act(await refOf('"Full name"'), { kind: 'fill', value: 'Ada Lovelace' });
    await act(await refOf('"Country"'), { kind: 'select', values: ['France'] });
    await act(await refOf('"I agree"'), { kind: 'check', checked: true });
    await act(await refOf('"Plan A"'), { kind: 'check', checked: true });
    const before = posted.length;
    const navigation = page.waitForURL('**/apply');
    const result = await act(await refOf('"Nickname"'), { kind: 'type', text: 'ada', submit: true, clear: false });
    expect(result.unloading).toBe(true);
    await navigation;
    expect(posted.slice(before)).toEqual([
      '/apply name=Ada+Lovelace&nickname=ada&start=&volume=5&bio=&country=fr&agree=yes&plan=a',
    ]);
  });

  it('scrolls the window by dy, an element into view, and a scroll pane by dy', async () => {
    await act(undefined, { kind: 'scroll', dy: 500 });
    expect(await page.evaluate(() => window.scrollY)).toBe(500);
    await act(await refOf('"Bottom"'), { kind: 'scroll', dy: 0 });
    expect(
      await page.evaluate(() => document.getElementById('bottom')?.getBoundingClientRect().top ?? -1),
    ).toBeLessThan(720);
    await page.evaluate(() => window.scrollTo(0, 0));
    const pane = await page.evaluate(() => {
      const el = document.getElementById('pane');
      el?.setAttribute('tabindex', '0');
      return el?.id;
    });
    expect(pane).toBe('pane');
    const paneRef = await refOf('clickable "tall"');
    await act(paneRef, { kind: 'scroll', dy: 300 });
    expect(await page.evaluate(() => document.getElementById('pane')?.scrollTop)).toBe(300);
  });

  it('refuses disabled and hidden targets and stale refs, naming the element', async () => {
    const snap = FrameSnapshot.parse(await agentCall(page, { op: 'snapshot', prefix: '', maxChars: 100_000 }));
    expect(snap.lines.join('\n')).not.toContain('Ghost');
    const off = await refOf('"Unavailable"');
    expect((await act(off, { kind: 'click', button: 'left', double: false })).error).toBe(
      'button "Unavailable" is disabled; it cannot be used until the page enables it.',
    );
    const bottom = await refOf('"Bottom"');
    await page.evaluate(() => document.getElementById('bottom')?.style.setProperty('display', 'none'));
    expect((await act(bottom, { kind: 'click', button: 'left', double: false })).error).toBe(
      'button "Bottom" is hidden, so a user could not click it. Call page_snapshot to see what is shown now.',
    );
    await page.evaluate(() => document.getElementById('bottom')?.remove());
    const stale = await act(bottom, { kind: 'click', button: 'left', double: false });
    expect(stale).toMatchObject({ stale: true, unloading: false, changed: [] });
    expect(stale.error).toMatch(/^Ref e\d+ is no longer on the page/);
  });

  it('fills and clicks inside an open shadow root and reports the change there', async () => {
    await visit(page, '/shadow', agent);
    await act(await refOf('"Quantity"'), { kind: 'fill', value: '3' });
    expect(
      await page.evaluate(() => document.querySelector('shop-widget')?.shadowRoot?.querySelector('input')?.value),
    ).toBe('3');
    const ref = await refOf('"Add"');
    const clicked = await act(ref, { kind: 'click', button: 'left', double: false });
    expect(clicked.changed.join('\n')).toContain(`button "Added" [active] [ref=${ref}]`);
  });
});
