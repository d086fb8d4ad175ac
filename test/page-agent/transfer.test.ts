/**
 * Drag and upload in real Chromium: an HTML5 drag-and-drop list, a list that sorts on pointer moves past a
 * threshold, a drop at a position within the target, files set on a file input as a user's choice, and files
 * dropped on a drop zone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActResult, type AgentAction } from '../../extension/src/shared/agent-contract';
import { agentCall, startSite, visit, refOnLine } from './harness';
import { TRANSFER_PAGE } from './input-pages';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({ '/transfer': TRANSFER_PAGE }));
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await visit(page, '/transfer', agent);
});

const refOf = (text: string): Promise<string> => refOnLine(page, text);

async function act(ref: string, action: AgentAction): Promise<ActResult> {
  return ActResult.parse(await agentCall(page, { op: 'act', prefix: '', ref, action, quietMs: 50, capMs: 2000 }));
}

const order = (id: string) => page.$$eval(`#${id} li`, (lis) => lis.map((li) => li.textContent).join(' '));
const log = () => page.evaluate(() => (window as unknown as { log: string[] }).log.splice(0));
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('drag', () => {
  it('drags a draggable item with HTML5 drag-and-drop and its DataTransfer', async () => {
    const result = await act(await refOf('"N1"'), { kind: 'drag', to: await refOf('"N3"') });
    expect(result.error).toBeUndefined();
    expect(await order('native')).toBe('N2 N3 N1');
  });

  it('decides on HTML5 drag after the press, for lists that make an item draggable only on pointerdown', async () => {
    await page.evaluate(() => {
      const native = document.getElementById('native');
      for (const li of Array.from(native?.querySelectorAll('li') ?? [])) li.removeAttribute('draggable');
      native?.addEventListener('pointerdown', (e) => {
        (e.target as HTMLElement).closest('li')?.setAttribute('draggable', 'true');
      });
    });
    const result = await act(await refOf('"N1"'), { kind: 'drag', to: await refOf('"N3"') });
    expect(result.error).toBeUndefined();
    expect(await order('native')).toBe('N2 N3 N1');
  });

  it('drags an item of a pointer-driven list with moves past its threshold', async () => {
    const result = await act(await refOf('"P1"'), { kind: 'drag', to: await refOf('"P3"') });
    expect(result.error).toBeUndefined();
    expect(await order('pointer')).toBe('P2 P3 P1');
  });

  it('drops at a position within the target', async () => {
    await act(await refOf('"Chip"'), { kind: 'drag', to: await refOf('"Board"'), position: { x: 250, y: 150 } });
    expect(await log()).toEqual(['dropped at 250,150']);
  });
});

describe('upload', () => {
  it('sets files on a file input as a user choice: input, then change with the files readable', async () => {
    const result = await act(await refOf('"Attachment"'), {
      kind: 'upload',
      files: [
        { name: 'notes.txt', type: 'text/plain', base64: b64('hello') },
        { name: 'data.csv', type: 'text/csv', base64: b64('a,b') },
      ],
    });
    expect(result.error).toBeUndefined();
    expect(result.limits).toEqual(['data.csv is not among the types the input accepts (.txt,image/*).']);
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.length >= 2);
    expect(await log()).toEqual(['file input', 'file change notes.txt:text/plain:hello data.csv:text/csv:a,b']);
  });

  it('says plainly that a synthetic click cannot open the file picker, and points to page_upload', async () => {
    const clicked = await act(await refOf('"Attachment"'), { kind: 'click', button: 'left', double: false });
    expect(clicked.limits).toEqual([
      'A synthetic click cannot open the file picker: use page_upload to give the input files.',
    ]);
  });

  it('finds the hidden file input of a picker button, and refuses two files for a single-file input', async () => {
    const avatar = await refOf('"Choose avatar"');
    const two = await act(avatar, {
      kind: 'upload',
      files: [
        { name: 'a.png', type: 'image/png', base64: b64('a') },
        { name: 'b.png', type: 'image/png', base64: b64('b') },
      ],
    });
    expect(two.error).toMatch(/takes one file, not 2: upload one\.$/);
    await act(avatar, { kind: 'upload', files: [{ name: 'me.png', type: 'image/png', base64: b64('png') }] });
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.length >= 2);
    expect(await log()).toEqual(['avatar input', 'avatar change me.png:image/png:png']);
  });

  it('drops files on a drop zone, and says so when the element takes no drop', async () => {
    const dropped = await act(await refOf('"Drop files here"'), {
      kind: 'upload',
      files: [{ name: 'photo.txt', type: 'text/plain', base64: b64('pixels') }],
    });
    expect(dropped.error).toBeUndefined();
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.length >= 1);
    expect(await log()).toEqual(['zone photo.txt:pixels']);
    const refused = await act(await refOf('"Not a zone"'), {
      kind: 'upload',
      files: [{ name: 'photo.txt', type: 'text/plain', base64: b64('pixels') }],
    });
    expect(refused.error).toBe(
      'generic "Not a zone" does not take dropped files (it did not accept the drag). Upload to its file input instead.',
    );
  });
});
