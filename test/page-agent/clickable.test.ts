/**
 * Refs on what a user can act on without a control role, in real Chromium: word-link spans, anchors without href,
 * calendar days in divs, pointer-cursor divs and cards, focusable divs, grid cells and a code editor's 1x1 px
 * textarea; each clicked (or typed into) through the agent's own act call. Also text found inside a paragraph, long
 * field values cut with a note, and the agent in an isolated world, where page listeners cannot be seen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActResult, type AgentAction, type FindResult, FrameSnapshot } from '../../extension/src/shared/agent-contract';
import { clickablesPage } from './clickable-pages';
import { agentCall, installIsolated, startSite, visit } from './harness';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({ '/shapes': clickablesPage() }));
});

afterAll(async () => {
  await browser?.close();
});

async function lines(): Promise<string[]> {
  return FrameSnapshot.parse(await agentCall(page, { op: 'snapshot', prefix: '', maxChars: 100_000 })).lines;
}

function refIn(all: string[], text: string): string {
  const ref = /\[ref=(e\d+)\]/.exec(all.find((l) => l.includes(text)) ?? '')?.[1];
  if (!ref) throw new Error(`No ref on a line with ${text}:\n${all.join('\n')}`);
  return ref;
}

async function act(ref: string, action: AgentAction): Promise<ActResult> {
  return ActResult.parse(await agentCall(page, { op: 'act', prefix: '', ref, action, quietMs: 30, capMs: 1000 }));
}

const CLICK: AgentAction = { kind: 'click', button: 'left', double: false };

async function clicks(): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { clicks: string[] }).clicks.splice(0));
}

describe('refs on what a user can click', () => {
  beforeAll(async () => {
    await visit(page, '/shapes', agent);
  });

  it('gives a word-link span, anchors without href and each calendar day a line with a ref, named by its text', async () => {
    const all = await lines();
    expect(all).toContain('  - text: By signing up you accept the terms of use and the privacy notice.');
    expect(all).toContainEqual(expect.stringMatching(/^ {4}- clickable "terms of use" \[ref=e\d+\]$/));
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- clickable "Prev" \[ref=e\d+\]$/));
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- clickable "Next" \[ref=e\d+\]$/));
    for (const day of ['28', '29', '30', '1', '5', '10']) {
      expect(all).toContainEqual(expect.stringMatching(new RegExp(`^ {2}- clickable "${day}" \\[ref=e\\d+\\]$`)));
    }
    // Neither the days nor Prev/Next run together into one text line any more.
    expect(all.join('\n')).not.toMatch(/282930|PrevNext|Prev Next/);
  });

  it('keeps only the rest of a run of inline days as text when the days have lines of their own', async () => {
    const all = await lines();
    const at = all.indexOf('  - text: 19 20');
    expect(at).toBeGreaterThan(-1);
    expect(all.slice(at + 1, at + 6)).toEqual(
      [14, 15, 16, 17, 18].map((d) => expect.stringMatching(new RegExp(`^ {4}- clickable "${d}" \\[ref=e\\d+\\]$`))),
    );
    expect(all.join('\n')).not.toContain('1415');
  });

  it("names an unnamed icon clickable by its page's first wordy class, and clicks it", async () => {
    const all = await lines();
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- clickable \[class=next-month\] \[ref=e\d+\]$/));
    await clicks();
    await act(refIn(all, '[class=next-month]'), CLICK);
    expect(await clicks()).toEqual(['arrow']);
  });

  it('gives a pointer region one ref (not its inner spans) and leaves a pointer wrapper of a button to the button', async () => {
    const all = await lines();
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- clickable "Fancy action" \[ref=e\d+\]$/));
    expect(all.filter((l) => /"Fancy"|"action"/.test(l))).toEqual([]);
    expect(all.filter((l) => l.includes('Wrapped'))).toEqual([expect.stringMatching(/^ {2}- button "Wrapped" \[ref=/)]);
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- clickable "Focus target" \[ref=e\d+\]$/));
  });

  it('clicks each new kind of ref on its own element', async () => {
    const all = await lines();
    await clicks();
    const targets: [string, string][] = [
      ['"terms of use"', 'terms'],
      ['"Prev"', 'prev'],
      ['"Next"', 'next'],
      ['clickable "5"', 'day-5'],
      ['clickable "28"', 'day-prev-28'],
      ['"Fancy action"', 'fancy'],
      ['"Focus target"', 'focusable'],
    ];
    for (const [text, id] of targets) {
      const result = await act(refIn(all, text), CLICK);
      expect(result.error).toBeUndefined();
      expect(await clicks()).toEqual([id]);
    }
  });

  it('gives sortable items drawn with a grab cursor and a draggable tile a ref each, for a drag between them', async () => {
    const all = await lines();
    for (const name of ['Harbour', 'Lighthouse', 'Dunes'])
      expect(all).toContainEqual(expect.stringMatching(new RegExp(`^ {2}- listitem "${name}" \\[ref=e\\d+\\]$`)));
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- clickable "Photo tile" \[ref=e\d+\]$/));
  });

  it('gives grid cells refs inside their row line, not the header, and double-clicks a cell', async () => {
    const all = await lines();
    expect(all).toContain('    - row: Name | Age');
    const row = all.find((l) => l.includes('Ada')) ?? '';
    expect(row).toMatch(/^ {4}- row: Ada \[ref=e\d+\] \| 36 \[ref=e\d+\]$/);
    await clicks();
    await act(refIn([row], 'Ada'), { kind: 'click', button: 'left', double: true });
    expect(await clicks()).toContain('dbl:cell-ada');
  });

  it("opens a grid cell's editor with a double-click, shows it with a ref in the row and the focus, and commits a replaced value", async () => {
    await visit(page, '/shapes', agent);
    const row = (await lines()).find((l) => l.includes('Ada')) ?? '';
    const cell = /\| 36 \[ref=(e\d+)\]$/.exec(row)?.[1] ?? '';
    // Typing into the cell itself is refused with the way to its editor.
    expect((await act(cell, { kind: 'type', text: '41', submit: true, clear: true })).error).toMatch(
      /is not a text field: double-click it \(page_click with double\) to open its editor/,
    );
    const opened = await act(cell, { kind: 'click', button: 'left', double: true });
    expect(opened.focus).toMatch(/^- textbox \[active\] \[ref=e\d+\]: 36$/);
    const editor = /ref=(e\d+)/.exec(opened.focus ?? '')?.[1] ?? '';
    expect(opened.changed).toContainEqual(
      expect.stringMatching(new RegExp(`\\| textbox \\[active\\] \\[ref=${editor}\\]: 36$`)),
    );
    const typed = await act(editor, { kind: 'type', text: '41', submit: true, clear: true });
    expect(typed.error).toBeUndefined();
    expect(await page.$eval('#cell-36', (el) => el.textContent)).toBe('41');
    expect((await lines()).find((l) => l.includes('Ada'))).toMatch(/^ {4}- row: Ada \[ref=e\d+\] \| 41 \[ref=e\d+\]$/);
  });

  it("keeps a code editor's 1x1 px textarea as a field with a ref and types into it", async () => {
    const all = await lines();
    expect(all).toContainEqual(expect.stringMatching(/^ {2}- textbox "Code editor" \[ref=e\d+\]$/));
    const typed = await act(refIn(all, '"Code editor"'), {
      kind: 'type',
      text: 'let x = 1',
      submit: false,
      clear: false,
    });
    expect(typed.error).toBeUndefined();
    expect(await page.$eval('#code', (el) => (el as HTMLTextAreaElement).value)).toBe('let x = 1');
  });

  it('writes a large pointer card as a container line with a ref over its own content', async () => {
    const all = await lines();
    const at = all.findIndex((l) => /^ {2}- clickable \[ref=e\d+\]:$/.test(l));
    expect(at).toBeGreaterThan(-1);
    expect(all[at + 1]).toBe('    - heading "Lighthouse tour" [level=3]');
    expect(all[at + 2]).toMatch(/^ {4}- text: A walk along the cliffs/);
    expect(all[at + 3]).toMatch(/^ {4}- button "Book" \[ref=e\d+\]$/);
    await clicks();
    await act(refIn([all[at] ?? ''], 'clickable'), CLICK);
    expect(await clicks()).toEqual(['card']);
  });

  it('keeps hidden clickables and hidden fields out: display none, screen-reader only, tabindex -1, off the page', async () => {
    const text = (await lines()).join('\n');
    expect(text).not.toContain('"31"');
    expect(text).not.toContain('Screen reader only action');
    expect(text).not.toContain('Clipboard helper');
    expect(text).not.toContain('Website');
  });

  it('finds a word inside a paragraph with a ref of its own, so a click lands on that word', async () => {
    await lines();
    const found = await agentCall<FindResult>(page, { op: 'find', prefix: '', text: 'cookie policy', max: 5 });
    expect(found.total).toBe(1);
    expect(found.matches[0]).toMatch(
      /^- text "cookie policy" \[ref=e\d+\] in: text: Please read the cookie policy before you go on\.$/,
    );
    await clicks();
    await act(refIn(found.matches, 'cookie policy'), CLICK);
    expect(await clicks()).toEqual(['policy']);
  });

  it('cuts a long field value with a note saying how long it is and how to read it whole, never a password', async () => {
    const all = await lines();
    const bio = all.find((l) => l.includes('textbox "Bio"')) ?? '';
    expect(bio).toMatch(/: Sentence 1 of the biography .{40,}… \[cut: 879 chars; page_read with this ref reads all\]$/);
    expect(all.find((l) => l.includes('textbox "Title"'))).toMatch(/\[cut: 131 chars; /);
    expect(all.join('\n')).not.toContain('hunter2');
  });
});

describe('refs on clickables from an isolated world', () => {
  it('sees inline onclick attributes and pointer cursors, which need nothing from the page world', async () => {
    await page.goto('http://shop.tether.test/shapes');
    const isolated = await installIsolated(page, agent);
    const snap = FrameSnapshot.parse(await isolated.call({ op: 'snapshot', prefix: '', maxChars: 100_000 }));
    expect(snap.lines).toContainEqual(expect.stringMatching(/- clickable "terms of use" \[ref=e\d+\]$/));
    expect(snap.lines).toContainEqual(expect.stringMatching(/- clickable "5" \[ref=e\d+\]$/));
    await clicks();
    const ref = refIn(snap.lines, 'clickable "5"');
    await isolated.call({ op: 'act', prefix: '', ref, action: CLICK, quietMs: 30, capMs: 1000 });
    expect(await clicks()).toEqual(['day-5']);
  });
});
