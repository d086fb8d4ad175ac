/**
 * Tether's page tools end to end, as an outside agent reaches them: an MCP client on @modelcontextprotocol/sdk spawns
 * `tether mcp`, which talks to the host the extension started in Chromium; the tab is shared from its side panel and
 * each tool the tasks use is called once first, answering its card with the broadest lasting grant it offers
 * ("Always allow" on the site, or, where outside clients get no site rule, "allow for this session"), as a user would,
 * so the tasks run without cards. A card that still appears (a high-risk action asks every time) is allowed once and
 * counted. The judge reads the page through playwright-core, not through the tools.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HOST_ENTRY } from '../../host/host-process';
import { launchBrowser, type LaunchedBrowser } from '../../support/browser';
import { stopDaemonIn } from '../../support/daemons';
import { openConnectedPanel } from '../../support/extension-pages';
import { findRef, type PageTools, type ToolOp } from '../solver';
import { WIDGET_FILES_DIR, type WidgetSite } from '../widget-site';
import { connectMcp, type McpTools } from './mcp-client';
import type { ClosablePageTools } from './playwright-mcp';

/** Tether's page tools with the approval cards answered while the tasks ran. */
export interface TetherPageTools extends ClosablePageTools {
  /** Cards that appeared after the site rules were made (each was allowed once). */
  cardsDuringTasks(): number;
  /** Those cards, each as its tool and the choices it offered. */
  cardLog(): readonly string[];
}

/** The MCP tool each operation needs. */
const TOOL_OF: Record<ToolOp['op'], string> = {
  click: 'page_click',
  type: 'page_type',
  press: 'page_press',
  hover: 'page_hover',
  drag: 'page_drag',
  upload: 'page_upload',
};

function argumentsOf(op: ToolOp): Record<string, unknown> {
  switch (op.op) {
    case 'click':
      return { ref: op.ref, ...(op.double ? { double: true } : {}) };
    case 'type':
      return {
        ref: op.ref,
        text: op.text,
        ...(op.submit ? { submit: true } : {}),
        ...(op.clear ? { clear: true } : {}),
      };
    case 'press':
      return { key: op.key, ...(op.ref === undefined ? {} : { ref: op.ref }) };
    case 'hover':
      return { ref: op.ref };
    case 'drag':
      return { from: op.from, to: op.to };
    case 'upload':
      return { ref: op.ref, paths: op.files.map((name) => join(WIDGET_FILES_DIR, name)) };
  }
}

/** How the Tether driver sets trusted input before the tasks: Chrome's debugger everywhere, or never. */
export type TrustedInput = 'always' | 'off';

/**
 * Sets trusted input through the worker's own `settings/set` operation, called from the options page over the port
 * every extension page uses (the options page's control for it may not exist yet). Rejects with the worker's words
 * when the build has no such setting.
 */
async function setTrustedInput(browser: LaunchedBrowser, value: TrustedInput): Promise<void> {
  const options = await browser.openExtensionPage('src/options/index.html');
  try {
    const answer = await options.evaluate(async (trustedInput) => {
      type Port = {
        postMessage(m: object): void;
        onMessage: { addListener(f: (m: { type?: string; id?: number; error?: { message: string } }) => void): void };
        disconnect(): void;
      };
      const runtime = (globalThis as unknown as { chrome: { runtime: { connect(o: object): Port } } }).chrome.runtime;
      const port = runtime.connect({ name: 'tether-view' });
      const reply = new Promise<string>((resolve) => {
        port.onMessage.addListener((m) => {
          if (m.id !== 424242) return;
          resolve(m.type === 'result' ? 'ok' : (m.error?.message ?? JSON.stringify(m)));
        });
        setTimeout(() => resolve('the worker did not answer settings/set in 10 s'), 10_000);
      });
      port.postMessage({ type: 'hello', view: 'options', tabId: null });
      port.postMessage({ type: 'call', id: 424242, op: 'settings/set', params: { trustedInput } });
      const text = await reply;
      port.disconnect();
      return text;
    }, value);
    if (answer !== 'ok') throw new Error(`this build has no trusted-input setting: settings/set said "${answer}"`);
  } finally {
    await options.close();
  }
}

