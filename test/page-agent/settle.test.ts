/**
 * What an action reports once the page settles, in real Chromium: the changed region, requests the action started,
 * unloading, dialogs answered through the main-world shim, page errors; and `wait` for text.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActResult, type DialogPolicy, FrameSnapshot, WaitResult } from '../../extension/src/shared/agent-contract';
import { agentCall, installShim, ORIGIN, startSite, visit, refOnLine } from './harness';
import { effectsPage } from './pages';

const CHANNEL = 'tether-test-channel-5d1c';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({ '/effects': effectsPage() }));
  await page.route(`${ORIGIN}/slow-price`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.fulfill({ status: 200, contentType: 'text/plain', body: '42' });
  });
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  await visit(page, '/effects', agent);
});

const refOf = (text: string): Promise<string> => refOnLine(page, text, 1_000_000);

async function click(text: string, options: { quietMs?: number; dialog?: DialogPolicy; channel?: boolean } = {}) {
  const ref = await refOf(text);
  const reply = await agentCall(page, {
    op: 'act',
    prefix: '',
    ref,
    action: { kind: 'click', button: 'left', double: false },
    quietMs: options.quietMs ?? 100,
    capMs: 1500,
    ...(options.dialog ? { dialog: options.dialog } : {}),
    ...(options.channel === false ? {} : { channel: CHANNEL }),
  });
  return ActResult.parse(reply);
}

describe('page agent settle', () => {
  it('reports the region a click changed 300 ms later once the quiet window covers it', async () => {
    const result = await click('"Load details"', { quietMs: 400, channel: false });
    expect(result.changed).toEqual([
      '- region "Details":',
      '  - heading "Details" [level=2]',
      '  - text: Ships in 2 days',
      expect.stringMatching(/^ {2}- button "Buy now" \[ref=e\d+\]$/),
    ]);
    expect(result.settledMs).toBeGreaterThanOrEqual(300);
    expect(result.settledMs).toBeLessThan(1500);
  });

  it('keeps waiting while a request the action started is in flight, seen through the shim', async () => {
    expect(await installShim(page, CHANNEL)).toBe(true);
    expect(await installShim(page, CHANNEL)).toBe(false);
    const result = await click('"Fetch price"', { quietMs: 100 });
    expect(result.changed.join('\n')).toContain('text: Price: 42');
    expect(result.settledMs).toBeGreaterThanOrEqual(300);
  });

  it('waits out the whole quiet window without the shim, which alone sees timers and requests', async () => {
    const result = await click('"Do nothing"', { quietMs: 300, channel: false });
    expect(result.settledMs).toBeGreaterThanOrEqual(300);
  });

  it('reports a changed table row as its row line', async () => {
    await page.evaluate(() => document.querySelector('#r5 .close')?.setAttribute('id', 'close5'));
    const snap = FrameSnapshot.parse(await agentCall(page, { op: 'snapshot', prefix: '', maxChars: 1_000_000 }));
    const row = snap.lines.find((l) => l.includes('Item 5 |')) ?? '';
    const ref = /\[ref=(e\d+)\]/.exec(row)?.[1] ?? '';
    const result = ActResult.parse(
      await agentCall(page, {
        op: 'act',
        prefix: '',
        ref,
        action: { kind: 'click', button: 'left', double: false },
        quietMs: 50,
        capMs: 1000,
      }),
    );
    expect(result.changed).toEqual([`- row: Item 5 | Closed | "Close" [active] [ref=${ref}]`]);
  });

  it('answers at once when the click starts a navigation', async () => {
    const navigation = page.waitForURL('**/next');
    const result = await click('"Leave"', { quietMs: 100 });
    expect(result).toMatchObject({ unloading: true, changed: [], dialogs: [] });
    expect(result.settledMs).toBeLessThan(1000);
    await navigation;
  });

  it('dismisses a confirm by default and reports it, and accepts only when the action says so', async () => {
    await installShim(page, CHANNEL);
    const dismissed = await click('"Remove item"');
    expect(dismissed.dialogs).toEqual([{ type: 'confirm', message: 'Remove this item?', accepted: false }]);
    expect(await page.textContent('#answer')).toBe('kept');
    const accepted = await click('"Remove item"', { dialog: { accept: true } });
    expect(accepted.dialogs).toEqual([{ type: 'confirm', message: 'Remove this item?', accepted: true }]);
    expect(await page.textContent('#answer')).toBe('removed');
    const prompted = await click('"Rename"', { dialog: { accept: true, promptText: 'new' } });
    expect(prompted.dialogs).toEqual([{ type: 'prompt', message: 'New name?', accepted: true }]);
    expect(await page.textContent('#answer')).toBe('name=new');
    const alerted = await click('"Warn"');
    expect(alerted.dialogs).toEqual([{ type: 'alert', message: 'Careful', accepted: false }]);
  });

  it('lets the page show its own dialogs outside an action', async () => {
    await installShim(page, CHANNEL);
    const shown: string[] = [];
    page.once('dialog', async (dialog) => {
      shown.push(`${dialog.type()}: ${dialog.message()}`);
      await dialog.accept();
    });
    await page.click('#confirm');
    expect(shown).toEqual(['confirm: Remove this item?']);
    expect(await page.textContent('#answer')).toBe('removed');
  });

  it('reports errors the page raised while the action ran', async () => {
    await installShim(page, CHANNEL);
    const result = await click('"Break"');
    expect(result.errors).toEqual(['Uncaught Error: boom in handler']);
    // What the page logs with console.error during the action is reported too, and still logged.
    const logged: string[] = [];
    page.on('console', (m) => m.type() === 'error' && logged.push(m.text()));
    const logging = await click('"Log an error"');
    expect(logging.errors).toEqual(['console.error: Payment failed: 402']);
    expect(logged).toContain('Payment failed: 402');
  });

  it('waits for text to appear or go, and gives up at the timeout', async () => {
    await page.evaluate(() => {
      setTimeout(() => {
        const status = document.getElementById('status');
        if (status) status.textContent = 'Ready to ship';
      }, 200);
    });
    const appeared = WaitResult.parse(await agentCall(page, { op: 'wait', text: 'ready TO ship', timeoutMs: 2000 }));
    expect(appeared.met).toBe(true);
    expect(appeared.waitedMs).toBeGreaterThanOrEqual(150);
    const gone = WaitResult.parse(await agentCall(page, { op: 'wait', textGone: 'Loading…', timeoutMs: 2000 }));
    expect(gone).toEqual({ met: true, waitedMs: expect.any(Number) });
    const never = WaitResult.parse(await agentCall(page, { op: 'wait', text: 'never shown', timeoutMs: 300 }));
    expect(never.met).toBe(false);
    expect(never.waitedMs).toBeGreaterThanOrEqual(290);
  });
});
