#!/usr/bin/env node
/**
 * `npm start` (after `npm run build`): registers the native host for a private Chromium profile and launches Chromium
 * with the extension on a local demo page, its side panel open, served by the embedded scripted backend.
 * `npm start -- --headless` does the same without a display: a short scripted conversation (with one approval),
 * the transcript on stdout, screenshots of the side panel (also at 365 px wide in light and dark) and the popup in
 * test/artifacts/, exit code 0.
 * With only branded Chrome installed (137+ ignores --load-extension) it registers the host and prints the steps to
 * load the unpacked build instead.
 * The host it registers runs its Tether daemon in a runtime folder of this run's own (never the user's daemon), and
 * that daemon stops when `npm start` ends, however it ends (the browser closed, Ctrl-C, an error).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadSupport, root } from './load-support.mjs';

const headless = process.argv.includes('--headless');
const dist = join(root, 'extension/dist/chrome');

function findBrandedChrome() {
  const candidates =
    process.platform === 'darwin'
      ? ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']
      : process.platform === 'win32'
        ? [join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Google/Chrome/Application/chrome.exe')]
        : ['/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome'];
  return candidates.find((p) => existsSync(p));
}

function printLoadUnpackedSteps(chrome) {
  console.log(
    `Only Google Chrome was found (${chrome}). Chrome 137 and later ignore --load-extension, so load the build by hand:`,
  );
  console.log('  1. Open chrome://extensions and switch on "Developer mode" (top right).');
  console.log(`  2. Click "Load unpacked" and choose ${dist}`);
  console.log(
    '  3. Pin Tether from the puzzle-piece menu, open any web page, click the Tether icon and "Open side panel".',
  );
  console.log('The native host is registered for Chrome, so the panel connects once the extension is loaded.');
  console.log('(Install Chromium to have `npm start` do all of this for you.)');
}

async function main() {
  if (!existsSync(join(dist, 'manifest.json'))) {
    console.error('The extension is not built: run `npm start` (it builds first) or `npm run build`.');
    return 1;
  }
  const chromiumPath = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) {
    const chrome = findBrandedChrome();
    if (!chrome) {
      console.error(
        `No Chromium at ${chromiumPath} and no Google Chrome found. Install Chromium (Debian: apt-get install chromium) or set TETHER_CHROMIUM.`,
      );
      return 1;
    }
    // --dev: the unpacked build carries the development key, which only a development install allows.
    execFileSync(
      process.execPath,
      [join(root, 'native-host/bin/tether.mjs'), 'install', '--dev', '--browser', 'chrome'],
      { stdio: 'inherit' },
    );
    printLoadUnpackedSteps(chrome);
    return 0;
  }

  const { mod, cleanup } = await loadSupport();
  const { launchBrowser, startDemoServer, openWebPage } = mod;
  const hasDisplay = !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) || process.platform !== 'linux';
  const runHeadless = headless || !hasDisplay;
  if (!headless && runHeadless) console.log('No display found: running the headless demo (npm start -- --headless).');

  const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  // The interactive profile is kept between runs; the headless demo starts fresh every time.
  const userDataDir = runHeadless ? undefined : join(cacheHome, 'tether', 'start-profile');
  if (userDataDir) mkdirSync(userDataDir, { recursive: true });
  const demo = await startDemoServer();
  const browser = await launchBrowser({ headed: !runHeadless, ...(userDataDir ? { userDataDir } : {}) });
  // browser.close() stops this run's daemon; on Ctrl-C Playwright exits before anything async runs, so the daemon is
  // also sent SIGTERM at exit (synchronously; it then ends its turns and stops by itself).
  const runtime = join(browser.homeDir, 'run');
  process.once('exit', () => {
    const pid = mod.daemonPidIn(runtime);
    if (pid !== undefined && mod.tetherDaemons().includes(pid)) process.kill(pid, 'SIGTERM');
  });
  try {
    const blankTabs = browser.context.pages().filter((p) => p.url() === 'about:blank');
    const { page, tabId } = await openWebPage(browser, demo.url('/'));
    if (!runHeadless) {
      for (const blank of blankTabs) await blank.close().catch(() => {});
      // chrome.sidePanel.open needs a user gesture: a click in the popup page counts.
      const popup = await browser.openExtensionPage(`src/popup/index.html?tab=${tabId}`);
      await popup.locator('button[data-action="open-panel"]').click();
      await popup.close().catch(() => {});
      await page.bringToFront();
      console.log(`Chromium is running with Tether on ${demo.url('/')} (profile ${userDataDir}).`);
      console.log('Ask something in the side panel, e.g. "/page" or "summarise this page". Close the browser to stop.');
      await new Promise((resolveClosed) => browser.context.on('close', resolveClosed));
      return 0;
    }
    return await headlessConversation(mod, { browser, demo, tabId });
  } finally {
    await browser.close().catch(() => {});
    await demo.close();
    cleanup();
  }
}

/** The headless demo: a conversation in the side panel of `tabId`, driven with the test-support page helpers. */
async function headlessConversation(support, { browser, demo, tabId }) {
  const { openSidePanel, waitConnected, sendPrompt, saveScreenshot } = support;
  const panel = await openSidePanel(browser, tabId);
  await waitConnected(panel);
  const state = await panel.locator('.banner').textContent();
  console.log(`[connection] ${state?.trim()}`);
  const answers = panel.locator('.transcript .item.agentMessage.completed');

  const ask = async (prompt, approve) => {
    const before = await answers.count();
    await sendPrompt(panel, prompt);
    if (approve) {
      const card = panel.locator('.approval').first();
      await card.waitFor({ timeout: 30_000 });
      const tool = await card.getAttribute('data-tool');
      const origin = await card.locator('.origin').textContent();
      console.log(`[approval] ${tool} on ${origin}: ${await card.locator('.preview').textContent()} -> Allow once`);
      await saveScreenshot(panel, 'start-side-panel-approval');
      await card.locator(`button[data-choice="${approve}"]`).click();
    }
    await answers.nth(before).waitFor({ timeout: 30_000 });
  };

  await ask('hello', undefined);
  await ask('/page', 'allow');
  await ask('/stream 20', undefined);
  const lines = await panel.locator('.transcript > *').evaluateAll((els) =>
    // A message's body: its text without the speaker label and the Copy / Edit buttons.
    els.map((e) => ({
      kind: e.className,
      text: ((e.querySelector(':scope > .body') ?? e).textContent ?? '').replace(/\s+/g, ' ').trim(),
    })),
  );
  console.log(`\nTranscript (${demo.url('/')}):`);
  for (const { kind, text } of lines) {
    const who = kind.includes('userMessage')
      ? 'you'
      : kind.includes('agentMessage')
        ? 'agent'
        : kind.includes('toolCall')
          ? 'tool'
          : 'note';
    console.log(`  ${who.padEnd(5)} ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`);
  }
  const panelShot = await saveScreenshot(panel, 'start-side-panel');
  // The panel at Chrome's default side panel width, in both colour schemes.
  await panel.setViewportSize({ width: 365, height: 760 });
  const schemeShots = [];
  for (const colorScheme of ['light', 'dark']) {
    await panel.emulateMedia({ colorScheme });
    schemeShots.push(await saveScreenshot(panel, `start-side-panel-365-${colorScheme}`));
  }
  await panel.emulateMedia({ colorScheme: null });
  const popup = await browser.openExtensionPage(`src/popup/index.html?tab=${tabId}`);
  await popup.setViewportSize({ width: 380, height: 420 });
  await waitConnected(popup);
  const popupShot = await saveScreenshot(popup, 'start-popup');
  console.log(`\nScreenshots: ${[panelShot, ...schemeShots, popupShot].join(', ')}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`npm start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
