/**
 * Tether's page tools end to end, as an outside agent reaches them: an MCP client on @modelcontextprotocol/sdk spawns
 * `tether mcp`, which talks to the host the extension started in Chromium; the tab is shared from its side panel and
 * the site's rules (reading, acting, opening) are made once by answering the first cards with "Always allow", as a
 * user would, so the tasks run without cards. A card that still appears (a high-risk action asks every time) is
 * allowed once and counted. The judge reads the page through playwright-core, not through the tools.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HOST_ENTRY } from '../../host/host-process';
import { launchBrowser, type LaunchedBrowser } from '../../support/browser';
import { openConnectedPanel } from '../../support/extension-pages';
import { findRef, type PageTools, type ToolOp } from '../solver';
import { WIDGET_FILES_DIR, type WidgetSite } from '../widget-site';
import { connectMcp, type McpTools } from './mcp-client';
import type { ClosablePageTools } from './playwright-mcp';

/** Tether's page tools with the number of approval cards answered while the tasks ran. */
export interface TetherPageTools extends ClosablePageTools {
  /** Cards that appeared after the site rules were made (each was allowed once). */
  cardsDuringTasks(): number;
}

/** The MCP tool each operation needs; an operation whose tool Tether does not offer fails naming it. */
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
      return { ref: op.ref, text: op.text, ...(op.submit ? { submit: true } : {}) };
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

/** Answers every card the side panel shows while `work` runs: "Always allow" on the site when offered, else once. */
async function answeringCards<T>(panel: Page, work: Promise<T>, answered: () => void): Promise<T> {
  let done = false;
  const watch = (async () => {
    while (!done) {
      const card = panel.locator('.approval').first();
      if (await card.count().catch(() => 0)) {
        const always = card.locator('button[data-choice="always_allow_site"]');
        const button = (await always.count()) ? always : card.locator('button[data-choice="allow"]');
        if (
          await button.click({ timeout: 2_000 }).then(
            () => true,
            () => false,
          )
        )
          answered();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    await watch;
  }
}

/**
 * Chromium with the built extension (`launch` options: `env` is extended with the runtime folder), a tab on the
 * site's first page shared with external agents from its side panel, and `tether mcp` connected to it.
 */
export async function startTetherMcp(site: WidgetSite, mode: string): Promise<TetherPageTools> {
  const runtime = mkdtempSync(join(tmpdir(), 'tether-widgets-runtime-'));
  let browser: LaunchedBrowser | undefined;
  let mcp: McpTools | undefined;
  try {
    browser = await launchBrowser({ env: { XDG_RUNTIME_DIR: runtime } });
    const { page, panel } = await openConnectedPanel(browser, site.page('plain-traps'));
    // The host opens its socket shortly after it starts.
    for (let i = 0; i < 60 && !mcp; i++) {
      mcp = await connectMcp({
        command: process.execPath,
        args: [HOST_ENTRY, 'mcp'],
        env: { PATH: process.env['PATH'] ?? '', XDG_RUNTIME_DIR: runtime },
        clientName: 'tether-widget-suite',
      }).catch(() => undefined);
      if (!mcp) await new Promise((r) => setTimeout(r, 250));
    }
    if (!mcp) throw new Error('tether mcp found no host: the side panel did not start one');
    // Sharing is behind the panel's Share button, and only the user's own (trusted) click turns it on.
    await panel.locator('button[data-action="share"]').click();
    await panel.locator('input[name="share-tab"]').check();
    // The host has shared the tab once the panel names the connected client.
    await panel.locator('.share .share-status', { hasText: 'tether-widget-suite' }).waitFor({ timeout: 15_000 });
    const tools = mcp;
    let counting = false;
    let cards = 0;
    const call = (name: string, args: Record<string, unknown>) =>
      answeringCards(panel, tools.call(name, args), () => (counting ? cards++ : undefined));
    // The site rules, made the way a user makes them: the first read, open and act each ask once.
    await call('page_navigate', { url: site.page('plain-traps') });
    const ref = findRef(await call('page_snapshot', {}), { role: 'button', name: 'Continue' });
    if (ref === undefined) throw new Error('Tether: no ref for the Continue button while making the site rules');
    await call('page_hover', { ref });
    counting = true;
    const launched = browser;
    return {
      name: `Tether (${mode})`,
      async open(url) {
        await call('page_navigate', { url });
      },
      snapshot: () => call('page_snapshot', {}),
      act(op) {
        const tool = TOOL_OF[op.op];
        if (!tools.tools.has(tool)) return Promise.reject(new Error(`Tether has no ${tool} tool`));
        return call(tool, argumentsOf(op));
      },
      widgetState: () => page.evaluate('window.widgetState()'),
      cardsDuringTasks: () => cards,
      async close() {
        await tools.close().catch(() => undefined);
        await launched.close();
        rmSync(runtime, { recursive: true, force: true });
      },
    } satisfies TetherPageTools & PageTools;
  } catch (error) {
    await mcp?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    rmSync(runtime, { recursive: true, force: true });
    throw error;
  }
}
