/**
 * The page agent in Firefox ESR (Gecko's DOM: checkVisibility, synthetic pointer and input events, execCommand):
 * the same login snapshot as in Chromium and the form flow posted to a local server. Driven through puppeteer-core
 * over WebDriver BiDi; the agent runs in the page's main world here.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActResult,
  type AgentAction,
  type AgentCall,
  FrameSnapshot,
  LocateResult,
  ReadResult,
} from '../../extension/src/shared/agent-contract';
import { installDialogShim } from '../../extension/src/content/dialog-shim';
import { FIREFOX_PATH } from '../firefox/firefox-browser';
import { clickablesPage, LONG_VALUE } from './clickable-pages';
import { bundleAgent, LOGIN_SNAPSHOT, loginPage } from './harness';
import { EDITING_PAGE, GUARDED_EDITOR_PAGE, POINTING_PAGE, TRANSFER_PAGE } from './input-pages';
import { effectsPage, formPage } from './pages';

const PAGES: Record<string, string> = {
  '/login': loginPage(),
  '/form': formPage(),
  '/effects': effectsPage(),
  '/shapes': clickablesPage(),
  '/pointing': POINTING_PAGE,
  '/editing': EDITING_PAGE,
  '/guarded': GUARDED_EDITOR_PAGE,
  '/transfer': TRANSFER_PAGE,
};

let browser: Browser;
let page: Page;
let server: Server;
let origin: string;
let agent: string;
const posted: string[] = [];

beforeAll(async () => {
  agent = await bundleAgent();
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method === 'POST') posted.push(`${request.url} ${body}`);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGES[request.url ?? ''] ?? '<!doctype html><title>Done</title><p>Received</p>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

async function open(path: string): Promise<void> {
  await page.goto(`${origin}${path}`);
  await page.evaluate(agent);
}

function call<T = unknown>(agentCall: AgentCall): Promise<T> {
  return page.evaluate(
    (c) => (globalThis as unknown as { __tetherPageAgent: { call(c: unknown): unknown } }).__tetherPageAgent.call(c),
    agentCall,
  ) as Promise<T>;
}

async function snapshot(): Promise<FrameSnapshot> {
  return FrameSnapshot.parse(await call({ op: 'snapshot', prefix: '', maxChars: 100_000 }));
}

function refIn(snap: FrameSnapshot, text: string): string {
  const ref = /\[ref=(e\d+)\]/.exec(snap.lines.find((l) => l.includes(text)) ?? '')?.[1];
  if (!ref) throw new Error(`No ref on a line with ${text}:\n${snap.lines.join('\n')}`);
  return ref;
}

describe.skipIf(!existsSync(FIREFOX_PATH))('page agent in Firefox ESR', () => {
  it('writes the login form as in Chromium', async () => {
    await open('/login');
    expect((await snapshot()).lines).toEqual(LOGIN_SNAPSHOT);
  });

  it('fills the application form by ref and posts it with a click on Apply', async () => {
    await open('/form');
    const snap = await snapshot();
    const act = async (text: string, action: Extract<AgentCall, { op: 'act' }>['action']) => {
      const result = ActResult.parse(
        await call({ op: 'act', prefix: '', ref: refIn(snap, text), action, quietMs: 50, capMs: 1000 }),
      );
      return result;
    };
    expect(
      (await act('"Full name"', { kind: 'type', text: 'Ada Lovelace', submit: false, clear: false })).error,
    ).toBeUndefined();
    await act('"Nickname"', { kind: 'type', text: 'ada', submit: false, clear: false });
    expect(await page.evaluate(() => (window as unknown as { reactChanges: string[] }).reactChanges)).toEqual([
      'a',
      'ad',
      'ada',
    ]);
    await act('"Start date"', { kind: 'fill', value: '2026-03-14' });
    await act('"Bio"', { kind: 'fill', value: 'Mathematician' });
    await act('"Country"', { kind: 'select', values: ['Germany'] });
    await act('"I agree"', { kind: 'check', checked: true });
    await act('"Plan B"', { kind: 'check', checked: true });
    const navigation = page.waitForNavigation();
    const submitted = await act('"Apply"', { kind: 'click', button: 'left', double: false });
    expect(submitted.unloading).toBe(true);
    await navigation;
    expect(posted).toEqual([
      '/apply name=Ada+Lovelace&nickname=ada&start=2026-03-14&volume=5&bio=Mathematician&country=de&agree=yes&plan=b',
    ]);
  });

  it('gives refs to pointer, onclick and href-less clickables and grid cells, clicks each on its element, and reads a field whole', async () => {
    await open('/shapes');
    const snap = await snapshot();
    for (const text of [
      'clickable "terms of use"',
      'clickable "Next"',
      'clickable "Fancy action"',
      'textbox "Code editor"',
    ])
      refIn(snap, text);
    expect(snap.lines).toContainEqual(expect.stringMatching(/- row: Ada \[ref=e\d+\] \| 36 \[ref=e\d+\]$/));
    expect(snap.lines.join('\n')).not.toMatch(/Screen reader only action|Clipboard helper|"31"/);
    const targets: [string, string][] = [
      ['clickable "5"', 'day-5'],
      ['"terms of use"', 'terms'],
      ['"Prev"', 'prev'],
      ['Ada', 'cell-ada'],
    ];
    for (const [text, id] of targets) {
      const action = { kind: 'click', button: 'left', double: false } as const;
      await call({ op: 'act', prefix: '', ref: refIn(snap, text), action, quietMs: 30, capMs: 1000 });
      expect(await page.evaluate(() => (window as unknown as { clicks: string[] }).clicks.splice(0))).toEqual([id]);
    }
    const bio = refIn(snap, 'textbox "Bio"');
    expect(snap.lines.find((l) => l.includes('textbox "Bio"'))).toMatch(
      /\[cut: 879 chars; page_read with this ref reads all\]$/,
    );
    expect(ReadResult.parse(await call({ op: 'read', ref: bio, maxChars: 50_000 }))).toEqual({
      stale: false,
      element: 'textbox "Bio"',
      text: LONG_VALUE,
      total: 879,
    });
  });

  it('dismisses a confirm through the main-world shim and reports it', async () => {
    await open('/effects');
    await page.evaluate(installDialogShim, 'tether-firefox-channel');
    const snap = FrameSnapshot.parse(await call({ op: 'snapshot', prefix: '', maxChars: 1_000_000 }));
    const result = ActResult.parse(
      await call({
        op: 'act',
        prefix: '',
        ref: refIn(snap, '"Remove item"'),
        action: { kind: 'click', button: 'left', double: false },
        quietMs: 50,
        capMs: 1000,
        channel: 'tether-firefox-channel',
      }),
    );
    expect(result.dialogs).toEqual([{ type: 'confirm', message: 'Remove this item?', accepted: false }]);
    expect(await page.$eval('#answer', (el) => el.textContent)).toBe('kept');
  });

  async function act(text: string, action: AgentAction, snap?: FrameSnapshot): Promise<ActResult> {
    const ref = refIn(snap ?? (await snapshot()), text);
    return ActResult.parse(await call({ op: 'act', prefix: '', ref, action, quietMs: 30, capMs: 2000 }));
  }

  const logOf = <T>(name: string) =>
    page.evaluate((n) => (window as unknown as Record<string, T[]>)[n]?.splice(0) ?? [], name);

  it('locates a covered element, refuses to click through the cover, and clicks the link inside a tab', async () => {
    await open('/pointing');
    const snap = await snapshot();
    const located = LocateResult.parse(await call({ op: 'locate', ref: refIn(snap, '"Buy"') }));
    expect(located).toMatchObject({ covered: 'covered by div "We use cookies" (dialog)' });
    expect((await act('"Buy"', { kind: 'click', button: 'left', double: false }, snap)).error).toMatch(
      /^button "Buy" is covered by div "We use cookies" \(dialog\)/,
    );
    await act('tab "Two"', { kind: 'click', button: 'left', double: false }, snap);
    expect(await page.$eval('#shown', (el) => el.textContent)).toBe('Two');
  });

  it('gives key events their keyCode and moves and selects by word in an input and an editor', async () => {
    await open('/editing');
    const snap = await snapshot();
    await act('"Title"', { kind: 'press', key: 'ArrowUp' }, snap);
    expect(await logOf<string>('keys')).toEqual([
      'keydown ArrowUp ArrowUp 38 38 0 0',
      'keyup ArrowUp ArrowUp 38 38 0 0',
    ]);
    for (const key of ['End', 'Control+Shift+ArrowLeft']) await act('"Title"', { kind: 'press', key }, snap);
    expect(
      await page.$eval('#title', (el) => {
        const f = el as HTMLInputElement;
        return f.value.slice(f.selectionStart ?? 0, f.selectionEnd ?? 0);
      }),
    ).toBe('world');
    expect((await act('"Title"', { kind: 'press', key: 'Control+c' }, snap)).copied).toBe('world');
    await act('"Notes"', { kind: 'click', button: 'left', double: false }, snap);
    await act('"Notes"', { kind: 'press', key: 'Control+a' }, snap);
    const all = await page.evaluate(() => window.getSelection()?.toString() ?? '');
    expect(all.replace(/\n+/g, '\n')).toBe('alpha beta gamma\nsecond para');
    for (const key of ['Control+End', 'Control+v']) await act('"Notes"', { kind: 'press', key }, snap);
    expect(await page.$eval('#editor', (el) => el.textContent)).toBe('alpha beta gammasecond paraworld');
  });

  it('moves the caret in an editor that focus just reached only once the editor would take it for a key, not for its reset on focus', async () => {
    await open('/guarded');
    const ref = refIn(await snapshot(), '"Tide notes"');
    const actOn = (action: AgentAction): AgentCall => ({
      op: 'act',
      prefix: '',
      ref,
      action,
      quietMs: 30,
      capMs: 2000,
    });
    // The click and the first key in one page call, as fast as the agent can: the round trips here alone took 260 ms.
    await page.evaluate(
      async (calls) => {
        const agent = (globalThis as unknown as { __tetherPageAgent: { call(c: unknown): Promise<unknown> } })
          .__tetherPageAgent;
        for (const c of calls) await agent.call(c);
      },
      [actOn({ kind: 'click', button: 'left', double: false }), actOn({ kind: 'press', key: 'Control+Home' })],
    );
    for (let i = 0; i < 5; i++) await call(actOn({ kind: 'press', key: 'Shift+ArrowRight' }));
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('Tides');
  });

  it('drags with HTML5 drag-and-drop and with a pointer path, and uploads to an input and a drop zone', async () => {
    await open('/transfer');
    const snap = await snapshot();
    await act('"N1"', { kind: 'drag', to: refIn(snap, '"N3"') }, snap);
    await act('"P1"', { kind: 'drag', to: refIn(snap, '"P3"') }, snap);
    const order = (id: string) => page.$$eval(`#${id} li`, (lis) => lis.map((li) => li.textContent).join(' '));
    expect(await order('native')).toBe('N2 N3 N1');
    expect(await order('pointer')).toBe('P2 P3 P1');
    const file = { name: 'notes.txt', type: 'text/plain', base64: Buffer.from('hello').toString('base64') };
    await act('"Attachment"', { kind: 'upload', files: [file] }, snap);
    await act('"Drop files here"', { kind: 'upload', files: [file] }, snap);
    await page.waitForFunction(() => (window as unknown as { log: string[] }).log.length >= 3);
    expect(await logOf<string>('log')).toEqual([
      'file input',
      'file change notes.txt:text/plain:hello',
      'zone notes.txt:hello',
    ]);
  });
});
