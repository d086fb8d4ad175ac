/**
 * Where the agent points in real Chromium: `locate` (the point a user would click, what covers it, an iframe's
 * content offset), and synthetic clicks aimed at what is under that point instead of at the ref's element.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActResult,
  type AgentAction,
  FrameSnapshot,
  LocateResult,
  TARGET_MARK,
  WatchResult,
} from '../../extension/src/shared/agent-contract';
import { agentCall, startSite, visit, refOnLine } from './harness';
import { POINTING_PAGE } from './input-pages';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({ '/pointing': POINTING_PAGE }));
  await page.setViewportSize({ width: 800, height: 600 });
});

afterAll(async () => {
  await browser?.close();
});

const refOf = (text: string): Promise<string> => refOnLine(page, text);

async function act(ref: string, action: AgentAction): Promise<ActResult> {
  return ActResult.parse(await agentCall(page, { op: 'act', prefix: '', ref, action, quietMs: 50, capMs: 1000 }));
}

async function locate(ref: string): Promise<LocateResult> {
  return LocateResult.parse(await agentCall(page, { op: 'locate', ref }));
}

describe('pointing at elements', () => {
  it('locates an element below the fold: scrolls it to the middle and gives its centre and facts', async () => {
    await visit(page, '/pointing', agent);
    await page.evaluate(() => document.getElementById('banner')?.remove());
    const located = await locate(await refOf('"Buy"'));
    if (!('point' in located)) throw new Error(JSON.stringify(located));
    const truth = await page.evaluate(() => {
      const r = document.getElementById('buy')?.getBoundingClientRect() ?? new DOMRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, scrolled: window.scrollY };
    });
    expect(truth.scrolled).toBeGreaterThan(1000);
    expect(located.point.x).toBeCloseTo(truth.x, 5);
    expect(located.point.y).toBeCloseTo(truth.y, 5);
    expect(located.point.y).toBeGreaterThan(200);
    expect(located.point.y).toBeLessThan(400);
    expect(located.facts).toMatchObject({ role: 'button', name: 'Buy', tag: 'button' });
    expect(located.covered).toBeUndefined();
  });

  it('says what covers an element, and refuses a synthetic click through the cover naming it', async () => {
    await visit(page, '/pointing', agent);
    const buy = await refOf('"Buy"');
    const located = await locate(buy);
    expect(located).toMatchObject({ covered: 'covered by div "We use cookies" (dialog)' });
    const refused = await act(buy, { kind: 'click', button: 'left', double: false });
    expect(refused.error).toBe(
      'button "Buy" is covered by div "We use cookies" (dialog), so a user\'s click would land on that. ' +
        'Close or answer it first (look for its buttons in page_snapshot), then try again.',
    );
    expect(await page.evaluate(() => (window as unknown as { bought?: boolean }).bought)).toBeUndefined();
  });

  it('clicks the cover when asked to, and the element once the cover is gone', async () => {
    await visit(page, '/pointing', agent);
    const buy = await refOf('"Buy"');
    await page.evaluate(() => {
      const banner = document.getElementById('banner');
      banner?.addEventListener('click', (e) => {
        (window as unknown as { coverClicked: string }).coverClicked = (e.target as Element).localName;
      });
    });
    const onCover = await act(buy, { kind: 'click', button: 'left', double: false, clickCover: true });
    expect(onCover.error).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { coverClicked?: string }).coverClicked)).toBe('div');
    expect(await page.evaluate(() => (window as unknown as { bought?: boolean }).bought)).toBeUndefined();
    await act(await refOf('"Accept"'), { kind: 'click', button: 'left', double: false });
    const clicked = await act(buy, { kind: 'click', button: 'left', double: false });
    expect(clicked.error).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { bought?: boolean }).bought)).toBe(true);
  });

  it('clicks the link a tab draws itself with, so a tab library listening on it switches', async () => {
    await visit(page, '/pointing', agent);
    const two = await refOf('tab "Two"');
    const result = await act(two, { kind: 'click', button: 'left', double: false });
    expect(result.error).toBeUndefined();
    expect(await page.$eval('#shown', (el) => el.textContent)).toBe('Two');
    expect(result.changed.join('\n')).toContain(`tab "Two" [selected] [ref=${two}]`);
  });

  it('checks a zero-size checkbox through the label that draws it, without calling the label a cover', async () => {
    await visit(page, '/pointing', agent);
    await page.evaluate(() => document.getElementById('banner')?.remove());
    const terms = await refOf('checkbox "Accept terms"');
    const located = await locate(terms);
    expect(located).toMatchObject({ stale: false, facts: { role: 'checkbox' } });
    expect(located).not.toHaveProperty('covered');
    expect((await act(terms, { kind: 'check', checked: true })).error).toBeUndefined();
    expect(await page.$eval('#terms', (el) => (el as HTMLInputElement).checked)).toBe(true);
  });

  it("gives an iframe's content box origin so the worker can add it to points inside", async () => {
    await visit(page, '/pointing', agent);
    await page.evaluate(() => document.getElementById('banner')?.remove());
    const snap = FrameSnapshot.parse(await agentCall(page, { op: 'snapshot', prefix: '', maxChars: 100_000 }));
    const located = await locate(snap.iframes[0]?.ref ?? '');
    const box = await page.evaluate(() => document.getElementById('frame')?.getBoundingClientRect().toJSON());
    expect(located).toMatchObject({ frame: { x: box.left + 12, y: box.top + 12 } });
  });

  it('answers a hidden element with an error and a stale ref as stale', async () => {
    await visit(page, '/pointing', agent);
    const buy = await refOf('"Buy"');
    await page.evaluate(() => {
      const b = document.getElementById('buy');
      if (b) b.style.visibility = 'hidden';
    });
    expect(await locate(buy)).toEqual({ stale: false, error: 'button "Buy" is hidden.' });
    await page.evaluate(() => document.getElementById('buy')?.remove());
    expect(await locate(buy)).toMatchObject({ stale: true });
  });

  it('sends press and release with the button held, whole-click detail, and the point in every event', async () => {
    await visit(page, '/pointing', agent);
    await page.evaluate(() => {
      document.getElementById('banner')?.remove();
      const log: string[] = [];
      (window as unknown as { log: string[] }).log = log;
      for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick']) {
        document.getElementById('buy')?.addEventListener(type, (e) => {
          const m = e as PointerEvent;
          log.push(`${type} button=${m.button} buttons=${m.buttons} detail=${m.detail} ${m.clientX},${m.clientY}`);
        });
      }
    });
    await act(await refOf('"Buy"'), { kind: 'click', button: 'left', double: true });
    const { log, x, y } = await page.evaluate(() => {
      const r = document.getElementById('buy')?.getBoundingClientRect() ?? new DOMRect();
      return {
        log: (window as unknown as { log: string[] }).log,
        x: Math.floor(r.left + r.width / 2),
        y: Math.floor(r.top + r.height / 2),
      };
    });
    const at = (line: string) => line.replace(/ [\d.]+,[\d.]+$/, '');
    expect(log.map(at)).toEqual([
      'pointerdown button=0 buttons=1 detail=0',
      'mousedown button=0 buttons=1 detail=1',
      'pointerup button=0 buttons=0 detail=0',
      'mouseup button=0 buttons=0 detail=1',
      'click button=0 buttons=0 detail=1',
      'pointerdown button=0 buttons=1 detail=0',
      'mousedown button=0 buttons=1 detail=2',
      'pointerup button=0 buttons=0 detail=0',
      'mouseup button=0 buttons=0 detail=2',
      'click button=0 buttons=0 detail=2',
      'dblclick button=0 buttons=0 detail=2',
    ]);
    for (const line of log) {
      const [px, py] = (/ ([\d.]+),([\d.]+)$/.exec(line) ?? []).slice(1).map(Number);
      expect(Math.abs((px ?? 0) - x)).toBeLessThanOrEqual(1);
      expect(Math.abs((py ?? 0) - y)).toBeLessThanOrEqual(1);
    }
  });

  it('reports what a trusted click at the located point changed, between watch and settle', async () => {
    await visit(page, '/pointing', agent);
    const two = await refOf('tab "Two"');
    const located = await locate(two);
    if (!('point' in located)) throw new Error(JSON.stringify(located));
    expect(await agentCall(page, { op: 'watch', prefix: '', ref: two })).toEqual({ stale: false, watching: true });
    await page.mouse.click(located.point.x, located.point.y);
    const result = ActResult.parse(await agentCall(page, { op: 'settle', quietMs: 50, capMs: 1000 }));
    expect(await page.$eval('#shown', (el) => el.textContent)).toBe('Two');
    expect(result.changed.join('\n')).toContain(`tab "Two" [selected] [ref=${two}]`);
    expect(result.limits).toBeUndefined();
    const again = ActResult.parse(await agentCall(page, { op: 'settle', quietMs: 50, capMs: 1000 }));
    expect(again.error).toMatch(/No trusted action was being watched/);
  });

  it('locates the element and starts the watch in one call, and settle reports the trusted click at that point', async () => {
    await visit(page, '/pointing', agent);
    const two = await refOf('tab "Two"');
    const watched = WatchResult.parse(
      await agentCall(page, { op: 'watch', prefix: '', ref: two, aim: { coverOk: false } }),
    );
    if (watched.stale || !watched.aim || !('point' in watched.aim)) throw new Error(JSON.stringify(watched));
    expect(watched.watching).toBe(true);
    expect(watched.aim.facts).toMatchObject({ role: 'tab', name: 'Two' });
    expect(watched.aim.covered).toBeUndefined();
    await page.mouse.click(watched.aim.point.x, watched.aim.point.y);
    const result = ActResult.parse(await agentCall(page, { op: 'settle', quietMs: 50, capMs: 1000 }));
    expect(await page.$eval('#shown', (el) => el.textContent)).toBe('Two');
    expect(result.changed.join('\n')).toContain(`tab "Two" [selected] [ref=${two}]`);
  });

  it('starts no watch for a covered element unless the cover is allowed, and ends the watch before it either way', async () => {
    await visit(page, '/pointing', agent);
    const buy = await refOf('"Buy"');
    const settle = async () => ActResult.parse(await agentCall(page, { op: 'settle', quietMs: 50, capMs: 1000 }));
    await agentCall(page, { op: 'watch', prefix: '', ref: await refOf('tab "Two"') });
    const refused = WatchResult.parse(
      await agentCall(page, { op: 'watch', prefix: '', ref: buy, aim: { coverOk: false } }),
    );
    expect(refused).toMatchObject({
      stale: false,
      watching: false,
      aim: { covered: 'covered by div "We use cookies" (dialog)' },
    });
    expect((await settle()).error).toMatch(/No trusted action was being watched/);
    const allowed = WatchResult.parse(
      await agentCall(page, { op: 'watch', prefix: '', ref: buy, aim: { coverOk: true } }),
    );
    expect(allowed).toMatchObject({ watching: true, aim: { covered: 'covered by div "We use cookies" (dialog)' } });
    expect((await settle()).error).toBeUndefined();
  });

  it('starts no watch for an element it cannot point at (hidden), and answers a removed one as stale', async () => {
    await visit(page, '/pointing', agent);
    const buy = await refOf('"Buy"');
    await page.$eval('#buy', (el) => {
      (el as HTMLElement).style.display = 'none';
    });
    expect(await agentCall(page, { op: 'watch', prefix: '', ref: buy, aim: { coverOk: true } })).toEqual({
      stale: false,
      watching: false,
      aim: { stale: false, error: 'button "Buy" is hidden.' },
    });
    await page.$eval('#buy', (el) => el.remove());
    expect(await agentCall(page, { op: 'watch', prefix: '', ref: buy, aim: { coverOk: true } })).toMatchObject({
      stale: true,
    });
  });

  it('ends a watch nobody settled when the next action starts, so it reports into nothing', async () => {
    await visit(page, '/pointing', agent);
    await agentCall(page, { op: 'watch', prefix: '', ref: await refOf('tab "Two"') });
    const one = await refOf('tab "One"');
    expect((await act(one, { kind: 'click', button: 'left', double: false })).error).toBeUndefined();
    const after = ActResult.parse(await agentCall(page, { op: 'settle', quietMs: 50, capMs: 1000 }));
    expect(after.error).toMatch(/No trusted action was being watched/);
  });

  it('marks an element for the worker to find through CDP, and unmarks it', async () => {
    await visit(page, '/pointing', agent);
    const buy = await refOf('"Buy"');
    expect(await agentCall(page, { op: 'mark', ref: buy, token: 't-1' })).toEqual({ stale: false });
    expect(await page.$eval(`[${TARGET_MARK}="t-1"]`, (el) => el.id)).toBe('buy');
    await agentCall(page, { op: 'mark', ref: buy, token: null });
    expect(await page.$(`[${TARGET_MARK}]`)).toBeNull();
  });
});
