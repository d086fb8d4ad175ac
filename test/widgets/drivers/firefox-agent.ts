/**
 * Tether's page agent in Firefox ESR, driven directly as test/page-agent/firefox.test.ts does (puppeteer-core over
 * WebDriver BiDi, the agent bundled from source and run in the page's main world, the dialog shim installed): the same
 * snapshot and act calls the worker makes, without the extension, the host or MCP. Firefox has no debugger API, so
 * this is all the input Tether can give there. Pages are opened by the driver (no page tool involved).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { installDialogShim } from '../../../extension/src/content/dialog-shim';
import { ActResult, FrameSnapshot } from '../../../extension/src/shared/agent-contract';
import { FIREFOX_PATH } from '../../firefox/firefox-browser';
import { bundleAgent } from '../../page-agent/harness';
import type { ToolOp } from '../solver';
import { WIDGET_FILES_DIR } from '../widget-site';
import type { ClosablePageTools } from './playwright-mcp';

const CHANNEL = 'tether-widgets-channel';
/** The worker's settle window for an action (see bench/page-tools.bench.mjs). */
const QUIET_MS = 100;
const CAP_MS = 1_500;

/**
 * The agent's action for an operation. Plain data rather than the contract's type: drag and upload are being added to
 * the agent now, and an agent without them answers with its own error, which the report shows.
 */
function actionOf(op: ToolOp): Record<string, unknown> {
  switch (op.op) {
    case 'click':
      return { kind: 'click', button: 'left', double: op.double };
    case 'type':
      return { kind: 'type', text: op.text, submit: op.submit, clear: op.clear };
    case 'press':
      return { kind: 'press', key: op.key };
    case 'hover':
      return { kind: 'hover' };
    case 'drag':
      return { kind: 'drag', to: op.to };
    case 'upload':
      return {
        kind: 'upload',
        files: op.files.map((name) => ({
          name,
          type: name.endsWith('.csv') ? 'text/csv' : 'text/plain',
          base64: readFileSync(join(WIDGET_FILES_DIR, name)).toString('base64'),
        })),
      };
  }
}

/** Launches headless Firefox ESR with the agent ready to be added to each page the driver opens. */
export async function startFirefoxAgent(): Promise<ClosablePageTools> {
  const agent = await bundleAgent();
  // The window's own size rather than setViewport, whose screen-orientation command Firefox ESR 140 does not know.
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    defaultViewport: null,
    args: ['--window-size=1200,800'],
  });
  const page: Page = await browser.newPage();
  const call = (agentCall: Record<string, unknown>): Promise<unknown> =>
    page.evaluate(
      (c) => (globalThis as unknown as { __tetherPageAgent: { call(c: unknown): unknown } }).__tetherPageAgent.call(c),
      agentCall,
    );
  return {
    name: 'Tether page agent (Firefox ESR)',
    async open(url) {
      await page.goto(url, { waitUntil: 'load' });
      await page.evaluate(agent);
      await page.evaluate(installDialogShim, CHANNEL);
    },
    async snapshot() {
      const snap = FrameSnapshot.parse(await call({ op: 'snapshot', prefix: '', maxChars: 40_000 }));
      return snap.lines.join('\n');
    },
    async act(op) {
      const ref = op.op === 'drag' ? op.from : op.ref;
      const result = ActResult.parse(
        await call({
          op: 'act',
          prefix: '',
          ...(ref === undefined ? {} : { ref }),
          action: actionOf(op),
          channel: CHANNEL,
          quietMs: QUIET_MS,
          capMs: CAP_MS,
        }),
      );
      if (result.error !== undefined) throw new Error(result.error);
      return JSON.stringify(result);
    },
    widgetState: () => page.evaluate('window.widgetState()') as Promise<Record<string, unknown>>,
    close: () => browser.close(),
  };
}
