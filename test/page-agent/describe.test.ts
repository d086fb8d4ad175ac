/**
 * What the page agent tells of an element before an action on it, in real Chromium: describe's risk facts (which an
 * approval card shows) and the highlight overlay that outlines the element the agent is about to use.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DescribeResult, FrameSnapshot } from '../../extension/src/shared/agent-contract';
import { agentCall, loginPage, refOnLine, startSite, visit } from './harness';
import { formPage } from './pages';

let browser: Browser;
let page: Page;
let agent: string;

beforeAll(async () => {
  ({ browser, page, agent } = await startSite({
    '/form': formPage(),
    '/login': loginPage(),
    '/risky': `<!doctype html><form action="/pay"><input autocomplete="cc-number" aria-label="Card"><input name="cvc" aria-label="CVC">
        <button>Pay now</button></form><form action="/del"><input name="confirm" aria-label="Type DELETE"><button>Delete account</button></form>
        <a href="/export.csv" download>Export</a><a href="https://other.example/path?q=1">Elsewhere</a>
        <button type="button" onclick="1">Remove filter</button>`,
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

describe('page agent describe and highlight', () => {
  it('describes risk facts: password, payment, destructive, form submission, download, link target', async () => {
    const describeRef = async (text: string) =>
      DescribeResult.parse(await agentCall(page, { op: 'describe', ref: await refOf(text) }));
    await visit(page, '/login', agent);
    expect(await describeRef('"Password"')).toEqual({
      stale: false,
      element: {
        role: 'textbox',
        name: 'Password',
        tag: 'input',
        origin: 'http://shop.tether.test',
        inputType: 'password',
        disabled: false,
        // Where it is, to crop a screenshot to it.
        box: expect.objectContaining({ width: expect.any(Number), height: expect.any(Number), scale: 1 }),
        risk: {
          password: true,
          payment: false,
          destructive: false,
          submitsForm: false,
          enterSubmits: true,
          formHasSecret: true,
          download: false,
        },
      },
    });
    expect(await describeRef('button "Sign in"')).toMatchObject({
      element: { risk: { submitsForm: true, formHasSecret: true, password: false } },
    });
    await visit(page, '/risky', agent);
    expect(await describeRef('"Card"')).toMatchObject({ element: { risk: { payment: true, formHasSecret: true } } });
    expect(await describeRef('"Pay now"')).toMatchObject({ element: { risk: { payment: true, submitsForm: true } } });
    expect(await describeRef('"Type DELETE"')).toMatchObject({
      element: { risk: { destructive: true, enterSubmits: true, submitsForm: false } },
    });
    expect(await describeRef('"Delete account"')).toMatchObject({
      element: { risk: { destructive: true, submitsForm: true, formHasSecret: false } },
    });
    expect(await describeRef('"Export"')).toMatchObject({
      element: { role: 'link', risk: { download: true, href: 'http://shop.tether.test/export.csv' } },
    });
    expect(await describeRef('"Elsewhere"')).toMatchObject({
      element: { risk: { href: 'https://other.example/path?q=1', download: false } },
    });
    expect(await describeRef('"Remove filter"')).toMatchObject({
      element: { risk: { destructive: true, submitsForm: false } },
    });
  });

  it('outlines an element in a closed shadow root overlay, then removes it', async () => {
    const ref = await refOf('"Bottom"');
    expect(await agentCall(page, { op: 'highlight', ref, label: 'Click button "Bottom"' })).toEqual({ stale: false });
    const overlay = await page.evaluate(() => {
      const host = document.documentElement.querySelector(':scope > tether-highlight');
      const rect = document.getElementById('bottom')?.getBoundingClientRect();
      return {
        present: !!host,
        open: host?.shadowRoot ?? null,
        pointer: host ? getComputedStyle(host).pointerEvents : '',
        inView: (rect?.top ?? -1) >= 0 && (rect?.bottom ?? 1e9) <= window.innerHeight,
      };
    });
    expect(overlay).toEqual({ present: true, open: null, pointer: 'none', inView: true });
    // The overlay is no part of the page's snapshot.
    const snap = FrameSnapshot.parse(await agentCall(page, { op: 'snapshot', prefix: '', maxChars: 100_000 }));
    expect(snap.lines.join('\n')).not.toContain('Click button');
    await agentCall(page, { op: 'highlight', ref: null });
    expect(await page.evaluate(() => document.querySelector('tether-highlight'))).toBeNull();
  });
});
