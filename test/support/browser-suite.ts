/**
 * The setup every Chromium end-to-end file shares: one demo server and one browser with the extension for the file's
 * tests. Kept apart from browser.ts and extension-pages.ts because it registers vitest hooks, and those two are also
 * bundled for plain Node scripts (`npm start`, benchmarks).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { HOST_ARG, launchBrowser, type LaunchedBrowser, type LaunchOptions } from './browser';
import { stopDaemonIn } from './daemons';
import { startDemoServer, type DemoServer } from './demo-server';
import { agentTexts, completedAnswers } from './extension-pages';
import { type ChatScript, type MockChatCompletions, startMockChatCompletions } from './mock-chat-completions';

/** The browser and demo server of a suite; readable inside tests and hooks that run after the suite's beforeAll. */
export interface BrowserSuite {
  readonly browser: LaunchedBrowser;
  readonly demo: DemoServer;
}

/**
 * Registers hooks, in the calling describe block, that start the demo server and Chromium (launched with `options`)
 * before its tests and close both after them, with the Tether daemon of the suite's runtime folder.
 */
export function useBrowserSuite(options?: LaunchOptions): BrowserSuite {
  let browser: LaunchedBrowser | undefined;
  let demo: DemoServer | undefined;
  beforeAll(async () => {
    demo = await startDemoServer();
    browser = await launchBrowser(options);
  });
  afterAll(async () => {
    await browser?.close();
    // close() stops the daemon of a runtime folder it made; one the suite named (to share it with `tether mcp`) is
    // the suite's alone all the same, and its daemon ends with the suite.
    const runtime = options?.env?.['TETHER_RUNTIME_DIR'];
    if (runtime) await stopDaemonIn(runtime);
    await demo?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`The suite's ${what} is not started: read it inside a test, not while the file is collected`);
    return value;
  };
  return {
    get browser() {
      return started(browser, 'browser');
    },
    get demo() {
      return started(demo, 'demo server');
    },
  };
}

/** A browser suite whose host's default backend is the embedded one, talking to a mock OpenAI-compatible model. */
export interface ModelBrowserSuite extends BrowserSuite {
  /** The mock model, answering with the suite's script. */
  readonly model: MockChatCompletions;
}

/**
 * Registers hooks, in the calling describe block, that start a mock OpenAI-compatible model answering with `script`
 * and a browser suite whose embedded backend uses it (as gpt-4.1), and close them after the block's tests.
 */
export function useModelBrowserSuite(script: ChatScript): ModelBrowserSuite {
  let model: MockChatCompletions | undefined;
  beforeAll(async () => {
    model = await startMockChatCompletions(script);
  });
  afterAll(async () => {
    await model?.close();
  });
  const started = (): MockChatCompletions => {
    if (model === undefined)
      throw new Error("The suite's model is not started: read it inside a test, not while the file is collected");
    return model;
  };
  const suite = useBrowserSuite({
    get env() {
      return { TETHER_OPENAI_BASE_URL: started().baseUrl, TETHER_OPENAI_MODEL: 'gpt-4.1' };
    },
    hostConfig: { defaultBackend: 'embedded', backends: { embedded: { kind: 'embedded', model: 'openai' } } },
  });
  return {
    get browser() {
      return suite.browser;
    },
    get demo() {
      return suite.demo;
    },
    get model() {
      return started();
    },
  };
}

/** Waits until a panel shows at least `count` completed answers (a real agent may take a while); returns their texts. */
export async function answersAtLeast(panel: Page, count: number, timeoutMs = 60_000): Promise<string[]> {
  await expect.poll(() => completedAnswers(panel).count(), { timeout: timeoutMs }).toBeGreaterThanOrEqual(count);
  return agentTexts(panel);
}

/**
 * Stops the extension's service worker and waits up to 30 s until host processes run again and none of them is one
 * that ran before: a new host proves the worker started again (losing what it held in memory) and reconnected.
 */
export async function restartWorker(browser: LaunchedBrowser): Promise<void> {
  const hostsBefore = await browser.findProcesses(HOST_ARG);
  await browser.stopServiceWorkers();
  await expect
    .poll(
      async () => {
        const now = await browser.findProcesses(HOST_ARG);
        return now.length > 0 && now.every((pid) => !hostsBefore.includes(pid));
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}
