/**
 * Playwright MCP 0.0.83 (npm @playwright/mcp, the comparison of issue 20) as the page tools: its own MCP stdio server
 * connected over CDP to a Debian Chromium this driver starts, so the judge can read the same page through a second
 * CDP connection (playwright-core) without going through the tools.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_PATH, REPO_ROOT } from '../../support/browser';
import type { PageTools, ToolOp } from '../solver';
import { WIDGET_FILES_DIR } from '../widget-site';
import { connectMcp, type McpTools } from './mcp-client';

/** Page tools with a close. */
export interface ClosablePageTools extends PageTools {
  close(): Promise<void>;
}

/** Starts headless Chromium with a DevTools port; resolves with its WebSocket endpoint. */
async function startChromium(profile: string): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(
    CHROMIUM_PATH,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--window-size=1200,800',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools endpoint: ${err}`)), 30_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const url = /DevTools listening on (ws:\/\/\S+)/.exec(err)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${err}`)));
  });
  return { child, endpoint };
}

/** Playwright MCP's tools on a Chromium of their own; the judge reads pages through its own CDP connection. */
export async function startPlaywrightMcp(files: readonly string[]): Promise<ClosablePageTools> {
  const workspace = mkdtempSync(join(tmpdir(), 'tether-widgets-pw-'));
  // Its file access is limited to its workspace (the working directory): the files to upload are put there.
  for (const name of files) copyFileSync(join(WIDGET_FILES_DIR, name), join(workspace, name));
  const { child, endpoint } = await startChromium(join(workspace, 'profile'));
  let mcp: McpTools | undefined;
  let judge: Browser | undefined;
  try {
    mcp = await connectMcp({
      command: process.execPath,
      args: [join(REPO_ROOT, 'node_modules/@playwright/mcp/cli.js'), '--cdp-endpoint', endpoint],
      cwd: workspace,
      clientName: 'tether-widget-suite',
    });
    judge = await chromium.connectOverCDP(endpoint);
  } catch (error) {
    child.kill();
    throw error;
  }
  const tools = mcp;
  const browser = judge;
  let url = '';
  let focused: string | undefined;
  const page = () => {
    const pages = browser.contexts().flatMap((c) => c.pages());
    const found = pages.find((p) => p.url().split('#')[0] === url) ?? pages.at(-1);
    if (!found) throw new Error(`no page shows ${url}`);
    return found;
  };
  return {
    name: 'Playwright MCP 0.0.83',
    async open(target) {
      url = target;
      focused = undefined;
      await tools.call('browser_navigate', { url: target });
    },
    snapshot: () => tools.call('browser_snapshot', {}),
    async act(op: ToolOp) {
      switch (op.op) {
        case 'click':
          focused = op.ref;
          return tools.call('browser_click', { target: op.ref, ...(op.double ? { doubleClick: true } : {}) });
        case 'type':
          focused = op.ref;
          // Its browser_type fills (replaces the value) unless asked to type slowly: `clear` is what it always does.
          return tools.call('browser_type', { target: op.ref, text: op.text, ...(op.submit ? { submit: true } : {}) });
        case 'press':
          // Its key tool has no target: a model clicks the element first to focus it (once, not before every key).
          if (op.ref !== undefined && op.ref !== focused) {
            await tools.call('browser_click', { target: op.ref });
            focused = op.ref;
          }
          return tools.call('browser_press_key', { key: op.key });
        case 'hover':
          return tools.call('browser_hover', { target: op.ref });
        case 'drag':
          return tools.call('browser_drag', { startTarget: op.from, endTarget: op.to });
        case 'upload':
          // A click on the input or the drop zone opens the file chooser; the upload tool answers it.
          await tools.call('browser_click', { target: op.ref });
          return tools.call('browser_file_upload', { paths: op.files.map((name) => join(workspace, name)) });
      }
    },
    widgetState: () => page().evaluate('window.widgetState()'),
    async close() {
      await tools.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      // The server's browser can still be writing its profile for a moment after the server exits.
      rmSync(workspace, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
