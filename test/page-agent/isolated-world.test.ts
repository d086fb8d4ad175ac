/**
 * The agent where the extension runs it: an isolated world, which shares the DOM with the page but not its
 * JavaScript. The page cannot see the agent, the agent does not see the page's instance properties (React's value
 * tracker), and dialogs and errors reach the agent only through the main-world shim.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActResult, FrameSnapshot } from '../../extension/src/shared/agent-contract';
import { installIsolated, installShim, ORIGIN, startSite } from './harness';
import { effectsPage, formPage } from './pages';

const CHANNEL = 'tether-isolated-channel-77a0';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  // No agent in the main world here: each test installs it in an isolated world.
  ({ browser, page, agent } = await startSite(
    { '/form': formPage(), '/effects': effectsPage(), '/slow-price': '42' },
    { mainWorld: false },
  ));
});

afterAll(async () => {
  await browser?.close();
});

function refIn(snap: FrameSnapshot, text: string): string {
  const ref = /\[ref=(e\d+)\]/.exec(snap.lines.find((l) => l.includes(text)) ?? '')?.[1];
  if (!ref) throw new Error(`No ref on a line with ${text}`);
  return ref;
}

/**
 * Opens the effects page with the agent in an isolated world and the main-world shim, and returns a click on the
 * element whose snapshot line holds `text`, waiting for quiet `quietMs` up to `capMs`.
 */
async function effectsClicker(quietMs: number, capMs: number): Promise<(text: string) => Promise<ActResult>> {
  await page.goto(`${ORIGIN}/effects`);
  const isolated = await installIsolated(page, agent);
  await installShim(page, CHANNEL);
  const snap = FrameSnapshot.parse(await isolated.call({ op: 'snapshot', prefix: '', maxChars: 1_000_000 }));
  return async (text) =>
    ActResult.parse(
      await isolated.call({
        op: 'act',
        prefix: '',
        ref: refIn(snap, text),
        action: { kind: 'click', button: 'left', double: false },
        quietMs,
        capMs,
        channel: CHANNEL,
      }),
    );
}

describe('page agent in an isolated world', () => {
  it('is invisible to the page and types so that a React-like field in the page sees each change', async () => {
    await page.goto(`${ORIGIN}/form`);
    const isolated = await installIsolated(page, agent);
    expect(await page.evaluate(() => '__tetherPageAgent' in globalThis)).toBe(false);
    const snap = FrameSnapshot.parse(await isolated.call({ op: 'snapshot', prefix: '', maxChars: 100_000 }));
    const result = ActResult.parse(
      await isolated.call({
        op: 'act',
        prefix: '',
        ref: refIn(snap, '"Nickname"'),
        action: { kind: 'type', text: 'Ada', submit: false, clear: false },
        quietMs: 50,
        capMs: 1000,
      }),
    );
    expect(result.error).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { reactChanges: string[] }).reactChanges)).toEqual([
      'A',
      'Ad',
      'Ada',
    ]);
    expect(await page.inputValue('#react')).toBe('Ada');
  });

  it('hears dialogs and page errors from the main-world shim across worlds', async () => {
    const click = await effectsClicker(100, 1500);
    const dismissed = await click('"Remove item"');
    expect(dismissed.dialogs).toEqual([{ type: 'confirm', message: 'Remove this item?', accepted: false }]);
    expect(await page.textContent('#answer')).toBe('kept');
    const broken = await click('"Break"');
    expect(broken.errors).toEqual(['Uncaught Error: boom in handler']);
    const fetched = await click('"Fetch price"');
    expect(fetched.changed.join('\n')).toContain('text: Price: 42');
  });

  it('answers a click that starts nothing without waiting out the quiet window, and waits it out for timers and frames', async () => {
    const click = await effectsClicker(1_000, 3_000);
    const idle = await click('"Do nothing"');
    expect(idle).toMatchObject({ unloading: false, dialogs: [], errors: [] });
    expect(idle.settledMs).toBeLessThan(1_000);
    // Work the click only scheduled (a timer, animation frames) shows no change at first, yet it was started.
    const soon = await click('"Render soon"');
    expect(soon.changed.join('\n')).toContain('Rendered soon');
    expect(soon.settledMs).toBeGreaterThanOrEqual(1_000);
    const framed = await click('"Render next frame"');
    expect(framed.changed.join('\n')).toContain('Rendered in a frame');
  });

  it('draws the highlight from the isolated world, out of the page scripts reach', async () => {
    await page.goto(`${ORIGIN}/form`);
    const isolated = await installIsolated(page, agent);
    const snap = FrameSnapshot.parse(await isolated.call({ op: 'snapshot', prefix: '', maxChars: 100_000 }));
    expect(await isolated.call({ op: 'highlight', ref: refIn(snap, '"Apply"'), label: 'Apply' })).toEqual({
      stale: false,
    });
    expect(await page.evaluate(() => document.querySelector('tether-highlight')?.shadowRoot ?? 'closed')).toBe(
      'closed',
    );
    await isolated.call({ op: 'highlight', ref: null });
    expect(await page.evaluate(() => document.querySelector('tether-highlight'))).toBeNull();
  });
});