/** Answers every card the side panel shows while `work` runs: "Always allow" on the site when offered, else once. */
async function answeringCards<T>(panel: Page, work: Promise<T>, answered: (card: string) => void): Promise<T> {
  let done = false;
  // The watch's pause ends as soon as the work does, so a timed call is not charged for the poll interval.
  let wake: (() => void) | undefined;
  // Each card counts once, when first seen: on a loaded machine a click can time out after it landed.
  const seen = new Set<string>();
  const watch = (async () => {
    while (!done) {
      const card = panel.locator('.approval').first();
      if (await card.count().catch(() => 0)) {
        // The broadest lasting grant the card offers (a rule for the site, else a grant for this client's
        // session); a high-risk action offers neither and is allowed once.
        let button = card.locator('button[data-choice="allow"]');
        for (const choice of ['always_allow_site', 'allow_session']) {
          const lasting = card.locator(`button[data-choice="${choice}"]`);
          if (await lasting.count()) {
            button = lasting;
            break;
          }
        }
        const key = await card.getAttribute('data-approval-key').catch(() => null);
        if (key !== null && !seen.has(key)) {
          seen.add(key);
          const tool = await card.getAttribute('data-tool').catch(() => null);
          const choices = await card
            .locator('button[data-choice]')
            .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-choice')).join(' '))
            .catch(() => '');
          answered(`${tool}: ${choices}`);
        }
        await button.click({ timeout: 2_000 }).catch(() => undefined);
      }
      if (!done)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    wake?.();
    await watch;
  }
}

/**
 * Chromium with the built extension (`launch` options: `env` is extended with the runtime folder), a tab on the
 * site's first page shared with external agents from its side panel, and `tether mcp` connected to it.
 */
export async function startTetherMcp(
  site: WidgetSite,
  mode: string,
  trustedInput?: TrustedInput,
): Promise<TetherPageTools> {
  const runtime = mkdtempSync(join(tmpdir(), 'tether-widgets-runtime-'));
  let browser: LaunchedBrowser | undefined;
  let mcp: McpTools | undefined;
  try {
    // The host and `tether mcp` find each other in this folder only, never in the user's (or another test's).
    browser = await launchBrowser({ env: { TETHER_RUNTIME_DIR: runtime } });
    if (trustedInput !== undefined) await setTrustedInput(browser, trustedInput);
    const { page, panel } = await openConnectedPanel(browser, site.page('plain-traps'));
    // `tether mcp` answers at once, with or without a host; the calls below wait until the host serves the tab.
    mcp = await connectMcp({
      command: process.execPath,
      args: [HOST_ENTRY, 'mcp'],
      env: { PATH: process.env['PATH'] ?? '', TETHER_RUNTIME_DIR: runtime },
      clientName: 'tether-widget-suite',
    });
    // Sharing is behind the panel's Share button, and only the user's own (trusted) click turns it on.
    await panel.locator('button[data-action="share"]').click();
    await panel.locator('input[name="share-tab"]').check();
    await panel.locator('.share[data-shared="true"]').waitFor({ timeout: 15_000 });
    // The panel is a tab of its own here, which hid the page; a user sees the page beside the side panel. A hidden
    // page draws no frames, and Chrome holds trusted input to a page until its next frame (about a second).
    await page.bringToFront();
    const tools = mcp;
    let counting = false;
    const cards: string[] = [];
    const call = (name: string, args: Record<string, unknown>) =>
      answeringCards(panel, tools.call(name, args), (card) => (counting ? cards.push(card) : undefined));
    // The host may take a moment to announce itself, hear of the share and of the tools the extension declares: until
    // then calls are refused, saying Tether is not running, asking to share or naming the tool as unknown.
    for (let i = 0; ; i++) {
      const refused = await call('page_navigate', { url: site.page('plain-traps') }).then(
        () => undefined,
        (error: Error) => error,
      );
      if (!refused) break;
      if (i >= 120 || !/shared|no tool named|not running/i.test(refused.message)) throw refused;
      await new Promise((r) => setTimeout(r, 250));
    }
    // The site rules, made the way a user makes them: the first read, open and act each ask once.
    const warmUp = await call('page_snapshot', {});
    const button = findRef(warmUp, { role: 'button', name: '^Continue' });
    const field = findRef(warmUp, { role: 'textbox|searchbox', name: '^Search' });
    if (button === undefined || field === undefined)
      throw new Error(`Tether: no ref for the Continue button or the Search field while making the grants:\n${warmUp}`);
    // Each tool the tasks use, once, where it does no harm (every task loads its page afresh).
    await call('page_hover', { ref: button });
    await call('page_click', { ref: button });
    await call('page_type', { ref: field, text: 'neap' });
    await call('page_press', { ref: field, key: 'ArrowLeft' });
    counting = true;
    const launched = browser;
    return {
      name: `Tether (${mode})`,
      async open(url) {
        await call('page_navigate', { url });
        // The judge reads this page next: make sure it is the page asked for, loaded, not the one before it (a page
        // without a widget, such as the benchmark's fixture pages, counts as ready once loaded).
        await page.waitForFunction(
          (target) =>
            location.href === target &&
            (typeof (window as { widgetState?: unknown }).widgetState === 'function' ||
              document.readyState === 'complete'),
          url,
          { timeout: 15_000 },
        );
      },
      snapshot: () => call('page_snapshot', {}),
      act(op) {
        // A tool Tether lacks is refused by the host in its own words, which the report shows.
        return call(TOOL_OF[op.op], argumentsOf(op));
      },
      widgetState: () => page.evaluate('window.widgetState()'),
      cardsDuringTasks: () => cards.length,
      cardLog: () => cards,
      async close() {
        await tools.close().catch(() => undefined);
        await launched.close();
        // The runtime folder is this driver's, and so is the daemon the browser's host started in it.
        await stopDaemonIn(runtime);
        rmSync(runtime, { recursive: true, force: true });
      },
    } satisfies TetherPageTools & PageTools;
  } catch (error) {
    await mcp?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stopDaemonIn(runtime);
    rmSync(runtime, { recursive: true, force: true });
    throw error;
  }
}
